// npm run -w @bo/compliance harm:simulate [-- --players N --escalating M --newcomers K --days D --seed S --thresholds JSON]
// The harm markers against a simulated population (src/harm/simulation.ts), with the default
// thresholds (the figures docs/player-protection.md records) or some of them changed, as an
// operator's override would (`--thresholds '{"depositFactor":4}'`).
import { parseArgs } from 'node:util';
import { POPULATION_OPTIONS } from './population-options.ts';
import { harmThresholdsOf } from '../src/harm/harm-thresholds.ts';
import { detectionFigures, median, simulatePopulation } from '../src/harm/simulation.ts';

const { values } = parseArgs({
  options: { ...POPULATION_OPTIONS, thresholds: { type: 'string', default: '{}' } },
});
const thresholds = harmThresholdsOf(JSON.parse(values.thresholds));
const population = simulatePopulation({
  seed: Number(values.seed),
  recreational: Number(values.players),
  escalating: Number(values.escalating),
  newcomers: Number(values.newcomers),
  days: Number(values.days),
});
console.log(
  `${values.players} recreational players, ${values.escalating} escalating, ${values.newcomers} newcomers harmed from the start, ${values.days} days, seed ${values.seed}, thresholds ${values.thresholds}`,
);
const figures = detectionFigures(population, thresholds, ['medium', 'high']);
for (const level of ['medium', 'high'] as const) {
  const f = figures[level];
  const pct = (a: number, b: number) => `${((100 * a) / Math.max(1, b)).toFixed(1)}%`;
  console.log(`\nlevel ${level} or above:`);
  console.log(`  escalating found by their peak loss: ${f.found} of ${f.escalating} (${pct(f.found, f.escalating)})`);
  const lead = (days: number[]) =>
    `median ${median(days)}, quartiles ${days[Math.floor(days.length / 4)] ?? 0}–${days[Math.floor((3 * days.length) / 4)] ?? 0}`;
  console.log(`  days before the peak loss: ${lead(f.leadDays)}`);
  const n = f.newcomers;
  console.log(`  newcomers found by their peak loss: ${n.found} of ${n.of} (${pct(n.found, n.of)}), days before it: ${lead(n.leadDays)}`);
  console.log(`  recreational flagged: ${f.flagged} of ${f.recreational} (${pct(f.flagged, f.recreational)})`);
  for (const [kind, k] of Object.entries(f.flaggedByKind)) console.log(`    ${kind}: ${k.flagged} of ${k.of} (${pct(k.flagged, k.of)})`);
  const tally = (t: Record<string, number>) =>
    Object.entries(t)
      .sort((a, b) => b[1] - a[1])
      .map(([m, n]) => `${m} ${n}`)
      .join(', ');
  console.log(`  markers on the day an escalating player or a newcomer reached it: ${tally(f.markerDays)}`);
  console.log(`  markers on the day a recreational player reached it: ${tally(f.wrongMarkerDays)}`);
}
