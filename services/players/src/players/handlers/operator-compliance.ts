// The operator's compliance profile: players.compliance.get (other services applying a `br-spa`
// rule), and our team's GET/PUT /admin/operators/:id/compliance (audited by the gateway).
import {
  EVERY_PLAYER,
  playerChangedSubject,
  validationError,
  type PlayerChanged,
  type complianceAdminOperations,
  type complianceProfileMessages,
} from '@bo/contracts';
import { adminScopeOf, type HandlerOf, type ServiceDeps } from '@bo/service-kit';
import { complianceView, isTimeZone } from '../../rg/index.ts';
import { complianceRow, lockComplianceRow, saveComplianceRow, writtenComplianceRow } from '../store/compliance-profile.ts';

export function operatorCompliance(deps: ServiceDeps): HandlerOf<typeof complianceProfileMessages.get> {
  return async (req) => {
    const row = await complianceRow(deps.orm.em.fork(), req.body.operatorId);
    return { status: 200, body: complianceView(req.body.operatorId, row) };
  };
}

export function adminGetCompliance(deps: ServiceDeps): HandlerOf<typeof complianceAdminOperations.adminGetCompliance> {
  return async (req) => {
    adminScopeOf(req);
    const row = await complianceRow(deps.orm.em.fork(), req.params.id);
    return { status: 200, body: complianceView(req.params.id, row) };
  };
}

export function adminSetCompliance(deps: ServiceDeps): HandlerOf<typeof complianceAdminOperations.adminSetCompliance> {
  return async (req) => {
    const { actor } = adminScopeOf(req);
    const { params, body: input } = req;
    if (input.timeZone !== undefined && !isTimeZone(input.timeZone)) {
      throw validationError('body', [{ path: '/timeZone', message: 'must be an IANA time zone, for example America/Sao_Paulo' }]);
    }
    const answer = await deps.orm.em.fork().transactional(async (tx) => {
      const row = await lockComplianceRow(tx, params.id);
      const before = complianceView(params.id, row);
      const next = {
        operatorId: params.id,
        profile: input.profile,
        timeZone: input.timeZone ?? before.timeZone,
        coolingOffHours: input.coolingOffHours ?? before.coolingOffHours,
        realityCheckMinutes: input.realityCheckMinutes ?? before.realityCheckMinutes,
        selfExclusionPlatformUrl: input.selfExclusionPlatformUrl === undefined ? before.selfExclusionPlatformUrl : input.selfExclusionPlatformUrl,
        updatedAt: new Date(),
        updatedBy: actor,
      };
      saveComplianceRow(tx, row, next);
      await tx.flush();
      const after = complianceView(params.id, await writtenComplianceRow(tx, params.id));
      return { status: 200, body: after, audit: { target: `operator:${params.id}`, before, after } };
    });
    // Every player's players.state carries the profile: the enforcing services' caches drop them all before the answer.
    deps.nc.publish(playerChangedSubject(deps.prefix), JSON.stringify({ playerId: EVERY_PLAYER } satisfies PlayerChanged));
    return answer;
  };
}
