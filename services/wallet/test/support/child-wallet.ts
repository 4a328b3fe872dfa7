// The wallet as a real child process (`node services/wallet/src/main.ts`), for crash tests: start
// it with CRASH_AT=<point>, let it die there (SIGKILL), start it again without, check invariants.
import type { Test } from 'tap';
import pg from 'pg';
import { spawnServiceProcess, type ServiceProcess } from '@bo/service-kit/testing';
import { adminScope, LAUNCH_SECRET, playersService, startStack } from '@bo/test-support';

export type ChildWallet = ServiceProcess;

export function spawnWallet(env: Record<string, string | number | undefined>): Promise<ChildWallet> {
  return spawnServiceProcess('wallet', new URL('../../src/main.ts', import.meta.url), env);
}

/** One wallet process at a time; `start` replaces the running one; all stopped at teardown. */
export function walletProcess(t: Test, baseEnv: Record<string, string | number>, answers: () => Promise<boolean>) {
  let current: ChildWallet | undefined;
  t.teardown(async () => {
    await current?.stop();
  });
  return {
    get current(): ChildWallet | undefined {
      return current;
    },
    async start(env: Record<string, string | number | undefined> = {}): Promise<ChildWallet> {
      await current?.stop();
      current = await spawnWallet({ ...baseEnv, ...env });
      // "started" is logged once subscriptions are flushed; asking once more costs little.
      const deadline = Date.now() + 60_000;
      while (!(await answers())) {
        if (Date.now() > deadline) throw new Error(`wallet started but does not answer:\n${current.stderrTail()}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      return current;
    },
  };
}

/**
 * What every wallet crash test starts from: a stack with the players service in-process and the
 * wallet only as a child process (not started yet: a test may subscribe what the wallet asks first),
 * ready when it answers the ledger check; and a plain SQL client on the stack's database to read
 * the outcome with. `env` adds to the wallet's environment.
 */
export async function walletCrashStack(t: Test, label: string, env: Record<string, string | number> = {}) {
  const stack = await startStack(t, label, [playersService]);
  const { call } = stack;
  const sql = new pg.Client({ connectionString: stack.databaseUrl });
  await sql.connect();
  t.teardown(() => sql.end());
  const wallet = walletProcess(
    t,
    {
      DATABASE_URL: stack.databaseUrl,
      NATS_URL: stack.config.NATS_URL,
      NATS_PREFIX: stack.prefix,
      // The wallet's calls go to services that never die in these tests: a ceiling for an answer
      // that comes, on a machine as loaded as CI's.
      RPC_TIMEOUT_MS: 30_000,
      GAME_LAUNCH_SECRET: LAUNCH_SECRET,
      PUBLIC_BASE_URL: 'http://games.test:3000',
      ...env,
    },
    async () => {
      // A ceiling for an answer that comes: a wallet not yet listening is "no responders" at once.
      const r = await call('wallet.admin.verifyLedger', { scope: adminScope, timeoutMs: 30_000 });
      return r.ok || r.error.code !== 'SERVICE_UNAVAILABLE';
    },
  );
  return { stack, call, sql, wallet };
}
