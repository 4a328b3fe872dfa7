// Measures taken from a harm case (issue #68 item 3), as money is moved across services
// (docs/money.md): the intent kept first (`pending`, store/harm-measures.ts), the effect asked of the
// players service under the measure's id (applied there once, whatever is asked again), the answer kept
// last with the case's interaction and audit row. A pending measure whose request stopped (this service
// restarted, the players service did not answer) is asked again by the reconciler, every
// HARM_MEASURE_RETRY_MS, with the author it kept: the measure is neither lost nor applied twice.
import { isAppError, teamMeasureMessages, type AppError, type TeamMeasure } from '@bo/contracts';
import { startLoop, writeDecisionAudit, type BackgroundTask, type Logger, type OutboxRelay, type ServiceDeps, type Sql } from '@bo/service-kit';
import { inHarmCaseTransaction, type HarmCaseRow, type HarmCaseTx } from '../store/harm-cases.ts';
import { lockPendingMeasure, pendingMeasures, settleMeasure, type HarmMeasureRow } from '../store/harm-measures.ts';

export type MeasureAnswer = { applied: true } | { applied: false; refusal: AppError };

/**
 * Asks the players service to apply the measure. A refusal by its rules (4xx) is an answer; a failure to
 * answer (a timeout, a restart) throws, and the measure stays pending for the reconciler.
 */
export async function askPlayers(call: ServiceDeps['call'], m: HarmMeasureRow): Promise<MeasureAnswer> {
  const d = m.detail;
  const body: TeamMeasure = {
    measureId: m.id,
    caseId: m.caseId,
    playerId: m.playerId,
    measure: m.measure as TeamMeasure['measure'],
    reason: m.reason,
    author: m.author,
    ...(d.until !== undefined ? { until: d.until } : {}),
    ...(d.minutes !== undefined ? { minutes: d.minutes } : {}),
    ...(d.type !== undefined && d.period !== undefined && d.value !== undefined
      ? { type: d.type, period: d.period, value: d.type === 'time' ? Number(d.value) : d.value }
      : {}),
  };
  try {
    await call(teamMeasureMessages.take.subject, body);
    return { applied: true };
  } catch (e) {
    if (isAppError(e) && e.status < 500) return { applied: false, refusal: e };
    throw e;
  }
}

/** A refusal as the measure keeps it: the code, and the message with what each field was refused for. */
export function refusalOf(e: AppError): { code: string; message: string } {
  const issues = e.details && 'issues' in e.details && Array.isArray(e.details.issues) ? e.details.issues : [];
  const why = issues.map((i: { path?: string; message?: string }) => `${i.path ?? ''} ${i.message ?? ''}`.trim()).join('; ');
  return { code: e.code, message: why ? `${e.message} ${why}` : e.message };
}

/**
 * Keeps the players service's answer, once: applied, the case records it as an interaction (channel
 * `measure`, the person's reason, their follow-up date) and the audit log as the person's decision;
 * refused, the measure keeps the refusal and nothing else changes. False when it was settled already.
 */
export async function settleAnswer(o: { sql: Sql; schema: string }, m: HarmMeasureRow, answer: MeasureAnswer): Promise<boolean> {
  return inHarmCaseTransaction(o.sql, async (tx) => {
    // The case first, as every change of a case locks it: then the measure.
    const c = await tx.lock(m.caseId);
    if (!c || !(await lockPendingMeasure(tx.sql, m.id))) return false;
    if (!answer.applied) {
      await settleMeasure(tx.sql, m.id, refusalOf(answer.refusal));
      return true;
    }
    await settleMeasure(tx.sql, m.id, null);
    await recordMeasure(tx, o.schema, m, c);
    return true;
  });
}

/** The applied measure in the case (an interaction) and in the audit log, in the caller's transaction. */
export async function recordMeasure(tx: HarmCaseTx, schema: string, m: HarmMeasureRow, before: HarmCaseRow): Promise<void> {
  await tx.addInteraction(m.caseId, { channel: 'measure', summary: m.reason, operatorMessageId: null, followUpOn: m.followUpOn, measureId: m.id, by: m.by });
  await writeDecisionAudit(tx.sql, schema, m.author, {
    action: 'adminTakeHarmMeasure',
    target: `harm_case:${m.caseId}`,
    before: { interactions: before.interactions, followUpOn: before.followUpOn },
    after: { measureId: m.id, measure: m.measure, detail: m.detail, reason: m.reason, followUpOn: m.followUpOn },
  });
}

/** How many measures one pass of the reconciler asks again. */
const RETRY_BATCH = 50;

/**
 * The reconciler: measures pending for longer than `retryAfterMs` asked again and settled. One that
 * fails again stays pending for the next pass (logged).
 */
export function startHarmMeasureReconciler(o: {
  sql: Sql;
  schema: string;
  call: ServiceDeps['call'];
  outbox: Pick<OutboxRelay, 'poke'>;
  log: Logger;
  intervalMs: number;
  retryAfterMs: number;
}): BackgroundTask {
  const pass = async (): Promise<boolean> => {
    const pending = await pendingMeasures(o.sql, o.retryAfterMs, RETRY_BATCH);
    let settled = 0;
    for (const m of pending) {
      try {
        if (await settleAnswer(o, m, await askPlayers(o.call, m))) settled++;
      } catch (e) {
        o.log.warn({ err: e, measureId: m.id }, 'a harm measure is still pending: the players service did not answer');
      }
    }
    if (settled > 0) o.outbox.poke();
    return pending.length === RETRY_BATCH && settled > 0;
  };
  const loop = startLoop({ name: 'harm measures', intervalMs: o.intervalMs, maxBackoffMs: 60_000, log: o.log, run: pass });
  return { name: 'harm measures', stop: () => loop.stop(), problem: loop.problem };
}
