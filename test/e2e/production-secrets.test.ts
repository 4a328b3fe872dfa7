// In production (NODE_ENV=production, as the k8s ConfigMap sets it) a process refuses to start on
// a development secret: one line naming it, exit 1, before it connects to anything. Runs the real
// wallet process (it reads DATABASE_URL, LEDGER_CURSOR_SECRET, GAME_LAUNCH_SECRET and SECRETS_MASTER_KEY), and checks
// that with every secret set it starts and reports ready on its internal port.
import t from 'tap';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { cleanupNatsPrefix, createTestDatabase, spawnServiceProcess, testNatsUrl, testPrefix, waitFor } from '@bo/service-kit/testing';

const ROOT = path.resolve(import.meta.dirname, '../..');
const WALLET_MAIN = path.join(ROOT, 'services/wallet/src/main.ts');
/** The wallet's DEV_GAME_LAUNCH_SECRET (services/wallet/src/games/config.ts): public, in this repository. */
const DEV_GAME_LAUNCH_SECRET = 'dev-only-game-launch-secret-change-me';
const production = {
  NODE_ENV: 'production',
  // Nothing answers there: a refusal must come before any connection is tried.
  DATABASE_URL: 'postgres://back_office:a-long-database-password@127.0.0.1:1/backoffice',
  NATS_URL: 'nats://127.0.0.1:1',
  LEDGER_CURSOR_SECRET: 'ledger-cursor-secret-of-at-least-32-chars',
  GAME_LAUNCH_SECRET: 'game-launch-secret-of-at-least-32-characters',
  // The wallet seals game providers' secrets (docs/providers.md).
  SECRETS_MASTER_KEY: 'secrets-master-key-of-at-least-32-characters',
  // Its NATS identity (the local server takes anyone, and ignores them).
  NATS_USER: 'wallet',
  NATS_PASSWORD: 'pNatsPasswordOfTheWalletOfAtLeast32',
};

function runWallet(env: Record<string, string | undefined>): Promise<{ code: number | null; out: string }> {
  const {
    NODE_ENV: _n,
    DATABASE_URL: _d,
    NATS_URL: _u,
    LEDGER_CURSOR_SECRET: _l,
    GAME_LAUNCH_SECRET: _g,
    SECRETS_MASTER_KEY: _s,
    NATS_USER: _nu,
    NATS_PASSWORD: _np,
    ...inherited
  } = process.env;
  const child = spawn(process.execPath, [WALLET_MAIN], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: Object.fromEntries(Object.entries({ ...inherited, ...env }).filter(([, v]) => v !== undefined)) as NodeJS.ProcessEnv,
  });
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  child.stderr.on('data', (d) => {
    out += d;
  });
  // A refusal comes at once; a wallet that started instead is stopped (and the test fails on its output).
  const guard = setTimeout(() => child.kill('SIGTERM'), 60_000);
  return new Promise((resolve) =>
    child.once('close', (code) => {
      clearTimeout(guard);
      resolve({ code, out });
    }),
  );
}

t.test('the wallet refuses development secrets in production, in one line', async (t) => {
  const unset = await runWallet({ ...production, GAME_LAUNCH_SECRET: undefined });
  t.equal(unset.code, 1, 'exit 1');
  t.equal(unset.out, 'wallet: refusing to start in production: GAME_LAUNCH_SECRET is not set; set it in the Secret\n', 'one line, no stack trace');

  // NATS takes only known identities in production (deploy/k8s): without its password it would never connect.
  const noNats = await runWallet({ ...production, NATS_PASSWORD: undefined });
  t.equal(noNats.code, 1);
  t.equal(noNats.out, 'wallet: refusing to start in production: NATS_PASSWORD is not set; set it in the Secret\n');

  const dev = await runWallet({ ...production, GAME_LAUNCH_SECRET: DEV_GAME_LAUNCH_SECRET });
  t.equal(dev.code, 1);
  t.equal(dev.out, 'wallet: refusing to start in production: GAME_LAUNCH_SECRET is the development default; set it in the Secret\n');

  const several = await runWallet({ ...production, LEDGER_CURSOR_SECRET: 'only-sixteen-chr', DATABASE_URL: 'postgres://postgres@db.internal/backoffice' });
  t.equal(several.code, 1);
  t.equal(
    several.out,
    'wallet: refusing to start in production: DATABASE_URL has no password, LEDGER_CURSOR_SECRET is too short (16 characters, at least 32 in production); set them in the Secret\n',
    'every secret at fault at once',
  );
  t.notMatch(several.out, /only-sixteen-chr/, 'values are never printed');
});

t.test('with every secret set it starts in production and is ready', async (t) => {
  const db = await createTestDatabase('prodsecrets');
  const prefix = testPrefix('prodsecrets');
  // With a password (the local server may trust connections and ignore it).
  const url = new URL(db.url);
  if (!url.password) url.password = 'ignored-by-trust-authentication';
  const wallet = await spawnServiceProcess('wallet', WALLET_MAIN, {
    ...production,
    DATABASE_URL: url.toString(),
    NATS_URL: testNatsUrl(),
    NATS_PREFIX: prefix,
    METRICS_PORT: 0,
  });
  t.teardown(async () => {
    await wallet.stop();
    await cleanupNatsPrefix(prefix);
    await db.drop();
  });
  const metricsPort = /"metricsPort":(\d+)/.exec(wallet.stderrTail())?.[1];
  t.ok(metricsPort, 'serves its probes on the internal port');
  const ready = await waitFor(
    async () => {
      const res = await fetch(`http://127.0.0.1:${metricsPort}/readyz`);
      return res.status === 200 ? res.json() : undefined;
    },
    { what: 'wallet ready' },
  );
  t.match(ready, { status: 'ready', checks: { nats: 'ok', postgres: 'ok', 'outbox relay': 'ok', 'clearing roll-up': 'ok' } });
  await wallet.stop();
  t.same(await wallet.exited, { code: 0, signal: null }, 'and stops cleanly');
});
