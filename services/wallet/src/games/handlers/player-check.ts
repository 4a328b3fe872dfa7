// The player check of real-money play, asked of the players service on every round (and when the
// page opens), so a session never outlives a self-exclusion, a suspension or a KYC revocation.
import { PLAYER_STATE_SUBJECT, type PlayerState, type PlayerStateRequest } from '@bo/contracts';
import type { GamesContext } from './context.ts';
import type { GameSessionRow } from '../persistence/entities.ts';
import { assertPlayerExists, assertPlayerMayPlay } from '../domain/eligibility.ts';

/** players.state for the session's player: exists, KYC aprovado, not self-excluded, ativo. */
export async function assertStillMayPlay(ctx: GamesContext, session: Pick<GameSessionRow, 'brandId' | 'playerId'>, requestId: string): Promise<void> {
  const state = await ctx.deps.call<PlayerState>(PLAYER_STATE_SUBJECT,
    { brandId: session.brandId, playerId: session.playerId } satisfies PlayerStateRequest, { requestId });
  assertPlayerExists(state);
  assertPlayerMayPlay(state);
}
