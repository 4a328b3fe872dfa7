// wallet.provider.authenticate and .balance: what a provider learns of a session token. Authenticate
// wants a live session; balance reads with an expired one too (a provider shows the balance after
// the session, and settles without one).
import { AppError, type ProviderScope, type providerOperations } from '@bo/contracts';
import { providerScopeOf, ruleClock, type HandlerOf } from '@bo/service-kit';
import { hashSessionToken } from '../../games/index.ts';
import { stakeableNow } from '../../ledger/index.ts';
import { findSession, type SessionStanding } from '../store/reads.ts';
import type { ProvidersContext } from './context.ts';

/** The token's session, only in the key's environment: a sandbox key never reaches a production player, nor the reverse. */
async function sessionOf(ctx: ProvidersContext, { providerId, environment }: ProviderScope, token: string): Promise<SessionStanding> {
  const session = await findSession(ctx.deps.sql, providerId, hashSessionToken(token));
  if (!session || session.environment !== environment) throw new AppError('SESSION_TOKEN_INVALID');
  return session;
}

export function providerAuthenticate(ctx: ProvidersContext): HandlerOf<typeof providerOperations.providerAuthenticate> {
  return async (req) => {
    const session = await sessionOf(ctx, providerScopeOf(req), req.body.token);
    if (session.expiresAt.getTime() <= ruleClock.now().getTime()) {
      throw new AppError('SESSION_TOKEN_EXPIRED', undefined, { expiredAt: session.expiresAt.toISOString() });
    }
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

export function providerBalance(ctx: ProvidersContext): HandlerOf<typeof providerOperations.providerBalance> {
  return async (req) => {
    const session = await sessionOf(ctx, providerScopeOf(req), req.body.token);
    const balance = await stakeableNow(ctx.deps.sql, session.brandId, session.playerId, session.currency);
    return { status: 200, body: { playerId: session.playerId, currency: session.currency, balance } };
  };
}
