// A brand's rule thresholds: read (the defaults until set) and set by our team (audited).
import type { AmlThresholds, amlAdminOperations } from '@bo/contracts';
import { adminScopeOf, decisionAuthorOf, isoTime, sqlIn, writeDecisionAudit, type HandlerOf, type ServiceDeps } from '@bo/service-kit';
import { LockMode } from '@mikro-orm/postgresql';
import { thresholdsOf } from '../domain/thresholds.ts';
import { BrandRulesEntity } from '../store/entities.ts';

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
    return { status: 200, body: view(req.params.brandId, await deps.orm.em.fork().findOne(BrandRulesEntity, { brandId: req.params.brandId })) };
  };
}

export function adminSetRules(deps: ServiceDeps): HandlerOf<typeof amlAdminOperations.adminSetAmlRules> {
  return async (req) => {
    const scope = adminScopeOf(req);
    const { actor } = scope;
    const { brandId } = req.params;
    const answer = await deps.orm.em.fork().transactional(async (tx) => {
      const row = await tx.findOne(BrandRulesEntity, { brandId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      const before = view(brandId, row);
      const next = { brandId, thresholds: { ...req.body }, updatedAt: new Date(), updatedBy: actor };
      if (row) Object.assign(row, next);
      else tx.persist(tx.create(BrandRulesEntity, next));
      await tx.flush();
      const after = view(brandId, next);
      await writeDecisionAudit(sqlIn(tx), deps.schema, decisionAuthorOf(scope, req.ctx), {
        action: 'adminSetAmlRules',
        target: `aml_rules:${brandId}`,
        before,
        after,
      });
      return { status: 200, body: after };
    });
    deps.outbox.poke();
    return answer;
  };
}
