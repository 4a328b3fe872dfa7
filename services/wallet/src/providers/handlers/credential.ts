// wallet.provider.credential: the gateway's lookup of a provider key by its SHA-256, on a miss of
// its cache. Internal: the gateway's scope only. Unknown, revoked and ended keys are null.
import { providerMessages as m } from '@bo/contracts';
import { handle, internalScopeOf, isoTime, type Handler } from '@bo/service-kit';
import { credentialByKeyHash } from '../store/registry.ts';
import type { ProvidersContext } from './context.ts';

export function credentialLookup(ctx: ProvidersContext): Record<string, Handler> {
  return handle(m.credential, async (req) => {
    internalScopeOf(req);
    const c = await credentialByKeyHash(ctx.deps.sql, req.body.keyHash);
    return { status: 200, body: { credential: c ? { ...c, expiresAt: c.expiresAt ? isoTime(c.expiresAt) : null } : null } };
  });
}
