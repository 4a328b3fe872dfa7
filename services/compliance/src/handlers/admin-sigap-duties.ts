// SIGAP duties beyond the daily files (issue #60 item 4): the operator's CNPJ every SIGAP file of its
// brands carries (our team registers or corrects it, audited with the reason), and a brand's monthly
// report (made from the month's daily files, kept as versions, audited). Admin scope only.
import { validationError, type SigapMonthlyReport, type SigapOperator, type sigapDutiesOperations } from '@bo/contracts';
import { adminScopeOf, decisionAuthorOf, isoTime, writeDecisionAudit, type HandlerOf, type ServiceDeps } from '@bo/service-kit';
import type { ComplianceConfig } from '../config.ts';
import { cnpjDigits, cnpjProblem } from '../domain/cnpj.ts';
import { brandOfOurs } from '../reports/brand-zone.ts';
import { monthlyFigures, monthlyFile, type MonthlyTotals } from '../reports/sigap-monthly.ts';
import { keepMonthly, monthlyReports, operatorCnpj, setOperatorCnpj, type CnpjRow, type MonthlyRow } from '../store/sigap-duties.ts';

const operatorView = (operatorId: string, r: CnpjRow | undefined): SigapOperator => ({
  operatorId,
  cnpj: r?.cnpj ?? null,
  reason: r?.reason ?? null,
  setBy: r?.set_by ?? null,
  setAt: r ? isoTime(r.set_at) : null,
});

function monthlyView(r: MonthlyRow): SigapMonthlyReport {
  const doc = JSON.parse(r.content) as { operatorCnpj: string | null; days: number; totals: MonthlyTotals[] };
  return {
    brandId: r.brand_id,
    month: r.month,
    version: r.version,
    operatorId: r.operator_id,
    environment: r.environment as SigapMonthlyReport['environment'],
    operatorCnpj: doc.operatorCnpj,
    madeBy: r.made_by,
    madeAt: isoTime(r.made_at),
    checksum: r.checksum,
    days: doc.days,
    totals: doc.totals,
    content: r.content,
  };
}

export function adminGetSigapOperator(deps: ServiceDeps<ComplianceConfig>): HandlerOf<typeof sigapDutiesOperations.adminGetSigapOperator> {
  return async (req) => {
    adminScopeOf(req);
    return { status: 200, body: operatorView(req.params.operatorId, await operatorCnpj(deps.sql, req.params.operatorId)) };
  };
}

export function adminSetSigapOperator(deps: ServiceDeps<ComplianceConfig>, clock: () => Date): HandlerOf<typeof sigapDutiesOperations.adminSetSigapOperator> {
  return async (req) => {
    const scope = adminScopeOf(req);
    const { operatorId } = req.params;
    const cnpj = cnpjDigits(req.body.cnpj);
    const row = await setOperatorCnpj(deps.sql, { operatorId, cnpj, reason: req.body.reason, by: scope.actor, at: clock() }, (before, after, tx) =>
      writeDecisionAudit(tx, deps.schema, decisionAuthorOf(scope, req.ctx), {
        action: 'adminSetSigapOperator',
        target: `sigap_operator:${operatorId}`,
        before: before ? operatorView(operatorId, before) : null,
        after: operatorView(operatorId, after),
      }),
    );
    deps.outbox.poke();
    return { status: 200, body: operatorView(operatorId, row) };
  };
}

export function adminGetSigapMonthlyReport(deps: ServiceDeps<ComplianceConfig>): HandlerOf<typeof sigapDutiesOperations.adminGetSigapMonthlyReport> {
  return async (req) => {
    adminScopeOf(req);
    const { brandId, month } = req.params;
    return { status: 200, body: { brandId, month, versions: (await monthlyReports(deps.sql, brandId, month)).map(monthlyView) } };
  };
}

export function adminMakeSigapMonthlyReport(
  deps: ServiceDeps<ComplianceConfig>,
  clock: () => Date,
): HandlerOf<typeof sigapDutiesOperations.adminMakeSigapMonthlyReport> {
  return async (req) => {
    const scope = adminScopeOf(req);
    const { brandId, month } = req.params;
    const now = clock();
    const { operatorId, environment } = await brandOfOurs(deps, brandId);
    const figures = await monthlyFigures(deps, brandId, month, now);
    const cnpj = (await operatorCnpj(deps.sql, operatorId))?.cnpj ?? null;
    if (environment === 'production' && !cnpj) throw validationError('path', [{ path: '/brandId', message: cnpjProblem(operatorId) }]);
    const kept = await keepMonthly(
      deps.sql,
      { brandId, month, operatorId, environment, madeBy: scope.actor, madeAt: now },
      (version) => monthlyFile({ brandId, month, version, operatorId, operatorCnpj: cnpj, now }, figures),
      (k, tx) =>
        writeDecisionAudit(tx, deps.schema, decisionAuthorOf(scope, req.ctx), {
          action: 'adminMakeSigapMonthlyReport',
          target: `sigap_monthly:${brandId}/${month}`,
          before: null,
          after: { version: k.version, checksum: k.checksum },
        }),
    );
    deps.outbox.poke();
    return { status: 201, body: monthlyView(kept) };
  };
}
