// The simulated population played through the system (issue #68 item 5; test/support/harm-population.ts):
// every simulated day's events on the real events stream and its play through the wallet's harm reads,
// counted, read and assessed by the compliance service as it runs. What it counted is the population's
// days, field by field, and the level it kept at each day's end is the markers' level on the player's
// days as of their latest day: nothing lost, doubled or dated on the wrong day on the way.
import t from 'tap';
import pg from 'pg';
import { playersService } from '@bo/players';
import { operatorScope, startStack } from '@bo/test-support';
import { sqlOnPool } from '@bo/service-kit';
import type { HarmLevel } from '@bo/contracts';
import { harmThresholdsOf } from '../../src/harm/harm-thresholds.ts';
import { assessPlayer } from '../../src/harm/markers.ts';
import { addDays, type PlayerDay } from '../../src/harm/player-day.ts';
import { SIMULATION_START, simulatePopulation } from '../../src/harm/simulation.ts';
import { playPopulationThroughSystem, systemFigures } from '../support/harm-population.ts';

const DAYS = 80;

t.test('a population through the harm feed, its play pass and its assessments', async (t) => {
  const s = await startStack(t, 'harmpop', [playersService]);
  const pool = new pg.Pool({ connectionString: s.databaseUrl, max: 2 });
  t.teardown(() => pool.end());
  const scope = operatorScope('harmpop', 'production');
  // Recreational players (high spenders and night players among them), escalating ones and newcomers harmed from the start.
  const players = simulatePopulation({ seed: 68, recreational: 30, escalating: 6, newcomers: 4, days: DAYS });
  const run = await playPopulationThroughSystem(s, sqlOnPool(pool), scope, players, { start: SIMULATION_START, days: DAYS });

  // The simulation's days with something in them, as the service keeps them (a stake's squares to four places).
  const active = (days: readonly PlayerDay[]) =>
    days
      .filter((d) => d.deposits + d.failedDeposits + d.withdrawalsCancelled + d.bets + d.minutesPlayed + d.limitsRaised + d.limitsRemoved + d.limitsReached > 0)
      .map((d) => ({ ...d, stakeSquares: Number(d.stakeSquares).toFixed(4) }));
  t.same(
    Object.fromEntries(players.map((p) => [p.id, run.counted.get(p.id)])),
    Object.fromEntries(players.map((p) => [p.id, active(p.days)])),
    `every player's days counted as simulated (${run.events} events, ${players.reduce((n, p) => n + active(p.days).length, 0)} days of play)`,
  );

  // Each day's end: the level of the player's days as of their latest day, kept from their last day of play on.
  const defaults = harmThresholdsOf(undefined);
  const expected = (days: PlayerDay[]) => {
    const series: HarmLevel[] = [];
    let level: HarmLevel = 'none';
    for (let n = 0; n < DAYS; n++) {
      const day = addDays(SIMULATION_START, n);
      if (days.some((d) => d.day === day))
        level = assessPlayer(
          days.filter((d) => d.day <= day),
          day,
          defaults,
          days[0]?.day,
        ).level;
      series.push(level);
    }
    return series;
  };
  t.same(
    Object.fromEntries(players.map((p) => [p.id, run.levels.get(p.id)])),
    Object.fromEntries(players.map((p) => [p.id, expected(run.counted.get(p.id) ?? [])])),
    'the level kept at each day’s end is the markers’ level as of the player’s latest day',
  );

  const high = systemFigures(players, run.levels, SIMULATION_START, 'high');
  t.ok(high.escalating.found > 0, `escalating players found at high by their peak loss: ${high.escalating.found} of ${high.escalating.of}`);
});
