// Turning an operator's br-spa rules off takes two people (issue #56): one requests it with a
// reason (a pending change), another person confirms it with theirs (applied then) or someone
// cancels it; unconfirmed it expires after COMPLIANCE_CHANGE_HOURS. Each step is audited in its
// transaction and counted (bo_compliance_profile_changes_total: the alert to compliance); the
// list is the console's notice. The operator's profile row is locked first by every step that
// changes it, so a request, a confirmation and a direct change are taken one after the other.
import { AppError, COMPLIANCE_CHANGE_HOURS, newId, validationError, type ComplianceChangeStatus, type complianceAdminOperations } from '@bo/contracts';
import { adminScopeOf, deciderOf, decisionAuthorOf, sqlIn, writeDecisionAudit, type HandlerOf, type ServiceDeps } from '@bo/service-kit';
import { changeKind, changeView, effectiveStatus } from '../domain/compliance-changes.ts';
import { insertPendingChange, isPendingConflict, listChanges, lockChange, pendingChangeOf } from '../store/compliance-changes.ts';
import { announceProfileChanged, applySettings, checkSettings, complianceChangeMetric, lockedCompliance } from './operator-compliance.ts';

const HOUR_MS = 3_600_000;

export function adminRequestComplianceChange(deps: ServiceDeps): HandlerOf<typeof complianceAdminOperations.adminRequestComplianceChange> {
  const metric = complianceChangeMetric(deps);
  return async (req) => {
    const scope = adminScopeOf(req);
    const operatorId = req.params.id;
    const { reason, ...change } = req.body;
    checkSettings(change);
    if (change.profile !== 'off') {
      throw validationError('body', [
        { path: '/profile', message: `must be off: a change that turns no rule off is made at once (PUT /admin/operators/${operatorId}/compliance)` },
      ]);
    }
    const now = new Date();
    const view = await deps.orm.em
      .fork()
      .transactional(async (tx) => {
        const { view: before } = await lockedCompliance(tx, operatorId);
        const row = await insertPendingChange(tx, {
          id: newId('complianceChange'),
          operatorId,
          status: 'pending',
          change,
          fromProfile: before.profile,
          reason,
          requestedBy: scope.actor,
          requestedById: deciderOf(scope),
          requestedAt: now,
          expiresAt: new Date(now.getTime() + COMPLIANCE_CHANGE_HOURS * HOUR_MS),
        });
        const requested = changeView(row, now);
        await writeDecisionAudit(sqlIn(tx), deps.schema, decisionAuthorOf(scope, req.ctx), {
          action: 'adminRequestComplianceChange',
          target: `operator:${operatorId}`,
          before,
          after: requested,
        });
        return requested;
      })
      .catch(async (err: unknown) => {
        if (!isPendingConflict(err)) throw err;
        const pending = await pendingChangeOf(deps.orm.em.fork(), operatorId);
        throw new AppError('COMPLIANCE_CHANGE_PENDING', undefined, { changeId: pending?.id ?? null });
      });
    metric.inc({ change: 'rules_off_requested' });
    deps.outbox.poke();
    return { status: 201, body: view };
  };
}

/** The change's state refused: no longer pending (confirmed, cancelled or expired). */
const notPending = (status: ComplianceChangeStatus) => new AppError('COMPLIANCE_CHANGE_NOT_PENDING', undefined, { status });

export function adminConfirmComplianceChange(deps: ServiceDeps): HandlerOf<typeof complianceAdminOperations.adminConfirmComplianceChange> {
  const metric = complianceChangeMetric(deps);
  return async (req) => {
    const scope = adminScopeOf(req);
    const { id: operatorId, changeId } = req.params;
    const now = new Date();
    const { view, kind } = await deps.orm.em.fork().transactional(async (tx) => {
      const locked = await lockedCompliance(tx, operatorId);
      const row = await lockChange(tx, operatorId, changeId);
      const status = effectiveStatus(row, now);
      if (status !== 'pending') throw notPending(status);
      // Four eyes: people are compared (a person's session and token are one id), never names.
      if (row.requestedById === deciderOf(scope)) {
        throw new AppError('FOUR_EYES_REQUIRED', 'You requested this change of the compliance profile: another person confirms it.');
      }
      const after = await applySettings(tx, locked, operatorId, row.change, scope.actor);
      Object.assign(row, { status: 'confirmed', decidedBy: scope.actor, decidedById: deciderOf(scope), decidedAt: now, decisionReason: req.body.reason });
      await tx.flush();
      const confirmed = changeView(row, now);
      await writeDecisionAudit(sqlIn(tx), deps.schema, decisionAuthorOf(scope, req.ctx), {
        action: 'adminConfirmComplianceChange',
        target: `operator:${operatorId}`,
        before: locked.view,
        after: { ...after, change: confirmed },
      });
      return { view: confirmed, kind: changeKind(locked.view.profile, after.profile) };
    });
    metric.inc({ change: kind });
    announceProfileChanged(deps);
    return { status: 200, body: view };
  };
}

export function adminCancelComplianceChange(deps: ServiceDeps): HandlerOf<typeof complianceAdminOperations.adminCancelComplianceChange> {
  const metric = complianceChangeMetric(deps);
  return async (req) => {
    const scope = adminScopeOf(req);
    const { id: operatorId, changeId } = req.params;
    const now = new Date();
    const view = await deps.orm.em.fork().transactional(async (tx) => {
      const row = await lockChange(tx, operatorId, changeId);
      const before = changeView(row, now);
      if (before.status !== 'pending') throw notPending(before.status);
      Object.assign(row, { status: 'cancelled', decidedBy: scope.actor, decidedById: deciderOf(scope), decidedAt: now, decisionReason: req.body.reason });
      await tx.flush();
      const cancelled = changeView(row, now);
      await writeDecisionAudit(sqlIn(tx), deps.schema, decisionAuthorOf(scope, req.ctx), {
        action: 'adminCancelComplianceChange',
        target: `operator:${operatorId}`,
        before,
        after: cancelled,
      });
      return cancelled;
    });
    metric.inc({ change: 'rules_off_cancelled' });
    deps.outbox.poke();
    return { status: 200, body: view };
  };
}

/** Which stored statuses can read as the one asked (a pending row past its time reads `expired`). */
const STORED: Record<ComplianceChangeStatus, readonly ComplianceChangeStatus[]> = {
  pending: ['pending'],
  expired: ['pending', 'expired'],
  confirmed: ['confirmed'],
  cancelled: ['cancelled'],
};

export function adminListComplianceChanges(deps: ServiceDeps): HandlerOf<typeof complianceAdminOperations.adminListComplianceChanges> {
  return async (req) => {
    adminScopeOf(req);
    const { operatorId, status, limit = 50 } = req.query;
    const now = new Date();
    const rows = await listChanges(deps.orm.em.fork(), { ...(operatorId ? { operatorId } : {}), ...(status ? { statuses: STORED[status] } : {}), limit });
    const data = rows.map((r) => changeView(r, now)).filter((c) => status === undefined || c.status === status);
    return { status: 200, body: { data } };
  };
}
