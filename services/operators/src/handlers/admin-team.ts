// The admin operations on our team (people, service tokens) and the audit log.
import { AppError, operatorAdminOperations, personalDataReadOperations, teamAdminOperations as ops } from '@bo/contracts';
import { adminScopeOf, handle, type Handler } from '@bo/service-kit';
import { listAudit } from '../store/audit.ts';
import { listPersonalDataReads } from '../store/personal-data-reads.ts';
import type { OperatorsRuntime } from '../runtime.ts';
import { actorAndRequest } from './admin-actor.ts';

/** The person asking about their own tokens: a team member's id (a stand-in's `actor:` id owns none). */
function ownerOf(req: Parameters<typeof adminScopeOf>[0]): string {
  const { personId } = adminScopeOf(req);
  if (!personId || personId.startsWith('actor:')) throw new AppError('TOKEN_OWNER_REQUIRED');
  return personId;
}

export function adminTeamHandlers(rt: OperatorsRuntime): Record<string, Handler> {
  const { team } = rt;
  return {
    ...handle(ops.adminCreateUser, async (req) => ({ status: 201, body: await team.createMember(req.body, adminScopeOf(req), req.ctx.requestId) })),
    ...handle(ops.adminConfirmUser, async (req) => ({ body: await team.confirmMember(req.params.id, adminScopeOf(req), req.ctx.requestId) })),
    ...handle(ops.adminListUsers, async (req) => {
      adminScopeOf(req);
      return { body: { data: await team.listMembers() } };
    }),
    ...handle(ops.adminDisableUser, async (req) => ({ body: await team.disableMember(req.params.id, ...actorAndRequest(req)) })),
    ...handle(ops.adminResetPassword, async (req) => ({ body: await team.resetPassword(req.params.id, adminScopeOf(req), req.ctx.requestId) })),
    ...handle(ops.adminResetSecondFactor, async (req) => ({ body: await team.resetSecondFactor(req.params.id, ...actorAndRequest(req)) })),
    ...handle(ops.adminCreateToken, async (req) => ({ status: 201, body: await team.createToken(req.body, ...actorAndRequest(req)) })),
    ...handle(ops.adminListTokens, async (req) => {
      adminScopeOf(req);
      return { body: { data: await team.listTokens() } };
    }),
    ...handle(ops.adminRevokeToken, async (req) => ({ body: await team.revokeToken(req.params.id, ...actorAndRequest(req)) })),
    // A person's own tokens (issue #56): the gateway lets only the person themselves ask, and makes
    // one only from their console session; here the person must be active, set up and present.
    ...handle(ops.adminCreateOwnToken, async (req) => {
      const person = await rt.sessions.personPresent(ownerOf(req), req.body.totp, req.ctx.requestId);
      return { status: 201, body: await team.createOwnToken(person, req.body.name, req.ctx.requestId) };
    }),
    ...handle(ops.adminListOwnTokens, async (req) => ({ body: { data: await team.listTokens(ownerOf(req)) } })),
    ...handle(ops.adminRevokeOwnToken, async (req) => ({
      body: await team.revokeToken(req.params.id, ...actorAndRequest(req), ownerOf(req)),
    })),
    ...handle(personalDataReadOperations.adminListPersonalDataReads, async (req) => {
      adminScopeOf(req);
      return { body: await listPersonalDataReads(rt.deps.sql, req.query) };
    }),
    ...handle(operatorAdminOperations.adminListAudit, async (req) => {
      adminScopeOf(req);
      return { body: await listAudit(rt.deps.sql, req.query) };
    }),
  };
}
