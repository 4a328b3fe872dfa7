// Our team's decision to report a case to COAF (issue #46, docs/aml.md "The COS deadline"): taken on
// a case under review by someone other than its reviewer (four eyes), it starts the COS's deadline,
// the end of the next business day in the brand's time zone. The case stays under review (its payout
// hold stays) until it is marked reported with the Siscoaf receipt; it can no longer be dismissed.
// Audited in the decision's transaction, as every case decision is.
import { AppError, type amlReportDecisionOperations } from '@bo/contracts';
import { adminScopeOf, deciderOf, decisionAuthorOf, writeDecisionAudit, type HandlerOf, type ServiceDeps } from '@bo/service-kit';
import type { ComplianceConfig } from '../config.ts';
import { cosDueAt } from '../domain/business-days.ts';
import { checkReportDecision } from '../domain/case-lifecycle.ts';
import { inCaseTransaction } from '../store/cases.ts';
import { operatorProfiles } from '../watch/operator-profiles.ts';
import { caseView, inBrandView, summaryOf, withPlayerNames } from './admin-cases.ts';

export function adminReportDecision(
  deps: ServiceDeps<ComplianceConfig>,
  clock: () => Date,
): HandlerOf<typeof amlReportDecisionOperations.adminAmlReportDecision> {
  const profiles = operatorProfiles(deps, deps.config.PROFILE_CACHE_MS);
  const view = inBrandView(profiles, clock, deps.config.COS_NEAR_MS, deps.config.AML_ANALYSIS_NEAR_MS);
  return async (req) => {
    const scope = adminScopeOf(req);
    const answer = await inCaseTransaction(deps.orm, async (tx) => {
      const c = await tx.lock(req.params.id);
      if (!c) throw new AppError('AML_CASE_NOT_FOUND');
      const before = summaryOf(c);
      checkReportDecision({ status: c.status, reviewerId: c.reviewerId ?? null, reportDecided: c.reportDecidedAt != null }, deciderOf(scope));
      const now = clock();
      const { timeZone } = await profiles.complianceOf(c.operatorId);
      c.reportDecidedAt = now;
      c.reportDecidedBy = scope.actor;
      c.reportDeciderId = deciderOf(scope);
      c.reportDecisionReason = req.body.reason;
      c.cosDueAt = cosDueAt(now, timeZone);
      c.updatedAt = now;
      await tx.save();
      const after = summaryOf(c);
      await writeDecisionAudit(tx.sql, deps.schema, decisionAuthorOf(scope, req.ctx), {
        action: 'adminAmlReportDecision',
        target: `aml_case:${c.id}`,
        before,
        after: { ...after, reason: req.body.reason },
      });
      return view(caseView(c, await tx.history(c.id)));
    });
    deps.outbox.poke();
    const [named] = await withPlayerNames(deps.orm, [answer]);
    return { status: 200, body: named! };
  };
}
