// Production refuses to start with the screening simulator unless a setting says so (issue #60 item
// 5): the simulator's lists are empty until our team fills them, so nobody would ever be found on a
// PEP or sanctions list. Runs the real compliance process with NODE_ENV=production and every secret
// fit: one line and exit 1 before anything connects; with SCREENING_SIMULATOR_IN_PRODUCTION=true it
// goes on to connect (nothing answers at the addresses given: it is stopped there).
import t from 'tap';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { screeningRefusal } from '../../src/service.ts';

const ROOT = path.resolve(import.meta.dirname, '../../../..');
const MAIN = path.join(ROOT, 'services/compliance/src/main.ts');
const production = {
  NODE_ENV: 'production',
  // Nothing answers there: the refusal must come before any connection is tried.
  DATABASE_URL: 'postgres://back_office:a-long-database-password@127.0.0.1:1/backoffice',
  NATS_URL: 'nats://127.0.0.1:1',
  LIST_CURSOR_SECRET: 'list-cursor-secret-of-at-least-32-chars',
  NATS_USER: 'compliance',
  NATS_PASSWORD: 'pNatsPasswordOfComplianceOfAtLeast32',
};

/** Runs the process; `stopWhen` stops it once its output says enough (a process that went on). */
function run(env: Record<string, string>, stopWhen?: (out: string) => boolean): Promise<{ code: number | null; out: string }> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !(k in production) && !k.startsWith('SCREENING_') && k !== 'METRICS_PORT'));
  const child = spawn(process.execPath, [MAIN], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...inherited, ...env } as NodeJS.ProcessEnv });
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  child.stderr.on('data', (d) => {
    out += d;
    if (stopWhen?.(out)) child.kill('SIGTERM');
  });
  const guard = setTimeout(() => child.kill('SIGTERM'), 60_000);
  return new Promise((resolve) =>
    child.once('close', (code) => {
      clearTimeout(guard);
      resolve({ code, out });
    }),
  );
}

t.test('the rule', async (t) => {
  const base = { SCREENING_PROVIDER: 'simulator' as const, SCREENING_SIMULATOR_IN_PRODUCTION: false };
  t.match(screeningRefusal({ ...base, NODE_ENV: 'production' }), /SCREENING_SIMULATOR_IN_PRODUCTION=true/, 'production on the simulator: refused');
  t.equal(screeningRefusal({ ...base, NODE_ENV: 'production', SCREENING_SIMULATOR_IN_PRODUCTION: true }), undefined, 'unless said explicitly');
  t.equal(screeningRefusal({ ...base, NODE_ENV: 'production', SCREENING_PROVIDER: 'http' }), undefined, 'a provider: no objection');
  t.equal(screeningRefusal({ ...base, NODE_ENV: undefined }), undefined, 'outside production: the simulator as always');
});

t.test('the process refuses in one line, before it connects', async (t) => {
  const refused = await run(production);
  t.equal(refused.code, 1, 'exit 1');
  t.match(
    refused.out,
    /^compliance: refusing to start in production: SCREENING_PROVIDER=simulator .*SCREENING_SIMULATOR_IN_PRODUCTION=true.*\n$/,
    'one line naming the setting',
  );
  t.equal(refused.out.split('\n').length, 2, 'and nothing else');

  const allowed = await run({ ...production, SCREENING_SIMULATOR_IN_PRODUCTION: 'true' }, (out) => out.includes('ECONNREFUSED'));
  t.match(allowed.out, /ECONNREFUSED 127\.0\.0\.1:1/, 'it went on to connect (nothing answers at the address given)');
  t.notMatch(allowed.out, /refusing to start/, 'not refused: the setting says so explicitly');
});
