// Services as real child processes (`node services/<svc>/src/main.ts`), for crash tests: start one
// with CRASH_AT=<point>, let it die there, start it again without, and check the invariants.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Test } from 'tap';

const SERVICES_DIR = fileURLToPath(new URL('../../../', import.meta.url));

export interface ChildService {
  name: string;
  pid: number;
  /** Resolves when the process ends (for a crash point: killed by SIGKILL). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderrTail(): string;
  stop(): Promise<void>;
}

export async function spawnService(name: 'wallet' | 'payments', env: Record<string, string | number | undefined>): Promise<ChildService> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'info' };
  delete childEnv.CRASH_AT;
  for (const [k, v] of Object.entries(env)) if (v !== undefined) childEnv[k] = String(v);
  const proc: ChildProcess = spawn(process.execPath, [`${SERVICES_DIR}${name}/src/main.ts`], { env: childEnv, stdio: ['ignore', 'ignore', 'pipe'] });
  let tail = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => proc.once('exit', (code, signal) => resolve({ code, signal })));
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start in time:\n${tail}`)), 30_000);
    proc.stderr!.on('data', (chunk: Buffer) => {
      tail = (tail + chunk.toString()).slice(-8000);
      if (tail.includes(`"msg":"${name} service started"`)) { clearTimeout(timer); resolve(); }
    });
    void exited.then(({ code, signal }) => { clearTimeout(timer); reject(new Error(`${name} exited (${code ?? signal}) before it was ready:\n${tail}`)); });
  });
  await ready;
  return {
    name, pid: proc.pid!, exited, stderrTail: () => tail,
    async stop() {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      proc.kill('SIGTERM');
      const killer = setTimeout(() => proc.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
    },
  };
}

/**
 * Keeps one process per service name; replaces it on restart; stops all at teardown. `answers`
 * asks the service something harmless: "started" is logged before NATS has surely registered the
 * subscriptions, so a process counts as up once it answers.
 */
export function processGroup(t: Test, baseEnv: Record<string, string | number>, answers: (name: 'wallet' | 'payments') => Promise<boolean>) {
  const running = new Map<string, ChildService>();
  t.teardown(async () => { for (const p of running.values()) await p.stop(); });
  return {
    get: (name: string) => running.get(name),
    async start(name: 'wallet' | 'payments', env: Record<string, string | number | undefined> = {}): Promise<ChildService> {
      await running.get(name)?.stop();
      const child = await spawnService(name, { ...baseEnv, ...env });
      running.set(name, child);
      const deadline = Date.now() + 10_000;
      while (!(await answers(name))) {
        if (Date.now() > deadline) throw new Error(`${name} started but does not answer:\n${child.stderrTail()}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      return child;
    },
  };
}
