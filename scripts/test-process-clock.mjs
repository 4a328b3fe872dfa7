// Preloaded into every Node process `npm test` starts (NODE_OPTIONS=--import, scripts/test.ts): a
// test file's process notes, as it exits, how long it lived, so `npm run test:timings` has each
// file's true wall time (its start and module loading included), whether its workspace runs its
// files one at a time or a few at once. Any other process (a service a test starts, npm, tap)
// notes nothing. Plain JavaScript: every Node a test runs loads it, 20 included.
import { appendFileSync } from 'node:fs';

const file = process.argv[1];
const phases = process.env.BO_TEST_PHASES;
if (phases && file && /\.test\.[cm]?[jt]s$/.test(file)) {
  process.once('exit', () => {
    try {
      appendFileSync(phases, `${JSON.stringify({ file, phase: 'process', ms: Math.round(performance.now()) })}\n`);
    } catch {
      // a report, never a reason for a test to fail
    }
  });
}
