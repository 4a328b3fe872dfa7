// A brand's rule thresholds: read (the defaults until set) and set by our team (audited).
import type { AmlThresholds, amlAdminOperations } from '@bo/contracts';
import { adminScopeOf, decisionAuthorOf, isoTime, writeDecisionAudit, type HandlerOf, type ServiceDeps } from '@bo/service-kit';
import { thresholdsOf } from '../domain/thresholds.ts';
import { brandRulesOf, setBrandRules } from '../store/brand-rules.ts';

type Row = { thresholds: Record<string, unknown>; updatedAt: Date; updatedBy: string } | null;
const view = (brandId: string, row: Row) => ({
  brandId,
  thresholds: thresholdsOf(row?.thresholds as Partial<AmlThresholds> | undefined),
  updatedAt: row ? isoTime(row.updatedAt) : null,
  updatedBy: row?.updatedBy ?? null,
});

export function adminGetRules(deps: ServiceDeps): HandlerOf<typeof amlAdminOperations.adminGetAmlRules> {
  return async (req) => {
    adminScopeOf(req);
    return { status: 200, body: view(req.params.brandId, await brandRulesOf(deps.orm, req.params.brandId)) };
  };
}

export function adminSetRules(deps: ServiceDeps): HandlerOf<typeof amlAdminOperations.adminSetAmlRules> {
  return async (req) => {
    const scope = adminScopeOf(req);
    const { actor } = scope;
    const { brandId } = req.params;
    const answer = await setBrandRules(deps.orm, { brandId, thresholds: { ...req.body }, updatedBy: actor }, async (row, next, tx) => {
      const before = view(brandId, row);
      const after = view(brandId, next);
      await writeDecisionAudit(tx, deps.schema, decisionAuthorOf(scope, req.ctx), {
        action: 'adminSetAmlRules',
        target: `aml_rules:${brandId}`,
        before,
        after,
      });
      return { status: 200 as const, body: after };
    });
    deps.outbox.poke();
    return answer;
  };
}
