// The wallet as a real child process (`node services/wallet/src/main.ts`), for crash tests: start
// it with CRASH_AT=<point>, let it die there (SIGKILL), start it again without, check invariants.
import type { Test } from 'tap';
import { spawnServiceProcess, type ServiceProcess } from '@bo/service-kit/testing';

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
      const deadline = Date.now() + 10_000;
      while (!(await answers())) {
        if (Date.now() > deadline) throw new Error(`wallet started but does not answer:\n${current.stderrTail()}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      return current;
    },
  };
}
