// The operator's compliance profile: players.compliance.get (other services applying a `br-spa`
// rule), and our team's GET/PUT /admin/operators/:id/compliance: a person's decision with its
// reason, audited in its transaction, counted; turning the rules off takes two people
// (compliance-changes.ts, issue #56).
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  AppError,
  EVERY_PLAYER,
  playerChangedSubject,
  validationError,
  type ComplianceSettings,
  type OperatorCompliance,
  type PlayerChanged,
  type complianceAdminOperations,
  type complianceProfileMessages,
} from '@bo/contracts';
import { adminScopeOf, counter, decisionAuthorOf, sqlIn, writeDecisionAudit, type HandlerOf, type ServiceDeps } from '@bo/service-kit';
import { complianceView, isTimeZone } from '../../rg/index.ts';
import { COMPLIANCE_CHANGE_EVENTS, changeKind, turnsRulesOff } from '../domain/compliance-changes.ts';
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

/** The settings a change sets, checked beyond their schema. */
export function checkSettings(input: ComplianceSettings): void {
  if (input.timeZone !== undefined && !isTimeZone(input.timeZone)) {
    throw validationError('body', [{ path: '/timeZone', message: 'must be an IANA time zone, for example America/Sao_Paulo' }]);
  }
}

/** The operator's profile row locked in the caller's transaction, as the view reads it. */
export async function lockedCompliance(tx: EntityManager, operatorId: string) {
  const row = await lockComplianceRow(tx, operatorId);
  return { row, view: complianceView(operatorId, row) };
}

/** Sets the profile and settings (omitted ones kept) on the locked row: the view after. */
export async function applySettings(
  tx: EntityManager,
  locked: Awaited<ReturnType<typeof lockedCompliance>>,
  operatorId: string,
  input: ComplianceSettings,
  actor: string,
): Promise<OperatorCompliance> {
  const before = locked.view;
  const next = {
    operatorId,
    profile: input.profile,
    timeZone: input.timeZone ?? before.timeZone,
    coolingOffHours: input.coolingOffHours ?? before.coolingOffHours,
    realityCheckMinutes: input.realityCheckMinutes ?? before.realityCheckMinutes,
    selfExclusionPlatformUrl: input.selfExclusionPlatformUrl === undefined ? before.selfExclusionPlatformUrl : input.selfExclusionPlatformUrl,
    updatedAt: new Date(),
    updatedBy: actor,
  };
  saveComplianceRow(tx, locked.row, next);
  await tx.flush();
  return complianceView(operatorId, await writtenComplianceRow(tx, operatorId));
}

/**
 * Our team's profile changes and the steps of the two-person flow, counted (issue #56: an alert to
 * compliance, deploy/k8s/monitoring `ComplianceRulesTurnedOff`, `ComplianceRulesOffRequested`); every
 * label at 0 from the start.
 */
export function complianceChangeMetric(deps: Pick<ServiceDeps, 'metrics'>) {
  const changes = counter(
    deps.metrics,
    'bo_compliance_profile_changes_total',
    "Our team's changes of operators' compliance profiles: rules_on, rules_off, settings, and the two-person flow's rules_off_requested, rules_off_cancelled.",
    ['change'] as const,
  );
  for (const change of COMPLIANCE_CHANGE_EVENTS) changes.inc({ change }, 0);
  return changes;
}

/**
 * After a change committed: every player's players.state carries the profile, so the enforcing
 * services' caches drop them all before the answer; the audit row leaves through the outbox now.
 */
export function announceProfileChanged(deps: ServiceDeps): void {
  deps.outbox.poke();
  deps.nc.publish(playerChangedSubject(deps.prefix), JSON.stringify({ playerId: EVERY_PLAYER } satisfies PlayerChanged));
}

/**
 * A person's change of the profile, with its reason, applied at once: turning the br-spa rules on,
 * or settings. Turning them off takes two people (403 FOUR_EYES_REQUIRED naming the way:
 * compliance-changes.ts), checked on the locked row, so nothing is written.
 */
export function adminSetCompliance(deps: ServiceDeps): HandlerOf<typeof complianceAdminOperations.adminSetCompliance> {
  const metric = complianceChangeMetric(deps);
  return async (req) => {
    const scope = adminScopeOf(req);
    const { params, body: input } = req;
    const { reason, ...settings } = input;
    checkSettings(settings);
    const { answer, kind } = await deps.orm.em.fork().transactional(async (tx) => {
      const locked = await lockedCompliance(tx, params.id);
      const before = locked.view;
      if (turnsRulesOff(before.profile, settings.profile)) {
        throw new AppError(
          'FOUR_EYES_REQUIRED',
          `Turning the br-spa rules of ${params.id} off takes two people: request it (POST /admin/operators/${params.id}/compliance/changes, with the reason), and another person confirms it.`,
          { requestWith: `POST /admin/operators/${params.id}/compliance/changes` },
        );
      }
      const after = await applySettings(tx, locked, params.id, settings, scope.actor);
      await writeDecisionAudit(sqlIn(tx), deps.schema, decisionAuthorOf(scope, req.ctx), {
        action: 'adminSetCompliance',
        target: `operator:${params.id}`,
        before,
        after: { ...after, reason },
      });
      return { answer: { status: 200, body: after }, kind: changeKind(before.profile, after.profile) };
    });
    metric.inc({ change: kind });
    announceProfileChanged(deps);
    return answer;
  };
}
