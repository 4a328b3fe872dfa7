// games.play.session (gateway launch page, GET /play/:token): what the page needs to render the
// session. The token is verified here, the only place that holds GAME_LAUNCH_SECRET.
import { AppError, isAppError, type gamePlayMessages, type PlaySessionView } from '@bo/contracts';
import { formatMoney, type HandlerOf, internalScopeOf } from '@bo/service-kit';
import type { EntityManager } from '@mikro-orm/postgresql';
import { readWallet } from '../../ledger/index.ts';
import { BET_LIMITS, sessionOver } from '../domain/rounds.ts';
import type { GameRow, GameSessionRow } from '../store/entities.ts';
import { findSessionWithGame } from '../store/session-rows.ts';
import type { GamesContext } from './context.ts';
import { assertStillMayPlay } from './player-check.ts';

/** The session id of a genuine, unexpired launch token; otherwise the page's 403 or 410. */
export function verifyLaunchToken(ctx: GamesContext, token: unknown): string {
  const verified = ctx.tokens.verify(typeof token === 'string' ? token : '');
  if (!verified.ok) throw new AppError(verified.reason === 'expired' ? 'LAUNCH_TOKEN_EXPIRED' : 'LAUNCH_TOKEN_INVALID');
  return verified.claims.sessionId;
}

/**
 * The session a launch token names, if the token is genuine and the session is still open.
 * The row's expires_at is authoritative (it can be shortened to end a session early).
 */
export async function openSessionByToken(
  ctx: GamesContext,
  em: EntityManager,
  token: unknown,
  opts: { lock?: boolean } = {},
): Promise<{ session: GameSessionRow; game: GameRow }> {
  const found = await findSessionWithGame(em, verifyLaunchToken(ctx, token), opts);
  if (!found) throw new AppError('LAUNCH_TOKEN_INVALID');
  if (found.session.expiresAt.getTime() <= Date.now()) throw sessionOver(found.session.endedAt);
  return found;
}

export function playSession(ctx: GamesContext): HandlerOf<typeof gamePlayMessages.session> {
  return async (req) => {
    internalScopeOf(req);
    const em = ctx.deps.orm.em.fork();
    const { session, game } = await openSessionByToken(ctx, em, req.params.token);
    const external = game.kind === 'external';
    let balance = session.demoBalance == null ? null : formatMoney(session.demoBalance);
    // A player who may no longer play sees why instead of a Play button that would be refused;
    // an external game has no page of ours to say it on, so it is refused instead of redirected.
    let realityCheckMinutes: number | undefined;
    const check = async () => {
      const state = await assertStillMayPlay(ctx, session, req.ctx.requestId);
      realityCheckMinutes = state.rg?.realityCheckMinutes;
    };
    let notice: string | null = null;
    if (external) await check();
    else notice = await refusalOf(check);
    if (session.mode === 'real' && !external) {
      // The player's real money: what a bet can take (`available − held`, the wallet's withdrawable).
      balance = (await readWallet(ctx.deps.sql, session.brandId, session.playerId, session.currency)).withdrawable;
    }
    const view: PlaySessionView = {
      sessionId: session.id,
      mode: session.mode,
      currency: session.currency,
      balance,
      expiresAt: session.expiresAt.toISOString(),
      playable: !external && notice === null,
      notice,
      game: { id: game.id, name: game.name, provider: game.provider, category: game.category, kind: game.kind },
      launch: external && session.providerUrl ? { type: 'redirect', url: session.providerUrl } : { type: 'page' },
      limits: { ...BET_LIMITS },
      ...(realityCheckMinutes ? { realityCheckMinutes } : {}),
    };
    return { status: 200, body: view };
  };
}

const PLAYER_REFUSALS = new Set(['PLAYER_NOT_FOUND', 'KYC_NOT_APPROVED', 'RG_BLOCKED', 'PLAYER_NOT_ACTIVE']);

/** The message of a player refusal, or null when the check passes; anything else propagates. */
async function refusalOf(check: () => Promise<unknown>): Promise<string | null> {
  try {
    await check();
    return null;
  } catch (e) {
    if (isAppError(e) && PLAYER_REFUSALS.has(e.code)) return e.message;
    throw e;
  }
}
