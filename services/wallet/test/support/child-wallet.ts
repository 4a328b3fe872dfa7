// The wallet as a real child process (`node services/wallet/src/main.ts`), for crash tests: start
// it with CRASH_AT=<point>, let it die there (SIGKILL), start it again without, check invariants.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Test } from 'tap';

const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));

export interface ChildWallet {
  pid: number;
  /** Resolves when the process ends (at a crash point: killed by SIGKILL). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderrTail(): string;
  stop(): Promise<void>;
}

export async function spawnWallet(env: Record<string, string | number | undefined>): Promise<ChildWallet> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'info' };
  delete childEnv.CRASH_AT;
  for (const [k, v] of Object.entries(env)) if (v !== undefined) childEnv[k] = String(v);
  const proc: ChildProcess = spawn(process.execPath, [MAIN], { env: childEnv, stdio: ['ignore', 'ignore', 'pipe'] });
  let tail = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => proc.once('exit', (code, signal) => resolve({ code, signal })));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`wallet did not start in time:\n${tail}`)), 30_000);
    proc.stderr!.on('data', (chunk: Buffer) => {
      tail = (tail + chunk.toString()).slice(-8000);
      if (tail.includes('"msg":"wallet service started"')) { clearTimeout(timer); resolve(); }
    });
    void exited.then(({ code, signal }) => { clearTimeout(timer); reject(new Error(`wallet exited (${code ?? signal}) before it was ready:\n${tail}`)); });
  });
  return {
    pid: proc.pid!, exited, stderrTail: () => tail,
    async stop() {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      proc.kill('SIGTERM');
      const killer = setTimeout(() => proc.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
    },
  };
}

/** One wallet process at a time; `start` replaces the running one; all stopped at teardown. */
export function walletProcess(t: Test, baseEnv: Record<string, string | number>, answers: () => Promise<boolean>) {
  let current: ChildWallet | undefined;
  t.teardown(async () => { await current?.stop(); });
  return {
    get current(): ChildWallet | undefined { return current; },
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
