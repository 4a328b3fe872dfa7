// The admin operations on operators, their webhook endpoints and their keys (the gateway forwards
// them with an admin scope; each change audited in its transaction, naming the actor and person).
import { setTimeout as sleep } from 'node:timers/promises';
import { OPERATOR_STATUS_LEASE_MS, brandAdminOperations, operatorAdminOperations as ops } from '@bo/contracts';
import { adminScopeOf, decisionAuthorOf, handle, type Handler } from '@bo/service-kit';
import type { OperatorsRuntime } from '../runtime.ts';
import { listBrands } from '../store/brands.ts';

/** Who the audit row names, the request, and its key (an admin scope only). */
const authorOf = (req: Parameters<typeof adminScopeOf>[0]) => decisionAuthorOf(adminScopeOf(req), req.ctx);

export function adminOperatorHandlers(rt: OperatorsRuntime): Record<string, Handler> {
  const { operators, keys } = rt;
  return {
    ...handle(ops.adminCreateOperator, async (req) => ({ status: 201, body: await operators.create(req.body, authorOf(req)) })),
    ...handle(ops.adminListOperators, async (req) => {
      adminScopeOf(req);
      return { body: { data: await operators.list() } };
    }),
    // Every brand by operator name (the console's brand picker, issue #61).
    ...handle(brandAdminOperations.adminListBrands, async (req) => {
      adminScopeOf(req);
      return { body: { data: await listBrands(rt.deps.sql, req.query) } };
    }),
    ...handle(ops.adminGetOperator, async (req) => {
      adminScopeOf(req);
      return { body: await operators.get(req.params.id) };
    }),
    ...handle(ops.adminSuspendOperator, async (req) => ({
      body: await afterStatusLeases(
        operators.update(req.params.id, 'adminSuspendOperator', authorOf(req), (o) => {
          o.status = 'suspended';
        }),
      ),
    })),
    ...handle(ops.adminResumeOperator, async (req) => ({
      body: await afterStatusLeases(
        operators.update(req.params.id, 'adminResumeOperator', authorOf(req), (o) => {
          o.status = 'active';
        }),
      ),
    })),
    ...handle(ops.adminSetAllowedIps, async (req) => ({ body: await operators.setAllowedIps(req.params.id, req.body.ips, authorOf(req)) })),
    ...handle(ops.adminSetRateLimit, async (req) => ({
      body: await operators.update(req.params.id, 'adminSetRateLimit', authorOf(req), (o) => {
        o.rateLimitPerMinute = req.body.perMinute;
      }),
    })),
    ...handle(ops.adminSetWebhookUrl, async (req) => ({
      body: await operators.setWebhookUrl(req.params.id, req.params.environment, req.body.url, authorOf(req)),
    })),
    ...handle(ops.adminRotateWebhookSecret, async (req) => ({
      body: await operators.rotateWebhookSecret(req.params.id, req.params.environment, req.body.overlapSeconds ?? 86_400, authorOf(req)),
    })),
    ...handle(ops.adminListOperatorCredentials, async (req) => {
      adminScopeOf(req);
      return { body: { data: await keys.list(req.params.id) } };
    }),
    ...handle(ops.adminRotateOperatorKey, async (req) => ({
      status: 201,
      body: await keys.rotate(req.params.id, req.params.environment, req.body.overlapMinutes, authorOf(req)),
    })),
    ...handle(ops.adminRevokeOperatorKey, async (req) => ({ body: await keys.revoke(req.params.id, req.params.credentialId, authorOf(req)) })),
  };
}

/**
 * A change of status answers once every replica's lease on the old status has ended (the kit's
 * operator-status-lease.ts): a lease runs OPERATOR_STATUS_LEASE_MS from before its read, and every
 * read of the old status was sent before this commit. The broadcast usually drops them sooner.
 */
async function afterStatusLeases<T>(change: Promise<T>): Promise<T> {
  const answer = await change;
  await sleep(OPERATOR_STATUS_LEASE_MS);
  return answer;
}
