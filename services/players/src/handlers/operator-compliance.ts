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
import { LockMode } from '@mikro-orm/postgresql';
import { OperatorComplianceEntity } from '../store/entities.ts';
import { complianceView, isTimeZone } from '../domain/compliance-profile.ts';

export function operatorCompliance(deps: ServiceDeps): HandlerOf<typeof complianceProfileMessages.get> {
  return async (req) => {
    const row = await deps.orm.em.fork().findOne(OperatorComplianceEntity, { operatorId: req.body.operatorId });
    return { status: 200, body: complianceView(req.body.operatorId, row) };
  };
}

export function adminGetCompliance(deps: ServiceDeps): HandlerOf<typeof complianceAdminOperations.adminGetCompliance> {
  return async (req) => {
    adminScopeOf(req);
    const row = await deps.orm.em.fork().findOne(OperatorComplianceEntity, { operatorId: req.params.id });
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
      const row = await tx.findOne(OperatorComplianceEntity, { operatorId: params.id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
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
      if (row) Object.assign(row, next);
      else tx.persist(tx.create(OperatorComplianceEntity, next));
      await tx.flush();
      const after = complianceView(params.id, await tx.findOneOrFail(OperatorComplianceEntity, { operatorId: params.id }));
      return { status: 200, body: after, audit: { target: `operator:${params.id}`, before, after } };
    });
    // Every player's players.state carries the profile: the enforcing services' caches drop them all before the answer.
    deps.nc.publish(playerChangedSubject(deps.prefix), JSON.stringify({ playerId: EVERY_PLAYER } satisfies PlayerChanged));
    return answer;
  };
}
