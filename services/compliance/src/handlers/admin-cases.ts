// Our compliance team's cases: the queue (GET /admin/aml/cases, a signed cursor), one case with
// its evidence and steps, and the decision that moves it (audited by the gateway). Admin scope
// only: nothing here is reachable with an operator's credentials.
import { AppError, type AmlCase, type AmlCaseStatus, type AmlCaseSummary, type amlAdminOperations } from '@bo/contracts';
import { adminScopeOf, deciderOf, decisionAuthorOf, isoTime, listCursor, sqlIn, writeDecisionAudit, type HandlerOf, type ServiceDeps } from '@bo/service-kit';
import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import { checkDecision, isActive } from '../domain/case-lifecycle.ts';
import type { ComplianceConfig } from '../config.ts';
import { AmlCaseEntity, AmlCaseStepEntity, AmlEvidenceEntity, type AmlCaseRow } from '../persistence/entities.ts';

function summaryOf(c: AmlCaseRow): AmlCaseSummary {
  return {
    id: c.id,
    operatorId: c.operatorId,
    brandId: c.brandId,
    environment: c.environment,
    playerId: c.playerId,
    risk: c.risk,
    status: c.status,
    rules: c.rules as AmlCaseSummary['rules'],
    openedAt: isoTime(c.openedAt),
    updatedAt: isoTime(c.updatedAt),
  };
}

export async function caseView(em: EntityManager, c: AmlCaseRow): Promise<AmlCase> {
  const [steps, evidence] = await Promise.all([
    em.find(AmlCaseStepEntity, { caseId: c.id }, { orderBy: { id: 'asc' } }),
    em.find(AmlEvidenceEntity, { caseId: c.id }, { orderBy: { id: 'asc' } }),
  ]);
  return {
    ...summaryOf(c),
    receipt: c.receipt ?? null,
    steps: steps.map((s) => ({ status: s.status, by: s.by, at: isoTime(s.at), reason: s.reason, receipt: s.receipt ?? null })),
    evidence: evidence.map((e) => ({ rule: e.rule as AmlCase['rules'][number], eventId: e.eventId, at: isoTime(e.at), summary: e.summary, facts: e.facts })),
  };
}

export function adminListCases(deps: ServiceDeps<ComplianceConfig>): HandlerOf<typeof amlAdminOperations.adminListAmlCases> {
  // Bound to the filter: a cursor of another player's or status's list is refused.
  const cursors = listCursor(deps.config.LIST_CURSOR_SECRET, 'compliance.cases');
  return async (req) => {
    adminScopeOf(req);
    const q = req.query;
    const scope = [q.playerId ?? '', q.status ?? ''];
    const limit = q.limit ?? 50;
    const after = q.cursor ? cursors.decode(scope, q.cursor) : undefined;
    const em = deps.orm.em.fork();
    const rows = await em.find(
      AmlCaseEntity,
      {
        ...(q.playerId ? { playerId: q.playerId } : {}),
        ...(q.status ? { status: q.status as AmlCaseStatus } : {}),
        ...(after ? { $or: [{ openedAt: { $lt: new Date(after.at) } }, { openedAt: new Date(after.at), id: { $lt: after.id } }] } : {}),
      },
      { orderBy: [{ openedAt: 'desc' }, { id: 'desc' }], limit: limit + 1 },
    );
    return { status: 200, body: cursors.page(scope, rows, limit, summaryOf, (r) => ({ at: isoTime(r.openedAt), id: r.id })) };
  };
}

export function adminGetCase(deps: ServiceDeps): HandlerOf<typeof amlAdminOperations.adminGetAmlCase> {
  return async (req) => {
    adminScopeOf(req);
    const em = deps.orm.em.fork();
    const c = await em.findOne(AmlCaseEntity, { id: req.params.id });
    if (!c) throw new AppError('AML_CASE_NOT_FOUND');
    return { status: 200, body: await caseView(em, c) };
  };
}

export function adminDecideCase(deps: ServiceDeps): HandlerOf<typeof amlAdminOperations.adminAmlCaseDecision> {
  return async (req) => {
    const scope = adminScopeOf(req);
    const { actor } = scope;
    const decision = req.body;
    const answer = await deps.orm.em.fork().transactional(async (tx) => {
      const c = await tx.findOne(AmlCaseEntity, { id: req.params.id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!c) throw new AppError('AML_CASE_NOT_FOUND');
      const before = summaryOf(c);
      checkDecision({ status: c.status, reviewerId: c.reviewerId ?? null }, decision, deciderOf(scope));
      const now = new Date();
      c.status = decision.status;
      c.updatedAt = now;
      if (decision.status === 'under_review') {
        c.reviewedBy = actor;
        c.reviewerId = deciderOf(scope);
      }
      if (decision.status === 'reported') c.receipt = decision.receipt!;
      tx.persist(
        tx.create(AmlCaseStepEntity, { caseId: c.id, status: decision.status, by: actor, at: now, reason: decision.reason, receipt: decision.receipt ?? null }),
      );
      await tx.flush();
      const after = await caseView(tx, c);
      // The audit keeps the state and the reason, not the evidence (it is in the case); in this transaction.
      await writeDecisionAudit(sqlIn(tx), deps.schema, decisionAuthorOf(scope, req.ctx), {
        action: 'adminAmlCaseDecision',
        target: `aml_case:${c.id}`,
        before,
        after: { ...summaryOf(c), reason: decision.reason, receipt: c.receipt ?? null, active: isActive(c.status) },
      });
      return { status: 200, body: after };
    });
    deps.outbox.poke();
    return answer;
  };
}
