// games.play.session (gateway launch page, GET /play/:token): what the page needs to render the
// session. The token is verified here, the only place that holds GAME_LAUNCH_SECRET.
import { AppError, type PlayParams, type PlaySessionView } from '@bo/contracts';
import { formatMoney, type Handler, internalScopeOf } from '@bo/service-kit';
import type { EntityManager } from '@mikro-orm/postgresql';
import { LockMode } from '@mikro-orm/core';
import { GameEntity, GameSessionEntity, type GameRow, type GameSessionRow } from '../persistence/entities.ts';
import { BET_LIMITS } from '../domain/rounds.ts';
import type { GamesContext } from './context.ts';

export const REAL_PLAY_NOTICE = 'Real-money play is not available yet.';

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
  ctx: GamesContext, em: EntityManager, token: unknown, opts: { lock?: boolean } = {},
): Promise<{ session: GameSessionRow; game: GameRow }> {
  const session = await em.findOne(GameSessionEntity, { id: verifyLaunchToken(ctx, token) },
    opts.lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {});
  if (!session) throw new AppError('LAUNCH_TOKEN_INVALID');
  if (session.expiresAt.getTime() <= Date.now()) throw new AppError('LAUNCH_TOKEN_EXPIRED');
  const game = await em.findOneOrFail(GameEntity, { id: session.gameId });
  return { session, game };
}

export function playSession(ctx: GamesContext): Handler {
  return async (req) => {
    internalScopeOf(req);
    const { session, game } = await openSessionByToken(ctx, ctx.deps.orm.em.fork(), (req.params as Partial<PlayParams>)?.token);
    const external = game.kind === 'external';
    const view: PlaySessionView = {
      sessionId: session.id,
      mode: session.mode,
      currency: session.currency,
      balance: session.demoBalance == null ? null : formatMoney(session.demoBalance),
      expiresAt: session.expiresAt.toISOString(),
      playable: !external && session.mode === 'demo',
      notice: session.mode === 'real' && !external ? REAL_PLAY_NOTICE : null,
      game: { id: game.id, name: game.name, provider: game.provider, category: game.category, kind: game.kind },
      launch: external && session.providerUrl ? { type: 'redirect', url: session.providerUrl } : { type: 'page' },
      limits: { ...BET_LIMITS },
    };
    return { status: 200, body: view };
  };
}
