// Our team's harm cases (issue #68 item 3): the queue (riskiest first, with names and amounts, a signed
// cursor), one case with its interactions and the player's changes of level, a person's interaction
// (what was said or done, the channel, the operator's message id, a follow-up date) and the closing with
// the outcome seen. Each change audited in its transaction. Admin scope only.
import { AppError, type HarmCase, type HarmCaseSummary, type HarmMeasure, type harmCaseAdminOperations } from '@bo/contracts';
import { adminScopeOf, decisionAuthorOf, formatMoney, isoTime, listCursor, writeDecisionAudit, type HandlerOf, type ServiceDeps } from '@bo/service-kit';
import type { ComplianceConfig } from '../config.ts';
import {
  harmCaseWithHistory,
  inHarmCaseTransaction,
  listHarmCases,
  queuePosition,
  type HarmCaseRow,
  type HarmInteractionRow,
  type HarmLevelChangeRow,
} from '../store/harm-cases.ts';
import type { HarmMeasureRow } from '../store/harm-measures.ts';
import { withPlayerNames } from './admin-cases.ts';

type CaseFacts = Omit<HarmCaseSummary, 'playerName'>;

export function summaryOf(c: HarmCaseRow): CaseFacts {
  return {
    id: c.id,
    operatorId: c.operatorId,
    brandId: c.brandId,
    environment: c.environment,
    playerId: c.playerId,
    status: c.status,
    level: c.level,
    score: c.score,
    markers: c.markers,
    recentDeposits: formatMoney(c.recentDeposits),
    assessedOn: c.assessedOn,
    interactions: c.interactions,
    followUpOn: c.followUpOn,
    openedAt: isoTime(c.openedAt),
    updatedAt: isoTime(c.updatedAt),
    outcome: c.outcome,
    closedAt: c.closedAt ? isoTime(c.closedAt) : null,
    closedBy: c.closedBy,
    closeReason: c.closeReason,
  };
}

function measureView(m: HarmMeasureRow): HarmMeasure {
  return {
    id: m.id,
    measure: m.measure,
    detail: m.detail,
    reason: m.reason,
    status: m.status,
    refusal: m.refusal,
    by: m.by,
    requestedAt: isoTime(m.requestedAt),
    settledAt: m.settledAt ? isoTime(m.settledAt) : null,
  };
}

function caseView(found: {
  row: HarmCaseRow;
  interactions: HarmInteractionRow[];
  changes: HarmLevelChangeRow[];
  measures: HarmMeasureRow[];
}): Omit<HarmCase, 'playerName'> {
  return {
    ...summaryOf(found.row),
    interactionLog: found.interactions.map((i) => ({ ...i, at: isoTime(i.at) })),
    measures: found.measures.map(measureView),
    levelChanges: found.changes.map((c) => ({ ...c, at: isoTime(c.at) }) as HarmCase['levelChanges'][number]),
  };
}

export function adminListHarmCases(deps: ServiceDeps<ComplianceConfig>): HandlerOf<typeof harmCaseAdminOperations.adminListHarmCases> {
  // Bound to the filters: a cursor of another list or query is refused.
  const cursors = listCursor(deps.config.LIST_CURSOR_SECRET, 'compliance.harm.cases');
  return async (req) => {
    adminScopeOf(req);
    const q = req.query;
    const scope = [q.status, q.environment, q.operatorId, q.playerId, q.followUp].map((v) => v ?? '');
    const limit = q.limit ?? 50;
    const rows = await listHarmCases(deps.sql, {
      status: q.status,
      environment: q.environment,
      operatorId: q.operatorId,
      playerId: q.playerId,
      followUpDue: q.followUp === 'due',
      after: q.cursor ? cursors.decode(scope, q.cursor) : undefined,
      limit: limit + 1,
    });
    const page = cursors.page(scope, rows, limit, summaryOf, (r) => ({ at: queuePosition(r), id: r.id }));
    return { status: 200, body: { ...page, data: await withPlayerNames(deps.orm, page.data) } };
  };
}

export async function namedCase(deps: ServiceDeps<ComplianceConfig>, id: string): Promise<HarmCase> {
  const found = await harmCaseWithHistory(deps.sql, id);
  if (!found) throw new AppError('HARM_CASE_NOT_FOUND');
  const [named] = await withPlayerNames(deps.orm, [caseView(found)]);
  return named!;
}

export function adminGetHarmCase(deps: ServiceDeps<ComplianceConfig>): HandlerOf<typeof harmCaseAdminOperations.adminGetHarmCase> {
  return async (req) => {
    adminScopeOf(req);
    return { status: 200, body: await namedCase(deps, req.params.id) };
  };
}

/** Today in UTC (YYYY-MM-DD): a follow-up date before it is refused, one on it is due at once. */
export const todayUtc = (now: Date) => now.toISOString().slice(0, 10);

export function adminRecordHarmInteraction(
  deps: ServiceDeps<ComplianceConfig>,
  now: () => Date = () => new Date(),
): HandlerOf<typeof harmCaseAdminOperations.adminRecordHarmInteraction> {
  return async (req) => {
    const scope = adminScopeOf(req);
    const i = req.body;
    const invalid = (path: string, message: string) => new AppError('VALIDATION_ERROR', undefined, { in: 'body', issues: [{ path, message }] });
    if (i.channel === 'measure') {
      throw invalid('/channel', 'A measure is recorded by the case when it is taken (POST /admin/harm/cases/{id}/measures), not by hand.');
    }
    if (i.channel === 'operator_message' && !i.operatorMessageId) {
      throw invalid('/operatorMessageId', "An interaction through the operator's message names its id (the operator's record of what the player was sent).");
    }
    if (i.followUpOn && i.followUpOn < todayUtc(now()))
      throw invalid('/followUpOn', `A follow-up date cannot be in the past (today is ${todayUtc(now())}, UTC).`);
    await inHarmCaseTransaction(deps.sql, async (tx) => {
      const c = await tx.lock(req.params.id);
      if (!c) throw new AppError('HARM_CASE_NOT_FOUND');
      if (c.status === 'closed') throw new AppError('HARM_CASE_CLOSED');
      const interaction = {
        channel: i.channel,
        summary: i.summary,
        operatorMessageId: i.operatorMessageId ?? null,
        followUpOn: i.followUpOn ?? null,
        measureId: null,
        by: scope.actor,
      };
      await tx.addInteraction(c.id, interaction);
      await writeDecisionAudit(tx.sql, deps.schema, decisionAuthorOf(scope, req.ctx), {
        action: 'adminRecordHarmInteraction',
        target: `harm_case:${c.id}`,
        before: summaryOf(c),
        after: { ...summaryOf((await tx.lock(c.id))!), interaction },
      });
    });
    deps.outbox.poke();
    return { status: 200, body: await namedCase(deps, req.params.id) };
  };
}

export function adminCloseHarmCase(deps: ServiceDeps<ComplianceConfig>): HandlerOf<typeof harmCaseAdminOperations.adminCloseHarmCase> {
  return async (req) => {
    const scope = adminScopeOf(req);
    await inHarmCaseTransaction(deps.sql, async (tx) => {
      const c = await tx.lock(req.params.id);
      if (!c) throw new AppError('HARM_CASE_NOT_FOUND');
      if (c.status === 'closed') throw new AppError('HARM_CASE_CLOSED');
      await tx.close(c.id, { outcome: req.body.outcome, by: scope.actor, reason: req.body.reason });
      await writeDecisionAudit(tx.sql, deps.schema, decisionAuthorOf(scope, req.ctx), {
        action: 'adminCloseHarmCase',
        target: `harm_case:${c.id}`,
        before: summaryOf(c),
        after: summaryOf((await tx.lock(c.id))!),
      });
    });
    deps.outbox.poke();
    return { status: 200, body: await namedCase(deps, req.params.id) };
  };
}
