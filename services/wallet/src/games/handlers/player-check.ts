// The player check of play, demo and real, on every round (and when the page opens), so a session
// never outlives a self-exclusion, a suspension or a KYC revocation.
import { playerStatesOf, type PlayerState } from '@bo/contracts';
import type { GamesContext } from './context.ts';
import type { GameSessionRow } from '../store/entities.ts';
import { assertPlayerExists, assertPlayerMayPlay } from '../domain/eligibility.ts';

/** players.state for the session's player: exists, KYC aprovado, not self-excluded nor paused, ativo; the state is returned for the round's limits. */
export async function assertStillMayPlay(ctx: GamesContext, session: Pick<GameSessionRow, 'brandId' | 'playerId'>, requestId: string): Promise<PlayerState> {
  // Through the cache the players service invalidates on every change: its broadcast is published
  // before its reply on the same connection, so it reaches this process before any round sent
  // after the change was answered (docs/games.md, "Stopping play").
  const state = await playerStatesOf(ctx.deps).get(session.brandId, session.playerId, { requestId });
  assertPlayerExists(state);
  assertPlayerMayPlay(state);
  return state;
}
