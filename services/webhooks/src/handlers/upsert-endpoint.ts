// `webhooks.endpoints.upsert` (internal, from the operators service, which owns operators): sets the
// URL and/or the signing secret of one operator + environment. The URL is validated here (https in
// production, SSRF guard) so the operators service records only URLs we will deliver to; the secret is
// stored sealed. The same change also arrives as an internal event (delivery/endpoint-sync.ts). The
// operators service audits the change in its own transaction.
import { validationError, type UpsertEndpointResult, type webhookMessages } from '@bo/contracts';
import { sealSecret, teamScopeOf, type HandlerOf } from '@bo/service-kit';
import { webhookUrlProblem } from '../delivery/destination-guard.ts';
import { applyEndpointChange } from '../store/endpoint-store.ts';
import type { WebhooksRuntime } from '../runtime.ts';

export function upsertEndpoint(rt: WebhooksRuntime): HandlerOf<typeof webhookMessages.upsertEndpoint> {
  return async (req) => {
    teamScopeOf(req);
    const { body } = req;
    if (typeof body.url === 'string') {
      const problem = await webhookUrlProblem(body.url, body.environment, rt.policy);
      if (problem) throw validationError('body', [{ path: '/url', message: `url ${problem}` }], `The webhook URL is not acceptable: ${problem}.`);
    }
    const secretSealed = body.secretSealed ?? (body.secret !== undefined ? sealSecret(body.secret, rt.config.SECRETS_MASTER_KEY) : undefined);
    const { after } = await rt.deps.sql.transaction((tx) =>
      applyEndpointChange(tx, {
        operatorId: body.operatorId,
        environment: body.environment,
        brandId: body.brandId,
        ...(body.url !== undefined ? { url: body.url } : {}),
        ...(secretSealed !== undefined ? { secretSealed } : {}),
        ...(body.version !== undefined ? { version: body.version } : {}),
        ...(body.previousSecretSealed !== undefined
          ? { previousSecretSealed: body.previousSecretSealed, previousSecretExpiresAt: body.previousSecretExpiresAt ?? null }
          : {}),
      }),
    );
    const result: UpsertEndpointResult = {
      operatorId: body.operatorId,
      environment: body.environment,
      brandId: after.brandId,
      url: after.url,
      hasSecret: after.hasSecret,
    };
    return { status: 200, body: result };
  };
}
