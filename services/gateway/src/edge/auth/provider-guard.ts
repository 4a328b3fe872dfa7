// What happens to a provider's request before validation (docs/providers.md, "Signing"): key →
// timestamp → signature → caller IP → JSON body. No idempotency claim and no signature binding:
// every money call carries the provider's transaction id, which the wallet keeps as the key of
// its effect (a replay answers the first answer). A disabled provider passes here: its wins and
// rollbacks still settle; the wallet refuses its bets.
import type { FastifyRequest } from 'fastify';
import { AppError, timestampInRange, verifyRequestSignature } from '@bo/contracts';
import { jsonObjectBody } from '@bo/http-kit';
import type { ProviderCredentials } from './provider-credentials.ts';

function header(req: FastifyRequest, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * docs/providers.md, "Signing" step 5: a body is sent as `application/json` (parameters such as
 * `charset=utf-8` allowed) and nothing else: the operators' API also takes `+json` types
 * (docs/decisions.md), the provider API as documented does not. No body needs no type.
 */
function assertProviderJsonType(req: FastifyRequest): void {
  if ((req.rawBody?.length ?? 0) === 0) return;
  const type = (header(req, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Request bodies must be sent as application/json.');
}

export function providerGuard(credentials: ProviderCredentials) {
  return async function guard(req: FastifyRequest): Promise<undefined> {
    const op = req.routeOptions.config.op;
    if (!op) return undefined;
    const cred = await credentials.lookup(header(req, 'x-provider-key'));
    if (!cred) throw new AppError('INVALID_CREDENTIALS', 'Unknown or malformed provider key (X-Provider-Key).');
    const ts = header(req, 'x-timestamp');
    if (!timestampInRange(ts)) throw new AppError('TIMESTAMP_OUT_OF_RANGE');
    if (!verifyRequestSignature(cred.key, req.method, req.raw.url ?? req.url, ts!, req.rawBody, header(req, 'x-signature'))) {
      throw new AppError('INVALID_SIGNATURE');
    }
    if (!cred.isAllowedIp(req.ip)) throw new AppError('FORBIDDEN_IP', 'The caller address is not in the provider allow-list.');
    req.providerCredential = cred;
    assertProviderJsonType(req);
    const body = jsonObjectBody(req);
    if (op.body) req.body = body;
    return undefined;
  };
}
