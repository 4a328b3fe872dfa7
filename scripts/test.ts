// `npm test`: the one test command (README, .ci/run). Checks the runtime and the services the
// tests need, typechecks, runs every workspace's tap suite through turbo, and ends with one line
// `N passed, M failed` (test files passed and failed, the typecheck counted as one).
import { spawnSync } from 'node:child_process';
import net from 'node:net';

if (!process.versions.node.startsWith('24.')) {
  console.error(`npm test must run on the pinned Node 24 (got ${process.versions.node}); run npm install so the node devDependency is installed.`);
  console.log('0 passed, 1 failed');
  process.exit(1);
}

function reachable(url: string, fallbackPort: number): Promise<boolean> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const s = net.connect({ host: u.hostname, port: Number(u.port || fallbackPort) });
    s.setTimeout(2000);
    s.once('connect', () => { s.destroy(); resolve(true); });
    s.once('error', () => resolve(false));
    s.once('timeout', () => { s.destroy(); resolve(false); });
  });
}
const dbUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const missing = [];
if (!(await reachable(dbUrl, 5432))) missing.push(`Postgres at ${dbUrl}`);
if (!(await reachable(natsUrl, 4222))) missing.push(`NATS at ${natsUrl}`);
if (missing.length) {
  console.error(`Tests need ${missing.join(' and ')} (set DATABASE_URL / NATS_URL, or run .ci/run which starts them).`);
  console.log('0 passed, 1 failed');
  process.exit(1);
}

let passed = 0;
let failed = 0;
const tc = spawnSync('tsc', ['--noEmit', '-p', '.'], { stdio: 'inherit' });
if (tc.status === 0) passed++; else { failed++; console.error('typecheck failed'); }

const filter = process.argv.slice(2);
const run = spawnSync('turbo', ['run', 'test', '--force', '--concurrency=2', '--log-order=grouped', '--continue', ...filter.map((f) => `--filter=${f}`)], {
  encoding: 'utf8', env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1', FORCE_COLOR: '0' }, maxBuffer: 1 << 30,
});
process.stdout.write(run.stdout ?? '');
process.stderr.write(run.stderr ?? '');
let summaries = 0;
for (const m of (run.stdout ?? '').matchAll(/# \{ total: (\d+), pass: (\d+)(?:, fail: (\d+))?/g)) {
  summaries++;
  passed += Number(m[2]);
  failed += Number(m[3] ?? 0);
}
if (run.status !== 0 && failed === 0) failed++; // a suite that crashed before printing its summary
if (summaries === 0) { console.error('no test suite reported'); failed++; }
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
