// Our compliance team's cases: the queue (GET /admin/aml/cases, a signed cursor), one case with
// its evidence and steps, and the decision that moves it (audited by the gateway). Admin scope
// only: nothing here is reachable with an operator's credentials. Dismissing a case opened or
// joined by a sanctions hit lifts the player's freeze (the one flow that does: docs/aml.md).
import { AppError, type AmlCase, type AmlCaseStatus, type AmlCaseSummary, type AmlCosDeadline, type amlAdminOperations } from '@bo/contracts';
import {
  adminScopeOf,
  deciderOf,
  decisionAuthorOf,
  formatMoney,
  isoTime,
  listCursor,
  writeDecisionAudit,
  type HandlerOf,
  type ServiceDeps,
} from '@bo/service-kit';
import type { MikroORM } from '@mikro-orm/postgresql';
import { analysisFactsOf, analysisStateAt, type AnalysisFacts } from '../domain/analysis-clock.ts';
import { cosDueAt, cosStateAt } from '../domain/business-days.ts';
import { checkDecision, isActive } from '../domain/case-lifecycle.ts';
import type { ComplianceConfig } from '../config.ts';
import type { PlayersAdmin } from '../players-admin.ts';
import { caseWithHistory, inCaseTransaction, listCases, playerNames, rankedPosition, type AmlCaseRow, type CaseHistory } from '../store/cases.ts';
import { operatorProfiles, type OperatorProfiles } from '../watch/operator-profiles.ts';

/** A COS's deadline as the case keeps it; where it stands as it is read is added by `inBrandView`. */
type CosFacts = Omit<AmlCosDeadline, 'state' | 'secondsLeft'>;

/**
 * What a case says of itself; the brand's view (its time zone, whether it holds payouts, the COS's
 * state) is added by `inBrandView`, the player's name by `withPlayerNames`.
 */
type CaseFacts = Omit<AmlCaseSummary, 'timeZone' | 'holdsPayouts' | 'cos' | 'playerName' | 'analysis'> & { cos: CosFacts | null; analysis: AnalysisFacts };

function cosFactsOf(c: AmlCaseRow): CosFacts | null {
  if (!c.reportDecidedAt || !c.cosDueAt) return null;
  return {
    decidedAt: isoTime(c.reportDecidedAt),
    decidedBy: c.reportDecidedBy ?? '',
    reason: c.reportDecisionReason ?? '',
    dueAt: isoTime(c.cosDueAt),
    filedAt: c.cosFiledAt ? isoTime(c.cosFiledAt) : null,
  };
}

export function summaryOf(c: AmlCaseRow): CaseFacts {
  return {
    id: c.id,
    operatorId: c.operatorId,
    brandId: c.brandId,
    environment: c.environment,
    playerId: c.playerId,
    amount: formatMoney(c.amount),
    risk: c.risk,
    status: c.status,
    rules: c.rules as AmlCaseSummary['rules'],
    openedAt: isoTime(c.openedAt),
    updatedAt: isoTime(c.updatedAt),
    assignee: c.assignee ?? null,
    assignedAt: c.assignedAt ? isoTime(c.assignedAt) : null,
    cos: cosFactsOf(c),
    // The 30-day analysis clock (issue #60): where it stands is added by `inBrandView`.
    analysis: analysisFactsOf(c),
  };
}

/**
 * Adds what the console shows with a case: the brand's time zone (its operator's profile), whether
 * the case holds the player's payouts now (active, high, br-spa: what holds.check answers payments),
 * and where its COS stands at `now` (time left, near, overdue, filed). One question per operator,
 * cached for PROFILE_CACHE_MS.
 */
export function inBrandView(profiles: OperatorProfiles, now: () => Date, nearMs: number, analysisNearMs = 5 * 86_400_000) {
  return async <T extends CaseFacts>(c: T): Promise<Omit<T, 'cos' | 'analysis'> & Pick<AmlCaseSummary, 'timeZone' | 'holdsPayouts' | 'cos' | 'analysis'>> => {
    const { profile, timeZone } = await profiles.complianceOf(c.operatorId);
    const cos = c.cos
      ? { ...c.cos, ...cosStateAt({ dueAt: new Date(c.cos.dueAt), filedAt: c.cos.filedAt ? new Date(c.cos.filedAt) : null }, now(), nearMs) }
      : null;
    const analysis = analysisStateAt(c.analysis, now(), analysisNearMs);
    return { ...c, timeZone, holdsPayouts: profile === 'br-spa' && c.risk === 'high' && isActive(c.status as AmlCaseStatus), cos, analysis };
  };
}

/** The cases with their players' names (one read for all of them). */
export async function withPlayerNames<T extends { playerId: string }>(orm: MikroORM, cases: T[]): Promise<Array<T & { playerName: string | null }>> {
  const names = await playerNames(
    orm,
    cases.map((c) => c.playerId),
  );
  return cases.map((c) => ({ ...c, playerName: names.get(c.playerId) ?? null }));
}

export function caseView(
  c: AmlCaseRow,
  { steps, evidence }: CaseHistory,
): Omit<AmlCase, 'timeZone' | 'holdsPayouts' | 'cos' | 'playerName' | 'analysis'> & { cos: CosFacts | null; analysis: AnalysisFacts } {
  return {
    ...summaryOf(c),
    receipt: c.receipt ?? null,
    steps: steps.map((s) => ({ status: s.status, by: s.by, at: isoTime(s.at), reason: s.reason, receipt: s.receipt ?? null })),
    evidence: evidence.map((e) => ({ rule: e.rule as AmlCase['rules'][number], eventId: e.eventId, at: isoTime(e.at), summary: e.summary, facts: e.facts })),
  };
}

export function adminListCases(
  deps: ServiceDeps<ComplianceConfig>,
  now: () => Date = () => new Date(),
): HandlerOf<typeof amlAdminOperations.adminListAmlCases> {
  // Bound to the filters and the order: a cursor of another list is refused.
  const cursors = listCursor(deps.config.LIST_CURSOR_SECRET, 'compliance.cases');
  const view = inBrandView(operatorProfiles(deps, deps.config.PROFILE_CACHE_MS), now, deps.config.COS_NEAR_MS, deps.config.AML_ANALYSIS_NEAR_MS);
  return async (req) => {
    const { actor } = adminScopeOf(req);
    const q = req.query;
    const assignee = q.assignee === 'me' ? actor : q.assignee;
    const oldest = q.order === 'oldest';
    const by = q.order === 'risk' || q.order === 'amount' ? q.order : undefined;
    // Bound to the environment too when one is asked (a cursor of both environments stays as it was).
    // `risk` orders by amount within a level since issue #70: its cursor says so (one of before is refused, not misread).
    const scope = [q.playerId, q.status, q.risk, q.rule, q.operatorId, q.brandId, assignee, q.openedBefore, q.order === 'risk' ? 'risk,amount' : q.order, q.cos]
      .map((v) => v ?? '')
      .concat(q.environment ? [q.environment] : []);
    const limit = q.limit ?? 50;
    const after = q.cursor ? cursors.decode(scope, q.cursor) : undefined;
    const rows = await listCases(deps.orm, {
      playerId: q.playerId,
      status: q.status,
      risk: q.risk,
      rule: q.rule,
      operatorId: q.operatorId,
      brandId: q.brandId,
      assignee,
      cos: q.cos,
      now: now(),
      openedBefore: q.openedBefore,
      environment: q.environment,
      oldest,
      by,
      after,
      limit: limit + 1,
    });
    const page = cursors.page(scope, rows, limit, summaryOf, (r) => ({ at: by ? rankedPosition(by, r) : isoTime(r.openedAt), id: r.id }));
    return { status: 200, body: { ...page, data: await withPlayerNames(deps.orm, await Promise.all(page.data.map(view))) } };
  };
}

export function adminGetCase(deps: ServiceDeps<ComplianceConfig>, now: () => Date = () => new Date()): HandlerOf<typeof amlAdminOperations.adminGetAmlCase> {
  const view = inBrandView(operatorProfiles(deps, deps.config.PROFILE_CACHE_MS), now, deps.config.COS_NEAR_MS, deps.config.AML_ANALYSIS_NEAR_MS);
  return async (req) => {
    adminScopeOf(req);
    const found = await caseWithHistory(deps.orm, req.params.id);
    if (!found) throw new AppError('AML_CASE_NOT_FOUND');
    const [named] = await withPlayerNames(deps.orm, [await view(caseView(found.row, found.history))]);
    return { status: 200, body: named! };
  };
}

/** Gives a case to a person (`me`: the caller) or to nobody; audited in its transaction with who had it before. */
export function adminAssignCase(
  deps: ServiceDeps<ComplianceConfig>,
  now: () => Date = () => new Date(),
): HandlerOf<typeof amlAdminOperations.adminAssignAmlCase> {
  const view = inBrandView(operatorProfiles(deps, deps.config.PROFILE_CACHE_MS), now, deps.config.COS_NEAR_MS, deps.config.AML_ANALYSIS_NEAR_MS);
  return async (req) => {
    const scope = adminScopeOf(req);
    const to = req.body.assignee === 'me' ? scope.actor : req.body.assignee;
    const after = await inCaseTransaction(deps.orm, async (tx) => {
      const c = await tx.lock(req.params.id);
      if (!c) throw new AppError('AML_CASE_NOT_FOUND');
      const before = summaryOf(c);
      if (c.assignee !== to) {
        c.assignee = to;
        c.assignedAt = to === null ? null : new Date();
        c.updatedAt = new Date();
        await tx.save();
      }
      const after = summaryOf(c);
      await writeDecisionAudit(tx.sql, deps.schema, decisionAuthorOf(scope, req.ctx), {
        action: 'adminAssignAmlCase',
        target: `aml_case:${c.id}`,
        before,
        after,
      });
      return after;
    });
    deps.outbox.poke();
    const [named] = await withPlayerNames(deps.orm, [await view(after)]);
    return { status: 200, body: named! };
  };
}

export function adminDecideCase(
  deps: ServiceDeps<ComplianceConfig>,
  players: Pick<PlayersAdmin, 'liftFreeze'>,
  clock: () => Date = () => new Date(),
): HandlerOf<typeof amlAdminOperations.adminAmlCaseDecision> {
  const profiles = operatorProfiles(deps, deps.config.PROFILE_CACHE_MS);
  return async (req) => {
    const scope = adminScopeOf(req);
    const { actor } = scope;
    const decision = req.body;
    const answer = await inCaseTransaction(deps.orm, async (tx) => {
      const c = await tx.lock(req.params.id);
      if (!c) throw new AppError('AML_CASE_NOT_FOUND');
      const before = summaryOf(c);
      // Whether it holds the player's payouts now (as inBrandView says it): its dismissal then takes four eyes.
      const holdsPayouts = c.risk === 'high' && isActive(c.status) && (await profiles.complianceOf(c.operatorId)).profile === 'br-spa';
      checkDecision({ status: c.status, reviewerId: c.reviewerId ?? null, reportDecided: c.reportDecidedAt != null, holdsPayouts }, decision, deciderOf(scope));
      const now = clock();
      c.status = decision.status;
      c.updatedAt = now;
      if (decision.status === 'under_review') {
        c.reviewedBy = actor;
        c.reviewerId = deciderOf(scope);
      }
      if (decision.status === 'reported') {
        c.receipt = decision.receipt!;
        // The COS is filed now. Reported without a decision before it: decided and filed at once.
        if (!c.reportDecidedAt) {
          c.reportDecidedAt = now;
          c.reportDecidedBy = actor;
          c.reportDeciderId = deciderOf(scope);
          c.reportDecisionReason = decision.reason;
          c.cosDueAt = cosDueAt(now, (await profiles.complianceOf(c.operatorId)).timeZone);
        }
        c.cosFiledAt = now;
      }
      tx.addStep(c.id, { status: decision.status, by: actor, at: now, reason: decision.reason, receipt: decision.receipt ?? null });
      await tx.save();
      // A dismissed sanctions hit (not the person, or delisted) lifts the freeze, asked while the
      // case's row is locked and before its commit: a lift that fails leaves the case as it was
      // (503), a commit that fails after it leaves a lifted player with the case still open, which
      // the same decision, made again, dismisses (the lift is idempotent). A reported one keeps it.
      if (decision.status === 'dismissed' && c.rules.includes('sanctions')) await players.liftFreeze(c.playerId);
      const after = await inBrandView(profiles, clock, deps.config.COS_NEAR_MS, deps.config.AML_ANALYSIS_NEAR_MS)(caseView(c, await tx.history(c.id)));
      // The audit keeps the state and the reason, not the evidence (it is in the case); in this transaction.
      await writeDecisionAudit(tx.sql, deps.schema, decisionAuthorOf(scope, req.ctx), {
        action: 'adminAmlCaseDecision',
        target: `aml_case:${c.id}`,
        before,
        after: { ...summaryOf(c), reason: decision.reason, receipt: c.receipt ?? null, active: isActive(c.status) },
      });
      return after;
    });
    deps.outbox.poke();
    const [named] = await withPlayerNames(deps.orm, [answer]);
    return { status: 200, body: named! };
  };
}
