// Preloaded into every Node process `npm test` starts (NODE_OPTIONS=--import, scripts/test.ts): a
// test file's process notes, as it exits, how long it lived, so `npm run test:timings` has each
// file's true wall time (its start and module loading included), whether its workspace runs its
// files one at a time or a few at once. Any other process (a service a test starts, npm, tap)
// notes nothing. Plain JavaScript: every Node a test runs loads it, 20 included.
//
// It also keeps tap's processinfo hook from recording the modules of a process that is not a test file
// (a service, the CLI, npm). tap loads that hook into every Node process a test starts, and it reads each
// module loaded again and measures its lines, for coverage and `tap --changed`: npm test uses neither,
// and it cost ~0.3 s of CPU per process start (~40% of a service's start), over a thousand starts a run
// (issue #71). This module is loaded first (scripts/test.ts), so the hook reads the exclusion set here:
// every file. The tap runner sets its own exclusion for the test files' processes, which record as before.
import { appendFileSync } from 'node:fs';

const file = process.argv[1];
const isTestFile = Boolean(file && /\.test\.[cm]?[jt]s$/.test(file));
if (!isTestFile) process.env._TAPJS_PROCESSINFO_EXCLUDE_ = '/./';
const phases = process.env.BO_TEST_PHASES;
if (phases && isTestFile) {
  process.once('exit', () => {
    try {
      appendFileSync(phases, `${JSON.stringify({ file, phase: 'process', ms: Math.round(performance.now()) })}\n`);
    } catch {
      // a report, never a reason for a test to fail
    }
  });
}
