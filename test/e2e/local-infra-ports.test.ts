// The servers `npm start` and `npm test` start for themselves (scripts/local-infra.ts) take a port
// found free; another `npm start` or test starting at the same moment can take it before the
// server binds it (seen: two e2e files' embedded Postgres both on 54329). Unless the port was
// asked for, the server then starts on another free port; any other failure is the failure.
import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { assertPortReachable, FETCH_BLOCKED_PORTS, freePort, onFreePort, startNatsOn } from '../../scripts/local-infra.ts';

const inUse = (err: unknown) => /address already in use/i.test(String(err));

t.test('a port taken meanwhile: another one; a port asked for, or another failure: the failure', async (t) => {
  const tried: number[] = [];
  const said: string[] = [];
  const start = async (port: number) => {
    tried.push(port);
    if (port === 5001) throw new Error('listen tcp 127.0.0.1:5001: bind: address already in use');
    return `server on ${port}`;
  };
  const next = async () => 6001;
  t.same(await onFreePort(5001, false, start, inUse, (m) => said.push(m), next), { port: 6001, server: 'server on 6001' });
  t.same(tried, [5001, 6001]);
  t.match(said, [/port 5001 was taken meanwhile/]);

  await t.rejects(
    onFreePort(5001, true, start, inUse, () => undefined, next),
    /address already in use/,
    'a port asked for is not changed',
  );
  await t.rejects(
    onFreePort(
      7001,
      false,
      async () => Promise.reject(new Error('initdb failed')),
      inUse,
      () => undefined,
      next,
    ),
    /initdb failed/,
    'another failure is not retried',
  );
  let calls = 0;
  await t.rejects(
    onFreePort(
      5001,
      false,
      async () => Promise.reject(new Error(`bind: address already in use (${++calls})`)),
      inUse,
      () => undefined,
      next,
    ),
    /address already in use \(3\)/,
    'three tries in all',
  );
});

t.test('nats-server: a port another server took meanwhile, and it starts on another', async (t) => {
  const port = await freePort();
  const dirs = [mkdtempSync(path.join(os.tmpdir(), 'bo-ports-a-')), mkdtempSync(path.join(os.tmpdir(), 'bo-ports-b-'))];
  t.teardown(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  const first = await startNatsOn(port, dirs[0]!);
  t.teardown(async () => {
    first.child.kill('SIGTERM');
    await first.exited;
  });
  const said: string[] = [];
  const { port: second, server } = await onFreePort(
    port,
    false,
    (p) => startNatsOn(p, dirs[1]!),
    inUse,
    (m) => said.push(m),
  );
  t.teardown(async () => {
    server.child.kill('SIGTERM');
    await server.exited;
  });
  t.not(second, port, 'the second server listens elsewhere');
  t.match(said, [new RegExp(`port ${port} was taken meanwhile`)]);
});

t.test("the ports fetch refuses: start's list is fetch's own, and start refuses them for PORT and ADMIN_PORT", async (t) => {
  // A CI run's start-stop test once drew ADMIN_PORT 3659: start came up, then its own check that the
  // admin API answered failed with "bad port". fetch refuses such a port before connecting, so asking
  // every port up to 10080 is quick; nothing listens on most of them, and a refusal to connect is a
  // different error.
  const refused: number[] = [];
  for (let port = 1; port <= 10_080; port++) {
    const cause = await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(5_000) }).then(
      () => undefined,
      (e: Error & { cause?: Error }) => e.cause?.message,
    );
    if (cause === 'bad port') refused.push(port);
  }
  t.same(
    refused,
    [...FETCH_BLOCKED_PORTS].filter((p) => p > 0),
    'the list is the ports fetch refuses',
  );
  t.throws(
    () => assertPortReachable(3659, 'ADMIN_PORT'),
    /Port 3659 is one browsers and fetch refuse to connect to[\s\S]*Fix: choose another port: ADMIN_PORT=3759 npm start/,
  );
  t.doesNotThrow(() => assertPortReachable(3660, 'ADMIN_PORT'));
});
