// The yearly AML report to the SPA (issue #46, docs/aml.md "The yearly report to the SPA"): made by
// our team for an operator and a year that is over, from the compliance data, and kept with its
// SHA-256 (a new version each time it is made; nothing is replaced or deleted); read back with its
// hash checked, with its due dates whether or not it is made; listed per year for every operator
// expected to send one. Making one is audited in the transaction that keeps it (not a decision, a record).
import { type AmlAnnualReport, type AmlAnnualReportDocument, type AmlAnnualReportStatus, validationError, type amlAnnualReportOperations } from '@bo/contracts';
import { adminScopeOf, decisionAuthorOf, isoTime, writeDecisionAudit, type HandlerOf, type ServiceDeps } from '@bo/service-kit';
import type { ComplianceConfig } from '../config.ts';
import { annualReportFile, annualReportOf, annualReportState, sha256Of, yearBounds } from '../domain/annual-report.ts';
import { annualDueDates, endOfDay } from '../domain/business-days.ts';
import { keepNextVersion, keptReports, operatorsOfYear, type KeptReport } from '../store/annual-reports.ts';
import { latestAssessment } from '../store/risk-assessments.ts';
import { operatorProfiles, type OperatorProfiles } from '../watch/operator-profiles.ts';

async function statusOf(profiles: OperatorProfiles, kept: KeptReport[], operatorId: string, year: number, now: Date): Promise<AmlAnnualReportStatus> {
  // A kept report keeps the zone it was made in; otherwise the operator's profile's.
  const timeZone = kept.at(-1)?.time_zone ?? (await profiles.complianceOf(operatorId)).timeZone;
  const { dueDate, noOccurrenceDueDate } = annualDueDates(year);
  const dueAt = endOfDay(dueDate, timeZone);
  const first = kept.at(-1);
  return {
    operatorId,
    year,
    timeZone,
    dueDate,
    dueAt: isoTime(dueAt),
    noOccurrenceDueDate,
    state: annualReportState(first ? new Date(isoTime(first.made_at)) : null, dueAt, now),
    versions: kept.map((k) => ({ version: k.version, madeAt: isoTime(k.made_at), madeBy: k.made_by, sha256: k.sha256 })),
  };
}

function withFile(status: AmlAnnualReportStatus, k: KeptReport | undefined): AmlAnnualReport {
  if (!k) return { ...status, version: null, report: null, file: null, sha256: null, verified: null };
  return {
    ...status,
    version: k.version,
    report: JSON.parse(k.file) as AmlAnnualReportDocument,
    file: k.file,
    sha256: k.sha256,
    verified: sha256Of(k.file) === k.sha256,
  };
}

export function adminListAnnualReports(
  deps: ServiceDeps<ComplianceConfig>,
  clock: () => Date,
): HandlerOf<typeof amlAnnualReportOperations.adminListAmlAnnualReports> {
  const profiles = operatorProfiles(deps, deps.config.PROFILE_CACHE_MS);
  return async (req) => {
    adminScopeOf(req);
    const { year } = req.query;
    const now = clock();
    const data: AmlAnnualReportStatus[] = [];
    for (const operatorId of await operatorsOfYear(deps.sql, year)) {
      data.push(await statusOf(profiles, await keptReports(deps.sql, operatorId, year), operatorId, year, now));
    }
    return { status: 200, body: { year, data } };
  };
}

export function adminGetAnnualReport(
  deps: ServiceDeps<ComplianceConfig>,
  clock: () => Date,
): HandlerOf<typeof amlAnnualReportOperations.adminGetAmlAnnualReport> {
  const profiles = operatorProfiles(deps, deps.config.PROFILE_CACHE_MS);
  return async (req) => {
    adminScopeOf(req);
    const { operatorId } = req.params;
    if (!/^op_[A-Za-z0-9]{1,60}$/.test(operatorId)) throw validationError('path', [{ path: '/operatorId', message: "an operator's id (op_…)" }]);
    if (!/^20[2-9][0-9]$/.test(req.params.year)) throw validationError('path', [{ path: '/year', message: 'a year, from 2020' }]);
    const year = Number(req.params.year);
    const kept = await keptReports(deps.sql, operatorId, year);
    const asked = req.query.version;
    const k = asked === undefined ? kept[0] : kept.find((x) => x.version === asked);
    if (asked !== undefined && !k) throw validationError('query', [{ path: '/version', message: `no version ${asked} of this report is kept` }]);
    return { status: 200, body: withFile(await statusOf(profiles, kept, operatorId, year, clock()), k) };
  };
}

export function adminMakeAnnualReport(
  deps: ServiceDeps<ComplianceConfig>,
  clock: () => Date,
): HandlerOf<typeof amlAnnualReportOperations.adminMakeAmlAnnualReport> {
  const profiles = operatorProfiles(deps, deps.config.PROFILE_CACHE_MS);
  return async (req) => {
    const scope = adminScopeOf(req);
    const { actor } = scope;
    const { operatorId } = req.params;
    const { year } = req.body;
    // The narrative part our team wrote (issue #60), and the internal risk assessment in force.
    const narrative = req.body.narrative ?? null;
    const now = clock();
    const { timeZone } = await profiles.complianceOf(operatorId);
    const assessment = await latestAssessment(deps.sql, operatorId, year);
    const riskAssessment = assessment
      ? { year: assessment.year, version: assessment.version, assessedOn: (assessment.content as { assessedOn: string }).assessedOn }
      : null;
    const { from, to } = yearBounds(year, timeZone);
    if (now.getTime() < to.getTime()) {
      throw validationError('body', [{ path: '/year', message: `${year} is not over yet in ${timeZone}: its report is made from 1 January ${year + 1}` }]);
    }
    const kept = await keepNextVersion(
      deps.sql,
      { operatorId, year, timeZone, from, to, madeAt: now, madeBy: actor },
      (version, figures) =>
        annualReportFile({
          ...annualReportOf({ operatorId, year, timeZone, from: isoTime(from), to: isoTime(to), version, madeAt: isoTime(now), madeBy: actor }, figures),
          narrative,
          riskAssessment,
        }),
      (k, tx) =>
        writeDecisionAudit(tx, deps.schema, decisionAuthorOf(scope, req.ctx), {
          action: 'adminMakeAmlAnnualReport',
          target: `aml_annual_report:${operatorId}:${year}`,
          before: null,
          after: { version: k.version, sha256: k.sha256, madeAt: isoTime(k.made_at), narrative: narrative !== null },
        }),
    );
    deps.outbox.poke();
    const all = await keptReports(deps.sql, operatorId, year);
    return { status: 201, body: withFile(await statusOf(profiles, all, operatorId, year, now), kept) };
  };
}
