// The admin operations on our team (people, service tokens) and the audit log.
import { operatorAdminOperations, teamAdminOperations as ops } from '@bo/contracts';
import { adminScopeOf, handle, type Handler } from '@bo/service-kit';
import { listAudit } from '../store/audit.ts';
import type { OperatorsRuntime } from '../runtime.ts';
import { actorAndRequest } from './admin-actor.ts';

export function adminTeamHandlers(rt: OperatorsRuntime): Record<string, Handler> {
  const { team } = rt;
  return {
    ...handle(ops.adminCreateUser, async (req) => ({ status: 201, body: await team.createMember(req.body, ...actorAndRequest(req)) })),
    ...handle(ops.adminListUsers, async (req) => {
      adminScopeOf(req);
      return { body: { data: await team.listMembers() } };
    }),
    ...handle(ops.adminDisableUser, async (req) => ({ body: await team.disableMember(req.params.id, ...actorAndRequest(req)) })),
    ...handle(ops.adminResetPassword, async (req) => ({ body: await team.resetPassword(req.params.id, ...actorAndRequest(req)) })),
    ...handle(ops.adminResetSecondFactor, async (req) => ({ body: await team.resetSecondFactor(req.params.id, ...actorAndRequest(req)) })),
    ...handle(ops.adminCreateToken, async (req) => ({ status: 201, body: await team.createToken(req.body, ...actorAndRequest(req)) })),
    ...handle(ops.adminListTokens, async (req) => {
      adminScopeOf(req);
      return { body: { data: await team.listTokens() } };
    }),
    ...handle(ops.adminRevokeToken, async (req) => ({ body: await team.revokeToken(req.params.id, ...actorAndRequest(req)) })),
    ...handle(operatorAdminOperations.adminListAudit, async (req) => {
      adminScopeOf(req);
      return { body: await listAudit(rt.deps.sql, req.query) };
    }),
  };
}
