// npm run -w @bo/compliance harm:simulate:system [-- --players N --escalating M --newcomers K --days D --seed S]
// The simulated population (src/harm/simulation.ts) played through the system (test/support/harm-population.ts):
// the compliance service and the players service on a database and NATS prefix of their own (DATABASE_URL,
// NATS_URL: the local ones by default), removed at the end. Prints what the system found, the level kept at
// each day's end, beside what the markers find assessing every player on every day.
import { parseArgs } from 'node:util';
import { POPULATION_OPTIONS } from './population-options.ts';
import pg from 'pg';
import type { Test } from 'tap';
import { playersService } from '@bo/players';
import { sqlOnPool } from '@bo/service-kit';
import { operatorScope, startStack } from '@bo/test-support';
import { harmThresholdsOf } from '../src/harm/harm-thresholds.ts';
import { detectionFigures, median, SIMULATION_START, simulatePopulation } from '../src/harm/simulation.ts';
import { playPopulationThroughSystem, systemFigures } from '../test/support/harm-population.ts';

const { values } = parseArgs({
  options: { ...POPULATION_OPTIONS },
});
const days = Number(values.days);
const population = simulatePopulation({
  seed: Number(values.seed),
  recreational: Number(values.players),
  escalating: Number(values.escalating),
  newcomers: Number(values.newcomers),
  days,
});
console.log(
  `${values.players} recreational players, ${values.escalating} escalating, ${values.newcomers} newcomers, ${days} days, seed ${values.seed}, default thresholds, through the system`,
);

// The stack's teardowns (its database, its streams), run at the end as a test's would be, or at Ctrl-C.
const teardowns: Array<() => unknown> = [];
const owner = { teardown: (fn: () => unknown) => teardowns.push(fn) } as unknown as Test;
const began = performance.now();
process.once('SIGINT', async () => {
  for (const fn of teardowns.reverse()) await fn();
  process.exit(130);
});
try {
  const stack = await startStack(owner, 'harmsim');
  await stack.start(playersService, { LOG_LEVEL: 'warn' });
  const pool = new pg.Pool({ connectionString: stack.databaseUrl, max: 2 });
  teardowns.push(() => pool.end());
  const run = await playPopulationThroughSystem(stack, sqlOnPool(pool), operatorScope('harmsim', 'production'), population, {
    start: SIMULATION_START,
    days,
    config: { LOG_LEVEL: 'warn' },
    onDay: (n) => {
      if ((n + 1) % 10 === 0) console.log(`  day ${n + 1} of ${days} counted, read and assessed (${Math.round((performance.now() - began) / 1000)} s)`);
    },
  });
  console.log(`${run.events} events and the play of ${population.length} players in ${Math.round((performance.now() - began) / 1000)} s`);
  const model = detectionFigures(population, harmThresholdsOf(undefined), ['medium', 'high']);
  const lead = (d: number[]) => `median ${median(d)}, quartiles ${d[Math.floor(d.length / 4)] ?? 0}–${d[Math.floor((3 * d.length) / 4)] ?? 0}`;
  for (const level of ['medium', 'high'] as const) {
    const s = systemFigures(population, run.levels, SIMULATION_START, level);
    const m = model[level];
    console.log(`\nlevel ${level} or above (the system: the level kept at a day's end | the markers assessing every day):`);
    console.log(`  escalating found by their peak loss: ${s.escalating.found} of ${s.escalating.of} | ${m.found} of ${m.escalating}`);
    console.log(`  days before the peak loss: ${lead(s.escalating.leadDays)} | ${lead(m.leadDays)}`);
    console.log(`  newcomers found by their peak loss: ${s.newcomers.found} of ${s.newcomers.of} | ${m.newcomers.found} of ${m.newcomers.of}`);
    console.log(`  newcomers, days before it: ${lead(s.newcomers.leadDays)} | ${lead(m.newcomers.leadDays)}`);
    console.log(`  recreational flagged: ${s.recreational.flagged} of ${s.recreational.of} | ${m.flagged} of ${m.recreational}`);
  }
} finally {
  for (const fn of teardowns.reverse()) await fn();
}
