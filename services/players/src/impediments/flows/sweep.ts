// The sweep (IN 31/2025 art. 6, docs/eligibility.md): every player of a br-spa operator who is
// not closed or already restricted is asked of the registry at least every
// IMPEDIMENT_SWEEP_EVERY_DAYS, in batches. Each batch is one transaction that holds the sweep's
// row (one replica at a time), asks the registry, records the answers and moves the cursor, so a
// sweep killed mid-way goes on after the last committed batch. A player already checked today
// (login, activity or a batch that committed) is skipped: at most one check per player per day.
// Outages change nobody: the batch is asked again on the loop's next pass. Production players are
// looked up on our internal impediments list first (in the batch's transaction, on its connection);
// a listed one is a hit without asking the SPA, also while it is down. A hit restricts the player in
// the batch's transaction; after the commit the wallet ends the player's open game sessions.
import { counter, sqlIn, type ServiceDeps, crashPoint } from '@bo/service-kit';
import { INTERNAL_HIT, consultsInternalList, type CheckAnswer } from '../domain/internal-registry.ts';
import { recordCheck } from '../store/checks.ts';
import { listedCpfs } from '../store/internal-list.ts';
import { lockOpenSweep } from '../store/sweep-row.ts';
import { markChecked, newestSweep, startSweep, sweepCandidates, type SweepCandidate } from '../store/sweeps.ts';
import { afterRestriction, restrictPlayer, type Eligibility } from './eligibility.ts';

const DAY_MS = 86_400_000;

/** The sweep under way, or a new one when the last started IMPEDIMENT_SWEEP_EVERY_DAYS ago (or never); undefined when none is due. */
async function currentSweep(deps: ServiceDeps, elig: Eligibility): Promise<string | undefined> {
  const last = await newestSweep(deps.sql);
  if (last && last.finishedAt === null) return last.id;
  const now = elig.clock();
  if (last && now.getTime() - new Date(last.startedAt).getTime() < elig.config.IMPEDIMENT_SWEEP_EVERY_DAYS * DAY_MS) return undefined;
  // At most one open sweep: two replicas starting one at once insert one row.
  await startSweep(deps.sql, now);
  const open = await newestSweep(deps.sql);
  return open?.finishedAt === null ? open.id : undefined;
}

/** The sweep's counters, every outcome and state at 0 from the start (absent means down, never "no sweep yet"). */
export function sweepMetrics(deps: Pick<ServiceDeps, 'metrics'>) {
  const checks = counter(deps.metrics, 'bo_impediment_sweep_checks_total', 'Players the impediment sweep asked of the registry, by outcome.', [
    'outcome',
  ] as const);
  const batches = counter(deps.metrics, 'bo_impediment_sweep_batches_total', 'Committed batches of the impediment sweep; `finished` counts sweeps done.', [
    'state',
  ] as const);
  for (const outcome of ['not_impeded', 'impeded', 'unavailable'] satisfies CheckAnswer['result'][]) checks.inc({ outcome }, 0);
  for (const state of ['committed', 'finished']) batches.inc({ state }, 0);
  return { checks, batches };
}

/** One batch of the sweep; true when more are waiting. */
export async function sweepBatch(deps: ServiceDeps, elig: Eligibility): Promise<boolean> {
  const sweepId = await currentSweep(deps, elig);
  if (!sweepId) return false;
  const { checks: metric, batches } = sweepMetrics(deps);
  const now = elig.clock();
  const hits: SweepCandidate[] = [];
  const more = await deps.orm.em.fork().transactional(async (tx) => {
    // Skip locked: another replica is running this batch; it will say when more are waiting.
    const sweep = await lockOpenSweep(tx, sweepId);
    if (!sweep) return false;
    const unavailableBefore = sweep.unavailable;
    const sql = sqlIn(tx);
    const batch = await sweepCandidates(sql, sweep.cursor ?? '', now, elig.config.IMPEDIMENT_SWEEP_BATCH);
    if (batch.length === 0) {
      deps.log.info({ sweep: sweep.id, checked: sweep.checked, hits: sweep.hits, unavailable: sweep.unavailable }, 'impediment sweep finished');
      sweep.finishedAt = now;
      batches.inc({ state: 'finished' });
      return false;
    }
    // Our internal list, for the batch's production players at once: a listed CPF is not asked of the SPA.
    const listed = await listedCpfs(
      sql,
      batch.filter((p) => consultsInternalList(p.environment)).map((p) => p.cpf),
    );
    const groups = new Map<string, SweepCandidate[]>();
    for (const p of batch) {
      const k = `${p.operatorId}\u0000${p.environment}`;
      groups.set(k, [...(groups.get(k) ?? []), p]);
    }
    for (const players of groups.values()) {
      const first = players[0]!;
      const onList = (p: SweepCandidate) => consultsInternalList(p.environment) && listed.has(p.cpf);
      const toAsk = players.filter((p) => !onList(p)).map((p) => p.cpf);
      const answers = toAsk.length > 0 ? await elig.registryFor(first.environment).checkBatch(toAsk, { operatorId: first.operatorId }) : new Map();
      for (const p of players) {
        const answer: CheckAnswer = onList(p) ? INTERNAL_HIT : (answers.get(p.cpf) ?? { result: 'unavailable', why: 'no answer' });
        await recordCheck(sql, { operatorId: p.operatorId, brandId: p.brandId, playerId: p.id, cpf: p.cpf }, 'sweep', answer, now);
        metric.inc({ outcome: answer.result });
        if (answer.result === 'not_impeded') await markChecked(sql, p.id, now);
        if (answer.result === 'impeded' && (await restrictPlayer(tx, deps.schema, p.id, now, elig.config))) hits.push(p);
        sweep.checked += answer.result === 'unavailable' ? 0 : 1;
        sweep.hits += answer.result === 'impeded' ? 1 : 0;
        sweep.unavailable += answer.result === 'unavailable' ? 1 : 0;
      }
    }
    batches.inc({ state: 'committed' });
    // An outage keeps the cursor: the players it left unanswered are asked again on the next pass
    // (the answered ones are skipped, checked today), and the loop waits its interval first.
    if (batch.length > 0 && sweep.unavailable > unavailableBefore) return false;
    sweep.cursor = batch.at(-1)!.id;
    return true;
  });
  await afterRestriction(deps, hits);
  crashPoint('players.sweep.after-batch');
  return more;
}
