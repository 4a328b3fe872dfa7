// The risk register of team members, partners and suppliers (issue #46; know your employee, partner,
// supplier: Portaria SPA/MF 1.143/2024, docs/aml.md): our compliance team registers a subject with its
// first rating and rationale, reviews it (a new rating, the next review date), and ends it when the
// relationship ends. Every rating is kept (risk_subject_ratings); nothing is deleted. Each change is a
// person's decision, audited in its own transaction.
import { AppError, newId, type RiskLevel, type RiskSubject, type RiskSubjectWithHistory, type amlRiskRegisterOperations } from '@bo/contracts';
import { adminScopeOf, decisionAuthorOf, isoTime, listCursor, writeDecisionAudit, type HandlerOf, type ServiceDeps } from '@bo/service-kit';
import type { ComplianceConfig } from '../config.ts';
import { checkNewSubject, reviewDueAt } from '../domain/risk-register.ts';
import {
  inRegisterTransaction,
  isDuplicateSubject,
  listSubjects,
  subjectWithRatings,
  type RatingRow,
  type RegisterTx,
  type RiskSubjectRow,
} from '../store/risk-register.ts';
import { activeSubjectLike } from '../store/risk-register-reads.ts';
import type { ScreeningPort } from '../screening/port.ts';
import { ratingAfter, screenSubject } from '../screening/subjects.ts';

function viewOf(r: RiskSubjectRow, now: Date): RiskSubject {
  return {
    id: r.id,
    kind: r.kind as RiskSubject['kind'],
    operatorId: r.operatorId ?? null,
    name: r.name,
    document: r.document ?? null,
    teamMemberId: r.teamMemberId ?? null,
    status: r.status as RiskSubject['status'],
    rating: r.rating,
    rationale: r.rationale,
    ratedBy: r.ratedBy,
    ratedAt: isoTime(r.ratedAt),
    reviewDueAt: isoTime(r.reviewDueAt),
    reviewOverdue: r.status === 'active' && r.reviewDueAt.getTime() <= now.getTime(),
    createdAt: isoTime(r.createdAt),
    endedAt: r.endedAt ? isoTime(r.endedAt) : null,
    endedBy: r.endedBy ?? null,
    endReason: r.endReason ?? null,
    // PEP and sanctions screening, as players (issue #60).
    screening: {
      state: (r.screeningState ?? 'not_screened') as RiskSubject['screening']['state'],
      lists: [...new Set((r.screeningHits ?? []).map((h) => h.list))],
      hits: r.screeningHits ?? [],
      screenedAt: r.screenedAt ? isoTime(r.screenedAt) : null,
    },
  };
}

function withHistory(ratings: RatingRow[], r: RiskSubjectRow, now: Date): RiskSubjectWithHistory {
  return {
    ...viewOf(r, now),
    history: ratings.map((x) => ({ rating: x.rating, rationale: x.rationale, ratedBy: x.by, ratedAt: isoTime(x.at), reviewDueAt: isoTime(x.reviewDueAt) })),
  };
}

export function adminListRiskSubjects(
  deps: ServiceDeps<ComplianceConfig>,
  clock: () => Date,
): HandlerOf<typeof amlRiskRegisterOperations.adminListAmlRiskSubjects> {
  // Bound to the filters: a cursor of another list is refused.
  const cursors = listCursor(deps.config.LIST_CURSOR_SECRET, 'compliance.risk_subjects');
  return async (req) => {
    adminScopeOf(req);
    const q = req.query;
    const now = clock();
    const status = q.status ?? 'active';
    const scope = [q.kind, q.operatorId, q.rating, q.reviewDue, status].map((v) => v ?? '');
    const limit = q.limit ?? 50;
    const after = q.cursor ? cursors.decode(scope, q.cursor) : undefined;
    // The review due first: the most overdue at the top.
    const rows = await listSubjects(deps.orm, {
      status,
      kind: q.kind,
      operatorId: q.operatorId,
      rating: q.rating,
      dueAt: q.reviewDue === 'overdue' ? now : undefined,
      after,
      limit: limit + 1,
    });
    return {
      status: 200,
      body: cursors.page(
        scope,
        rows,
        limit,
        (r) => viewOf(r, now),
        (r) => ({ at: isoTime(r.reviewDueAt), id: r.id }),
      ),
    };
  };
}

export function adminGetRiskSubject(
  deps: ServiceDeps<ComplianceConfig>,
  clock: () => Date,
): HandlerOf<typeof amlRiskRegisterOperations.adminGetAmlRiskSubject> {
  return async (req) => {
    adminScopeOf(req);
    const found = await subjectWithRatings(deps.orm, req.params.id);
    if (!found) throw new AppError('AML_RISK_SUBJECT_NOT_FOUND');
    return { status: 200, body: withHistory(found.ratings, found.row, clock()) };
  };
}

export function adminAddRiskSubject(
  deps: ServiceDeps<ComplianceConfig>,
  clock: () => Date,
  port?: ScreeningPort,
): HandlerOf<typeof amlRiskRegisterOperations.adminAddAmlRiskSubject> {
  return async (req) => {
    const scope = adminScopeOf(req);
    const b = req.body;
    const { document, teamMemberId } = checkNewSubject(b);
    const operatorId = b.operatorId ?? null;
    const now = clock();
    // Screened before it is registered (a network call: outside the transaction); a hit rates it high.
    const screening = port ? await screenSubject(port, { name: b.name, document, operatorId }, now, deps.log) : undefined;
    const { rating, rationale } = screening
      ? ratingAfter(b.rating as RiskLevel, b.rationale, screening)
      : { rating: b.rating as RiskLevel, rationale: b.rationale };
    const due = reviewDueAt(now, rating);
    try {
      const body = await inRegisterTransaction(deps.orm, async (tx) => {
        const row = tx.add({
          id: newId('riskSubject'),
          kind: b.kind,
          operatorId,
          name: b.name,
          document,
          teamMemberId,
          status: 'active',
          rating,
          rationale,
          ratedBy: scope.actor,
          ratedAt: now,
          reviewDueAt: due,
          createdAt: now,
          screeningState: screening?.screeningState ?? 'not_screened',
          screeningHits: screening?.screeningHits ?? [],
          screenedAt: screening?.screenedAt ?? null,
        });
        tx.addRating(row.id, { rating, rationale, by: scope.actor, at: now, reviewDueAt: due });
        await tx.save();
        const after = withHistory(await tx.ratings(row.id), row, now);
        await writeDecisionAudit(tx.sql, deps.schema, decisionAuthorOf(scope, req.ctx), {
          action: 'adminAddAmlRiskSubject',
          target: `aml_risk_subject:${row.id}`,
          before: null,
          after: viewOf(row, now),
        });
        return after;
      });
      deps.outbox.poke();
      return { status: 201, body };
    } catch (err) {
      if (!isDuplicateSubject(err)) throw err;
      // The same person or company, already active for this operator: named, not registered twice.
      const existing = await activeSubjectLike(deps.sql, { operatorId, kind: b.kind, document, teamMemberId });
      throw new AppError('AML_RISK_SUBJECT_CONFLICT', 'The register already holds this subject for this operator: review it instead.', {
        subjectId: existing ?? null,
      });
    }
  };
}

type AdminScope = ReturnType<typeof adminScopeOf>;
type Ctx = Parameters<typeof decisionAuthorOf>[1];

/** A change of one active subject under its row lock (a review, its end), audited in its transaction. */
async function changeSubject(
  deps: ServiceDeps<ComplianceConfig>,
  o: { id: string; scope: AdminScope; ctx: Ctx; now: Date; action: string; reason?: string },
  apply: (tx: RegisterTx, r: RiskSubjectRow) => void,
): Promise<RiskSubjectWithHistory> {
  const body = await inRegisterTransaction(deps.orm, async (tx) => {
    const r = await tx.lock(o.id);
    if (!r) throw new AppError('AML_RISK_SUBJECT_NOT_FOUND');
    if (r.status !== 'active')
      throw new AppError('AML_RISK_SUBJECT_CONFLICT', 'The relationship with this subject has ended: register it again if it resumes.');
    const before = viewOf(r, o.now);
    apply(tx, r);
    await tx.save();
    await writeDecisionAudit(tx.sql, deps.schema, decisionAuthorOf(o.scope, o.ctx), {
      action: o.action,
      target: `aml_risk_subject:${r.id}`,
      before,
      after: { ...viewOf(r, o.now), ...(o.reason ? { reason: o.reason } : {}) },
    });
    return withHistory(await tx.ratings(r.id), r, o.now);
  });
  deps.outbox.poke();
  return body;
}

export function adminRateRiskSubject(
  deps: ServiceDeps<ComplianceConfig>,
  clock: () => Date,
  port?: ScreeningPort,
): HandlerOf<typeof amlRiskRegisterOperations.adminRateAmlRiskSubject> {
  return async (req) => {
    const scope = adminScopeOf(req);
    const now = clock();
    // Each review screens the subject again (issue #60): a hit rates it high.
    const found = port ? await subjectWithRatings(deps.orm, req.params.id) : undefined;
    const screening =
      port && found
        ? await screenSubject(port, { name: found.row.name, document: found.row.document ?? null, operatorId: found.row.operatorId ?? null }, now, deps.log)
        : undefined;
    const { rating, rationale } = screening
      ? ratingAfter(req.body.rating as RiskLevel, req.body.rationale, screening)
      : { rating: req.body.rating as RiskLevel, rationale: req.body.rationale };
    const due = reviewDueAt(now, rating);
    const body = await changeSubject(deps, { id: req.params.id, scope, ctx: req.ctx, now, action: 'adminRateAmlRiskSubject' }, (tx, r) => {
      Object.assign(r, { rating, rationale, ratedBy: scope.actor, ratedAt: now, reviewDueAt: due });
      if (screening) Object.assign(r, screening);
      tx.addRating(r.id, { rating, rationale, by: scope.actor, at: now, reviewDueAt: due });
    });
    return { status: 200, body };
  };
}

export function adminEndRiskSubject(
  deps: ServiceDeps<ComplianceConfig>,
  clock: () => Date,
): HandlerOf<typeof amlRiskRegisterOperations.adminEndAmlRiskSubject> {
  return async (req) => {
    const scope = adminScopeOf(req);
    const now = clock();
    const { reason } = req.body;
    const body = await changeSubject(deps, { id: req.params.id, scope, ctx: req.ctx, now, action: 'adminEndAmlRiskSubject', reason }, (_tx, r) => {
      Object.assign(r, { status: 'ended', endedAt: now, endedBy: scope.actor, endReason: reason });
    });
    return { status: 200, body };
  };
}
