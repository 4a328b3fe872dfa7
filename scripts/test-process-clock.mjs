// Preloaded into every Node process `npm test` starts (NODE_OPTIONS=--import, scripts/test.ts): a
// test file's process notes, as it exits, how long it lived, so `npm run test:timings` has each
// file's true wall time (its start and module loading included), whether its workspace runs its
// files one at a time or a few at once. Any other process (a service a test starts, npm, tap)
// notes nothing. Plain JavaScript: every Node a test runs loads it, 20 included.
//
// It notes its CPU too, its children's included: the suite is bound by CPU, so a file's CPU, not its wall
// time, is what it takes from the others (`npm run test:timings` lists the most costly).
//
// It also keeps tap's processinfo hook from recording the modules of any process: tap loads that hook into
// every Node process under a test, and it reads each module loaded again and measures its lines, for
// coverage and `tap --changed`: npm test uses neither (package.json's tap settings disable coverage). It
// cost ~0.3 s of CPU per process start (~40% of a service's start, over a thousand starts a run), and as
// much again in each of the ~310 test files' own processes, which load the services' sources (issue #71).
// This module is loaded first (scripts/test.ts), so the hook reads the exclusion set here (every file),
// not the one the tap runner hands its test files.
import { appendFileSync, readFileSync } from 'node:fs';

/**
 * CPU ms of this process and of its children it reaped (the services and Chromium a test starts and
 * stops, and theirs in turn), from /proc/self/stat (utime, stime, cutime, cstime, in ticks of
 * 1/100 s): on a machine whose cores the suite keeps busy, what a file costs the others. Undefined
 * where /proc is not Linux's.
 */
function cpuMs() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14-17 of proc(5), counted from the state (field 3) here.
    return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) * 10;
  } catch {
    return undefined;
  }
}

const file = process.argv[1];
const isTestFile = Boolean(file && /\.test\.[cm]?[jt]s$/.test(file));
process.env._TAPJS_PROCESSINFO_EXCLUDE_ = '/./';
const phases = process.env.BO_TEST_PHASES;
if (phases && isTestFile) {
  process.once('exit', () => {
    try {
      const cpu = cpuMs();
      appendFileSync(
        phases,
        `${JSON.stringify({ file, phase: 'process', ms: Math.round(performance.now()) })}\n${cpu === undefined ? '' : `${JSON.stringify({ file, phase: 'cpu', ms: cpu })}\n`}`,
      );
    } catch {
      // a report, never a reason for a test to fail
    }
  });
}
