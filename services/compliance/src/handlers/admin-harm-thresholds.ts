// An operator's thresholds of the harm markers (issue #68 item 2): read (the defaults until set) and
// set by a person with a reason, audited with the set before and after.
import { AppError, type harmAdminOperations, type HarmThresholds, type OperatorHarmThresholds } from '@bo/contracts';
import { adminScopeOf, decisionAuthorOf, isoTime, writeDecisionAudit, type HandlerOf, type ServiceDeps } from '@bo/service-kit';
import { harmThresholdsOf } from '../harm/harm-thresholds.ts';
import { harmThresholdsRowOf, setHarmThresholds, type HarmThresholdsRow } from '../store/harm-thresholds.ts';

const view = (operatorId: string, row: HarmThresholdsRow | null): OperatorHarmThresholds => ({
  operatorId,
  thresholds: harmThresholdsOf(row?.thresholds as Partial<HarmThresholds> | undefined),
  custom: row !== null,
  reason: row?.reason ?? null,
  updatedAt: row ? isoTime(row.updatedAt) : null,
  updatedBy: row?.updatedBy ?? null,
});

export function adminGetHarmThresholds(deps: ServiceDeps): HandlerOf<typeof harmAdminOperations.adminGetHarmThresholds> {
  return async (req) => {
    adminScopeOf(req);
    return { status: 200, body: view(req.params.id, await harmThresholdsRowOf(deps.orm, req.params.id)) };
  };
}

export function adminSetHarmThresholds(deps: ServiceDeps): HandlerOf<typeof harmAdminOperations.adminSetHarmThresholds> {
  return async (req) => {
    const scope = adminScopeOf(req);
    const operatorId = req.params.id;
    const { thresholds, reason } = req.body;
    const { low, medium, high } = thresholds.levelAt;
    if (!(low < medium && medium < high)) {
      throw new AppError('VALIDATION_ERROR', undefined, {
        in: 'body',
        issues: [{ path: '/thresholds/levelAt', message: `The levels' weights must rise: low < medium < high (got ${low}, ${medium}, ${high}).` }],
      });
    }
    const answer = await setHarmThresholds(deps.orm, { operatorId, thresholds: { ...thresholds }, reason, updatedBy: scope.actor }, async (row, next, tx) => {
      const after = view(operatorId, next);
      await writeDecisionAudit(tx, deps.schema, decisionAuthorOf(scope, req.ctx), {
        action: 'adminSetHarmThresholds',
        target: `harm_thresholds:${operatorId}`,
        before: view(operatorId, row),
        after,
      });
      return { status: 200 as const, body: after };
    });
    // The audit row leaves through the outbox.
    deps.outbox.poke();
    return answer;
  };
}
