// A measure taken from a harm case (issue #68 item 3): a person's decision, recorded in the case at
// once. A pause, a stricter limit and a reality check more often are the players service's to apply,
// under the rules of the player's own admin operations (harm/harm-measures.ts: intent, effect, answer);
// a recommendation to self-exclude is this service's own, sent to the operator as
// `player.self_exclusion_recommended` in the transaction that records it. None lifts anything.
import { createHash } from 'node:crypto';
import { AppError, isErrorCode, newId, ID_PREFIXES, type HarmMeasureDetail, type TakeHarmMeasure, type harmCaseAdminOperations } from '@bo/contracts';
import { adminScopeOf, decisionAuthorOf, formatMoney, isoTime, writeEvent, type DecisionAuthor, type HandlerOf, type ServiceDeps } from '@bo/service-kit';
import type { ComplianceConfig } from '../config.ts';
import { askPlayers, recordMeasure, settleAnswer } from '../harm/harm-measures.ts';
import { inHarmCaseTransaction } from '../store/harm-cases.ts';
import { keepMeasure, type HarmMeasureRow, type NewHarmMeasure } from '../store/harm-measures.ts';
import { namedCase, todayUtc } from './admin-harm-cases.ts';

const invalid = (path: string, message: string) => new AppError('VALIDATION_ERROR', undefined, { in: 'body', issues: [{ path, message }] });

/** The fields each measure needs, and those it has no use for: a clear 422 before anything is kept. */
const FIELDS: Record<TakeHarmMeasure['measure'], readonly (keyof TakeHarmMeasure)[]> = {
  pause: ['until'],
  stricter_limit: ['type', 'period', 'value'],
  reality_check: ['minutes'],
  recommend_self_exclusion: [],
};
const MEASURE_FIELDS = ['until', 'type', 'period', 'value', 'minutes'] as const;

/** What the measure sets, as the case shows it (money as "200.00"; a time limit in minutes). */
export function detailOf(b: TakeHarmMeasure): HarmMeasureDetail {
  const needed = FIELDS[b.measure];
  for (const f of needed) if (b[f] === undefined) throw invalid(`/${f}`, `is required with measure ${b.measure}`);
  for (const f of MEASURE_FIELDS) {
    if (!needed.includes(f) && b[f] !== undefined) throw invalid(`/${f}`, `is not a field of measure ${b.measure}`);
  }
  if (b.measure === 'stricter_limit') {
    const time = b.type === 'time';
    if (time !== (typeof b.value === 'number')) {
      throw invalid('/value', time ? 'a time limit is whole minutes (an integer)' : 'a money limit is a decimal string, for example "500.00"');
    }
    return { type: b.type, period: b.period, value: time ? String(b.value) : formatMoney(String(b.value)) };
  }
  if (b.measure === 'pause') return { until: new Date(b.until!).toISOString() };
  if (b.measure === 'reality_check') return { minutes: b.minutes };
  return {};
}

/**
 * The measure's id: made from the request's key when it has one, so the same request asked again (after
 * an answer that never came) finds the measure it kept, rather than taking it twice.
 */
function measureIdOf(author: DecisionAuthor, caseId: string): string {
  if (!author.idempotencyKey) return newId('harmMeasure');
  const digest = createHash('sha256').update(`${author.idempotencyKey}\n${caseId}`).digest('hex');
  return `${ID_PREFIXES.harmMeasure}_${digest.slice(0, 32)}`;
}

/** A measure refused earlier, answered again as it was. */
const refusedAgain = (m: HarmMeasureRow) => new AppError(isErrorCode(m.refusal!.code) ? m.refusal!.code : 'VALIDATION_ERROR', m.refusal!.message);

export function adminTakeHarmMeasure(
  deps: ServiceDeps<ComplianceConfig>,
  now: () => Date = () => new Date(),
): HandlerOf<typeof harmCaseAdminOperations.adminTakeHarmMeasure> {
  return async (req) => {
    const scope = adminScopeOf(req);
    const b = req.body;
    const detail = detailOf(b);
    if (b.followUpOn && b.followUpOn < todayUtc(now()))
      throw invalid('/followUpOn', `A follow-up date cannot be in the past (today is ${todayUtc(now())}, UTC).`);
    const author = decisionAuthorOf(scope, req.ctx);
    const recommend = b.measure === 'recommend_self_exclusion';
    const kept = await inHarmCaseTransaction(deps.sql, async (tx) => {
      const c = await tx.lock(req.params.id);
      if (!c) throw new AppError('HARM_CASE_NOT_FOUND');
      const m: NewHarmMeasure = {
        id: measureIdOf(author, c.id),
        caseId: c.id,
        playerId: c.playerId,
        measure: b.measure,
        detail,
        reason: b.reason,
        // A recommendation needs nobody else: applied in this transaction.
        status: recommend ? 'applied' : 'pending',
        by: scope.actor,
        author,
        followUpOn: b.followUpOn ?? null,
      };
      const { row, created } = await keepMeasure(tx.sql, m);
      // A new measure on a closed case is refused (and not kept); the same request asked again answers what it kept.
      if (created && c.status === 'closed') throw new AppError('HARM_CASE_CLOSED');
      if (recommend && created) {
        await recordMeasure(tx, deps.schema, row, c);
        await writeEvent(tx.sql, deps.schema, c, 'player.self_exclusion_recommended', {
          playerId: c.playerId,
          level: c.level,
          score: c.score,
          markers: c.markers,
          assessedOn: c.assessedOn,
          recommendedAt: isoTime(row.requestedAt),
        });
      }
      return row;
    });
    if (kept.status === 'pending') {
      // Unanswered (a timeout, a restart: 503, retry): it stays pending and the reconciler asks again.
      const answer = await askPlayers(deps.call, kept);
      await settleAnswer(deps, kept, answer);
      if (!answer.applied) throw answer.refusal;
    } else if (kept.status === 'refused') {
      throw refusedAgain(kept);
    }
    deps.outbox.poke();
    return { status: 200, body: await namedCase(deps, req.params.id) };
  };
}
