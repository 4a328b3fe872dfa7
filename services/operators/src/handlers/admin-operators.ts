// The admin operations on operators, their webhook endpoints and their keys (the gateway forwards
// them with an admin scope; the actor is who the audit log names).
import { operatorAdminOperations as ops } from '@bo/contracts';
import { adminScopeOf, handle, type Handler } from '@bo/service-kit';
import type { OperatorsRuntime } from '../runtime.ts';

export function adminOperatorHandlers(rt: OperatorsRuntime): Record<string, Handler> {
  const { operators, keys } = rt;
  const who = (req: { ctx: { requestId: string } } & Parameters<typeof adminScopeOf>[0]) => [adminScopeOf(req).actor, req.ctx.requestId] as const;
  return {
    ...handle(ops.adminCreateOperator, async (req) => ({ status: 201, body: await operators.create(req.body, ...who(req)) })),
    ...handle(ops.adminListOperators, async (req) => {
      adminScopeOf(req);
      return { body: { data: await operators.list() } };
    }),
    ...handle(ops.adminGetOperator, async (req) => {
      adminScopeOf(req);
      return { body: await operators.get(req.params.id) };
    }),
    ...handle(ops.adminSuspendOperator, async (req) => ({
      body: await operators.update(req.params.id, 'adminSuspendOperator', ...who(req), (o) => {
        o.status = 'suspended';
      }),
    })),
    ...handle(ops.adminResumeOperator, async (req) => ({
      body: await operators.update(req.params.id, 'adminResumeOperator', ...who(req), (o) => {
        o.status = 'active';
      }),
    })),
    ...handle(ops.adminSetAllowedIps, async (req) => ({ body: await operators.setAllowedIps(req.params.id, req.body.ips, ...who(req)) })),
    ...handle(ops.adminSetRateLimit, async (req) => ({
      body: await operators.update(req.params.id, 'adminSetRateLimit', ...who(req), (o) => {
        o.rateLimitPerMinute = req.body.perMinute;
      }),
    })),
    ...handle(ops.adminSetWebhookUrl, async (req) => ({
      body: await operators.setWebhookUrl(req.params.id, req.params.environment, req.body.url, ...who(req)),
    })),
    ...handle(ops.adminRotateWebhookSecret, async (req) => ({
      body: await operators.rotateWebhookSecret(req.params.id, req.params.environment, req.body.overlapSeconds ?? 86_400, ...who(req)),
    })),
    ...handle(ops.adminListOperatorCredentials, async (req) => {
      adminScopeOf(req);
      return { body: { data: await keys.list(req.params.id) } };
    }),
    ...handle(ops.adminRotateOperatorKey, async (req) => ({
      status: 201,
      body: await keys.rotate(req.params.id, req.params.environment, req.body.overlapMinutes, ...who(req)),
    })),
    ...handle(ops.adminRevokeOperatorKey, async (req) => ({ body: await keys.revoke(req.params.id, req.params.credentialId, ...who(req)) })),
  };
}
