// Services as real child processes (`node services/<svc>/src/main.ts`), for crash tests: start one
// with CRASH_AT=<point>, let it die there, start it again without, and check the invariants.
import { fileURLToPath } from 'node:url';
import type { Test } from 'tap';
import { spawnServiceProcess, type ServiceProcess } from '@bo/service-kit/testing';

const SERVICES_DIR = fileURLToPath(new URL('../../../services/', import.meta.url));

export type ServiceName = 'players' | 'wallet' | 'payments' | 'webhooks' | 'operators' | 'compliance';

export type ChildService = ServiceProcess;

export function spawnService(name: ServiceName, env: Record<string, string | number | undefined>): Promise<ChildService> {
  return spawnServiceProcess(name, `${SERVICES_DIR}${name}/src/main.ts`, env);
}

/**
 * Keeps one process per service name; replaces it on restart; stops all at teardown. `answers`
 * asks the service something harmless, so a process counts as up once it answers.
 */
export function processGroup<N extends ServiceName>(t: Test, baseEnv: Record<string, string | number>, answers: (name: N) => Promise<boolean>) {
  const running = new Map<string, ChildService>();
  t.teardown(async () => {
    for (const p of running.values()) await p.stop();
  });
  return {
    get: (name: string) => running.get(name),
    async start(name: N, env: Record<string, string | number | undefined> = {}): Promise<ChildService> {
      await running.get(name)?.stop();
      const child = await spawnService(name, { ...baseEnv, ...env });
      running.set(name, child);
      // A ceiling a busy machine does not reach (a started process answers at once when quiet).
      const deadline = Date.now() + 60_000;
      while (!(await answers(name))) {
        if (Date.now() > deadline) throw new Error(`${name} started but does not answer:\n${child.stderrTail()}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      return child;
    },
  };
}
