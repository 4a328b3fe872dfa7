// The harm assessments (issue #68): every HARM_ASSESS_INTERVAL_MS, the players the feed counted since
// their last assessment (harm_pending) are assessed, each once however many of their events came, in
// batches. Per batch, in ONE transaction: the players taken with their locks, their days and kept levels
// read in one statement, each assessed as of the latest day counted, the level kept, and a change of it
// recorded with `player.risk_level_changed` in the outbox. A batch that fails leaves its players marked.
// Each player is held to their operator's thresholds (our team's defaults until it sets others).
//
// Why not at each event: a deposit pays for its counting only, never for an assessment (about 0.5 ms of
// CPU in this service and as much in Postgres: docs/benchmarks.md), and a player who deposits ten times
// in a minute is assessed once.
import { startLoop, type BackgroundTask, type Logger, type OutboxRelay, type Sql } from '@bo/service-kit';
import { harmStatesOf, saveHarmLevel, storedHarmThresholds, takePendingHarmPlayers } from '../store/harm.ts';
import { harmThresholdsOf } from './harm-thresholds.ts';
import { assessPlayer, changeOf } from './markers.ts';
import { firstDayRead } from './player-day.ts';

/** Players assessed in one transaction. */
const ASSESS_BATCH = 100;

export function startHarmAssessments(o: { sql: Sql; outbox: Pick<OutboxRelay, 'poke'>; log: Logger; intervalMs: number }): BackgroundTask {
  /** One batch: true when it took a whole batch (more may wait). */
  const assessBatch = async (): Promise<boolean> => {
    const { taken, moved } = await o.sql.transaction(
      async (tx) => {
        const pending = await takePendingHarmPlayers(tx, ASSESS_BATCH);
        if (pending.length === 0) return { taken: 0, moved: false };
        const set = await storedHarmThresholds(
          tx,
          pending.map((x) => x.p.operatorId),
        );
        const thresholdsOf = (operatorId: string) => harmThresholdsOf(set.get(operatorId));
        const states = await harmStatesOf(
          tx,
          pending.map((x) => ({ playerId: x.p.playerId, from: firstDayRead(x.day, thresholdsOf(x.p.operatorId)) })),
        );
        let moved = false;
        for (const { p, day, eventId, countedAt } of pending) {
          const t = thresholdsOf(p.operatorId);
          const { days, since, stored } = states.get(p.playerId) ?? { days: [], since: undefined, stored: undefined };
          // An event of an earlier day (a redelivery after later ones) does not take the assessment back in time.
          const asOf = stored && stored.assessedOn > day ? stored.assessedOn : day;
          const assessment = assessPlayer(days, asOf, t, since);
          if (await saveHarmLevel(tx, p, assessment, changeOf(stored, assessment), { eventId, at: countedAt }, stored)) moved = true;
        }
        return { taken: pending.length, moved };
      },
      { idempotent: true },
    );
    if (moved) o.outbox.poke();
    return taken === ASSESS_BATCH;
  };
  const loop = startLoop({ name: 'harm assessments', intervalMs: o.intervalMs, maxBackoffMs: 60_000, log: o.log, run: assessBatch });
  return { name: 'harm assessments', stop: () => loop.stop(), problem: loop.problem };
}
