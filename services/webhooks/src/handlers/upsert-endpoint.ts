// `webhooks.endpoints.upsert` (internal, from the gateway, which owns operators): sets the URL
// and/or the signing secret of one operator + environment. The URL is validated here (https in
// production, SSRF guard) so the gateway records only URLs we will deliver to; the secret is
// stored sealed.
import { validationError, type UpsertEndpointResult, type webhookMessages } from '@bo/contracts';
import { sealSecret, type HandlerOf } from '@bo/service-kit';
import { webhookUrlProblem } from '../delivery/destination-guard.ts';
import type { WebhooksRuntime } from '../runtime.ts';
import { teamScopeOf } from '@bo/service-kit';

interface EndpointState { url: string | null; hasSecret: boolean; brandId: string }

export function upsertEndpoint(rt: WebhooksRuntime): HandlerOf<typeof webhookMessages.upsertEndpoint> {
  return async (req) => {
    teamScopeOf(req);
    const { body } = req;
    if (typeof body.url === 'string') {
      const problem = await webhookUrlProblem(body.url, body.environment, rt.policy);
      if (problem) throw validationError('body', [{ path: '/url', message: `url ${problem}` }], `The webhook URL is not acceptable: ${problem}.`);
    }
    const setUrl = body.url !== undefined;
    const setSecret = body.secret !== undefined;
    const sealed = setSecret ? sealSecret(body.secret!, rt.config.SECRETS_MASTER_KEY) : null;

    const { before, after } = await rt.deps.orm.em.fork().transactional(async (tx) => {
      const [prior] = await tx.execute<{ url: string | null; has_secret: boolean; brand_id: string }[]>(
        `select url, secret_sealed is not null as has_secret, brand_id from webhooks.endpoints
         where operator_id = ? and environment = ? for update`, [body.operatorId, body.environment]);
      const [row] = await tx.execute<{ url: string | null; has_secret: boolean; brand_id: string }[]>(
        `insert into webhooks.endpoints (operator_id, environment, brand_id, url, secret_sealed) values (?, ?, ?, ?, ?)
         on conflict (operator_id, environment) do update set
           brand_id = excluded.brand_id,
           url = case when ?::boolean then excluded.url else endpoints.url end,
           secret_sealed = case when ?::boolean then excluded.secret_sealed else endpoints.secret_sealed end,
           updated_at = now()
         returning url, secret_sealed is not null as has_secret, brand_id`,
        [body.operatorId, body.environment, body.brandId, setUrl ? body.url ?? null : null, sealed, setUrl, setSecret]);
      const view = (r: { url: string | null; has_secret: boolean; brand_id: string }): EndpointState => ({ url: r.url, hasSecret: r.has_secret, brandId: r.brand_id });
      return { before: prior ? view(prior) : null, after: view(row) };
    });
    const result: UpsertEndpointResult = {
      operatorId: body.operatorId, environment: body.environment, brandId: after.brandId, url: after.url, hasSecret: after.hasSecret,
    };
    return { status: 200, body: result, audit: { target: `webhook_endpoint:${body.operatorId}:${body.environment}`, before, after } };
  };
}
