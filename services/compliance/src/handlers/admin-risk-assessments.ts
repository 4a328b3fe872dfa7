// The yearly internal risk assessment (issue #60 item 5; Portaria SPA/MF 1.143/2024, art. 14 as
// summarised publicly: the operator assesses, at least once a year, the risk of its products,
// services, customers, payment methods and channels being used for money laundering; docs/aml.md,
// "The internal risk assessment"): a document our compliance team writes for an operator and a year,
// with the date it was carried out and who approved it, kept as versions (a change of the year's
// assessment is a new version saying what changed; none is replaced or deleted), audited in the
// transaction that keeps it. The yearly report names the assessment in force when it is made.
import { validationError, type RiskAssessment, type amlRiskAssessmentOperations } from '@bo/contracts';
import { adminScopeOf, decisionAuthorOf, isoTime, writeDecisionAudit, type HandlerOf, type ServiceDeps } from '@bo/service-kit';
import type { ComplianceConfig } from '../config.ts';
import { localDateOf } from '../domain/business-days.ts';
import { assessmentsOf, keepAssessment, type AssessmentRow } from '../store/risk-assessments.ts';
import { operatorProfiles } from '../watch/operator-profiles.ts';

export function assessmentView(r: AssessmentRow): RiskAssessment {
  const c = r.content as Omit<RiskAssessment, 'operatorId' | 'year' | 'version' | 'change' | 'madeBy' | 'madeAt'>;
  return {
    operatorId: r.operator_id,
    year: r.year,
    version: r.version,
    change: r.change,
    madeBy: r.made_by,
    madeAt: isoTime(r.made_at),
    assessedOn: c.assessedOn,
    approvedBy: c.approvedBy,
    methodology: c.methodology,
    risks: c.risks,
    conclusions: c.conclusions,
    ...(c.actionPlan !== undefined ? { actionPlan: c.actionPlan } : {}),
  };
}

const isCalendarDate = (d: string) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d);

export function adminListRiskAssessments(
  deps: ServiceDeps<ComplianceConfig>,
  clock: () => Date,
): HandlerOf<typeof amlRiskAssessmentOperations.adminListAmlRiskAssessments> {
  const profiles = operatorProfiles(deps, deps.config.PROFILE_CACHE_MS);
  return async (req) => {
    adminScopeOf(req);
    const { operatorId } = req.params;
    const rows = await assessmentsOf(deps.sql, operatorId);
    const { timeZone } = await profiles.complianceOf(operatorId);
    const currentYear = Number(localDateOf(clock(), timeZone).slice(0, 4));
    return {
      status: 200,
      body: { operatorId, currentYear, currentYearAssessed: rows.some((r) => r.year === currentYear), data: rows.map(assessmentView) },
    };
  };
}

export function adminSaveRiskAssessment(
  deps: ServiceDeps<ComplianceConfig>,
  clock: () => Date,
): HandlerOf<typeof amlRiskAssessmentOperations.adminSaveAmlRiskAssessment> {
  return async (req) => {
    const scope = adminScopeOf(req);
    const { operatorId } = req.params;
    const { year, change, ...content } = req.body;
    const now = clock();
    if (!isCalendarDate(content.assessedOn)) throw validationError('body', [{ path: '/assessedOn', message: 'must be a calendar date' }]);
    if (content.assessedOn > localDateOf(now, 'Pacific/Kiritimati'))
      throw validationError('body', [{ path: '/assessedOn', message: 'must not be in the future: the date the assessment was carried out' }]);
    if (Number(content.assessedOn.slice(0, 4)) < year - 1 || Number(content.assessedOn.slice(0, 4)) > year + 1)
      throw validationError('body', [{ path: '/assessedOn', message: `must fall near ${year}, the year assessed` }]);
    const kept = await keepAssessment(
      deps.sql,
      { operatorId, year, change: change ?? null, content, madeBy: scope.actor, madeAt: now },
      (previous) => {
        if (previous && !change) throw validationError('body', [{ path: '/change', message: `say what changed from version ${previous.version}` }]);
        if (!previous && change) throw validationError('body', [{ path: '/change', message: 'the first version has nothing to change from' }]);
      },
      (k, previous, tx) =>
        writeDecisionAudit(tx, deps.schema, decisionAuthorOf(scope, req.ctx), {
          action: 'adminSaveAmlRiskAssessment',
          target: `aml_risk_assessment:${operatorId}:${year}`,
          before: previous ? { version: previous.version, assessedOn: (previous.content as { assessedOn: string }).assessedOn } : null,
          after: { version: k.version, assessedOn: content.assessedOn, approvedBy: content.approvedBy, change: k.change },
        }),
    );
    deps.outbox.poke();
    return { status: 201, body: assessmentView(kept) };
  };
}
