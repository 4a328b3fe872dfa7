// wallet.provider.authenticate, .refreshSession and .balance: what a provider learns of a session
// token. Authenticate and refresh want a live session and move its end on by its inactivity window
// (issue #59 item 4: a session ends after that long without play; Evolution's /check is an
// authenticate); a refresh is also the provider page's heartbeat: the player's time counts toward
// their time limits, as our own game page's heartbeats count, and its answer carries the reality
// check. Balance reads with an expired session too (a provider shows the balance after the session,
// and settles without one).
import { AppError, type ProviderScope, type providerOperations } from '@bo/contracts';
import { formatMoney, playerStatesOf, providerScopeOf, ruleClock, type HandlerOf } from '@bo/service-kit';
import { assertPlayerExists, assertPlayerMayPlay, hashSessionToken } from '../../games/index.ts';
import { playerAccountId, stakeableNow } from '../../ledger/index.ts';
import { recordActivity } from '../../rg/index.ts';
import { findSession, type SessionStanding } from '../store/reads.ts';
import { sessionNetSince, touchSession } from '../store/sessions.ts';
import type { ProvidersContext } from './context.ts';

async function sessionOf(ctx: ProvidersContext, scope: ProviderScope, token: string): Promise<SessionStanding> {
  const session = await findSession(ctx.deps.sql, scope.providerId, scope.environment, hashSessionToken(token));
  if (!session) throw new AppError('SESSION_TOKEN_INVALID');
  return session;
}

const expired = (expiresAt: Date) => new AppError('SESSION_TOKEN_EXPIRED', undefined, { expiredAt: expiresAt.toISOString() });

/** The session, live at `now`, with its end moved on to `now` + its inactivity window (an ended session is never revived). */
async function liveSessionTouched(ctx: ProvidersContext, scope: ProviderScope, token: string, now: Date): Promise<SessionStanding> {
  const session = await sessionOf(ctx, scope, token);
  if (session.expiresAt.getTime() <= now.getTime()) throw expired(session.expiresAt);
  const expiresAt = await touchSession(ctx.deps.sql, session.sessionId, now);
  // It ended between the read and the update (its end is only ever moved on: only time ends it).
  if (!expiresAt) throw expired(session.expiresAt);
  return { ...session, expiresAt };
}

export function providerAuthenticate(ctx: ProvidersContext): HandlerOf<typeof providerOperations.providerAuthenticate> {
  return async (req) => {
    const session = await liveSessionTouched(ctx, providerScopeOf(req), req.body.token, ruleClock.now());
    return {
      status: 200,
      body: {
        playerId: session.playerId,
        brandId: session.brandId,
        currency: session.currency,
        balance: await stakeableNow(ctx.deps.sql, session.brandId, session.playerId, session.currency),
        gameCode: session.gameCode,
        expiresAt: session.expiresAt.toISOString(),
      },
    };
  };
}

export function providerRefreshSession(ctx: ProvidersContext): HandlerOf<typeof providerOperations.providerRefreshSession> {
  return async (req) => {
    const scope = providerScopeOf(req);
    const now = ruleClock.now();
    const found = await sessionOf(ctx, scope, req.body.token);
    if (found.expiresAt.getTime() <= now.getTime()) throw expired(found.expiresAt);
    // A player who may no longer play is refused, as our own page's heartbeat is: the provider ends the game.
    const state = await playerStatesOf(ctx.deps).get(found.brandId, found.playerId, { requestId: req.ctx.requestId });
    assertPlayerExists(state);
    assertPlayerMayPlay(state, now);
    const session = await liveSessionTouched(ctx, scope, req.body.token, now);
    // The time since the player's last activity counts as played (5 idle minutes stop counting), as a
    // heartbeat's, for every player (the harm markers' minutes; a time limit's when the player has one).
    await recordActivity(ctx.deps.sql, playerAccountId(session.brandId, session.playerId, session.currency), now);
    return {
      status: 200,
      body: {
        playerId: session.playerId,
        currency: session.currency,
        startedAt: session.startedAt.toISOString(),
        expiresAt: session.expiresAt.toISOString(),
        idleSeconds: session.idleSeconds,
        realityCheckMinutes: state.rg?.realityCheckMinutes ?? null,
        netResult: formatMoney(await sessionNetSince(ctx.deps.sql, session)),
      },
    };
  };
}

export function providerBalance(ctx: ProvidersContext): HandlerOf<typeof providerOperations.providerBalance> {
  return async (req) => {
    const session = await sessionOf(ctx, providerScopeOf(req), req.body.token);
    const balance = await stakeableNow(ctx.deps.sql, session.brandId, session.playerId, session.currency);
    return { status: 200, body: { playerId: session.playerId, currency: session.currency, balance } };
  };
}
