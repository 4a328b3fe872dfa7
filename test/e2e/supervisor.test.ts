// The restart policy of `npm start` (scripts/supervisor.ts) on stand-in processes: the back-off
// grows, a start that fails counts as a death, a death before the system was ready stops
// everything, and stop() cancels pending restarts and stops tier by tier. start-restarts.test.ts
// runs it on the real system.
import t from 'tap';
import { waitFor } from '@bo/service-kit/testing';
import { restartDelayMs, Supervisor, type Running } from '../../scripts/supervisor.ts';

/** A stand-in process: dies when told, records its stop. */
function fakeProcess(events: string[], name: string, lastLine = '') {
  let die: (why: string) => void = () => undefined;
  const exited = new Promise<string>((resolve) => {
    die = resolve;
  });
  const running: Running = {
    exited,
    lastLine: () => lastLine,
    stop: async () => {
      events.push(`stop ${name}`);
      die('SIGTERM');
    },
  };
  return { running, die: (why: string) => die(why) };
}

t.test('the wait before each restart in a row doubles, up to 30 s', async (t) => {
  t.same([1, 2, 3, 4, 5, 6, 7, 20].map(restartDelayMs), [1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000]);
});

t.test('a process that dies before the system was ready stops everything, with its last line', async (t) => {
  const fatal: string[] = [];
  const sup = new Supervisor({ log: () => undefined, fatal: (reason) => fatal.push(reason) });
  const p = fakeProcess([], 'wallet', 'wallet failed to start: no such table');
  sup.adopt({ name: 'wallet', tier: 0, start: async () => fakeProcess([], 'wallet').running }, p.running);
  p.die('code 1');
  await waitFor(async () => fatal.length > 0, { what: 'the fatal report' });
  t.same(fatal, ['wallet exited (code 1) before the system was ready; its last line: wallet failed to start: no such table']);
  await sup.stop();
});

t.test('once ready, a process that dies is restarted with a growing back-off; a failed start counts', async (t) => {
  const logs: string[] = [];
  const events: string[] = [];
  const sup = new Supervisor({ log: (m) => logs.push(m), fatal: (reason) => t.fail(reason) });
  let current = fakeProcess(events, 'wallet');
  let starts = 0;
  sup.adopt(
    {
      name: 'wallet',
      tier: 0,
      start: async () => {
        starts++;
        if (starts === 2) throw new Error('port in use\nmore detail');
        current = fakeProcess(events, 'wallet');
        return current.running;
      },
    },
    current.running,
  );
  sup.ready();
  current.die('SIGKILL');
  await waitFor(async () => logs.includes('wallet restarted'), { what: 'the first restart' });
  current.die('code 1');
  await waitFor(async () => logs.filter((l) => l === 'wallet restarted').length === 2, { timeoutMs: 30_000, what: 'the second restart' });
  t.same(logs, [
    'wallet exited (SIGKILL); restarting in 1 s (restart 1)',
    'wallet restarted',
    'wallet exited (code 1); restarting in 2 s (restart 2)',
    'wallet did not start: port in use; restarting in 4 s (restart 3)',
    'wallet restarted',
  ]);
  await sup.stop();
  t.same(events, ['stop wallet'], 'stop ends the running one');
});

t.test('stop cancels a pending restart and stops tier by tier', async (t) => {
  const logs: string[] = [];
  const events: string[] = [];
  const sup = new Supervisor({ log: (m) => logs.push(m), fatal: (reason) => t.fail(reason) });
  let stopped = false;
  const unit = (name: string, tier: number) => ({
    name,
    tier,
    start: async () => {
      // A restart after stop() would come once this test has ended: tap reports it as a failure.
      if (stopped) t.fail(`${name} was started after stop()`);
      return fakeProcess(events, name).running;
    },
  });
  const postgres = fakeProcess(events, 'postgres');
  sup.adopt(unit('postgres', 2), postgres.running);
  sup.adopt(unit('nats-server', 1), fakeProcess(events, 'nats-server').running);
  await sup.start(unit('wallet', 0));
  await sup.start(unit('gateway', 0));
  sup.ready();
  postgres.die('SIGKILL');
  await waitFor(async () => logs.length > 0, { what: 'the restart to be scheduled' });
  await sup.stop();
  stopped = true;
  t.same(logs, ['postgres exited (SIGKILL); restarting in 1 s (restart 1)']);
  t.same(events, ['stop wallet', 'stop gateway', 'stop nats-server'], 'services and gateway first, then NATS; the dead Postgres is not stopped');
});
