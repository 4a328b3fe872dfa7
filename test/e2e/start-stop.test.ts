// `npm start` stops cleanly whichever way it is told to: SIGTERM to npm, SIGTERM or SIGINT to the
// start script, Ctrl-C (SIGINT to the whole process group), or npm killed outright. Each run starts
// its own embedded Postgres and nats-server (START_OWN_SERVERS=1) in a private data folder, so the
// test sees every process `npm start` owns, and checks that none is left afterwards.
import t from 'tap';
import { mkdirSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { freePortBlock } from '../../scripts/local-infra.ts';
import { leftAfterStop, startSystem, type Started } from './support/start-system.ts';

const dataDir = path.join('/tmp', `bo-start-stop-${randomBytes(4).toString('hex')}`);
mkdirSync(dataDir, { recursive: true, mode: 0o755 });
t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));

const ways: Array<[string, (s: Started) => void]> = [
  ['SIGTERM to npm', (s) => process.kill(s.npm.pid!, 'SIGTERM')],
  ['SIGINT to the start script', (s) => process.kill(s.script, 'SIGINT')],
  ['SIGTERM to the start script', (s) => process.kill(s.script, 'SIGTERM')],
  ['Ctrl-C (SIGINT to the process group)', (s) => process.kill(-s.npm.pid!, 'SIGINT')],
  ['npm killed outright (SIGKILL)', (s) => process.kill(s.npm.pid!, 'SIGKILL')],
];

for (const [how, signal] of ways) {
  t.test(`npm start stops every process on ${how}`, async (t) => {
    // PORT, ADMIN_PORT and the six metrics ports, in one block clear of the ephemeral range and of
    // the ports fetch refuses (a port from the process id once drew ADMIN_PORT 3659: "bad port").
    const port = await freePortBlock(8);
    const s = await startSystem({ port, metricsPort: port + 2, dataDir });
    const commands = [...s.tree.values()].join('\n');
    t.match(commands, /postgres -D/, 'it runs an embedded Postgres');
    t.match(commands, /nats-server -js/, 'and a nats-server');
    t.equal([...s.tree.values()].filter((c) => /services\/\w+\/src\/main\.ts/.test(c)).length, 7, 'and the gateway and six services');
    signal(s);
    const left = await leftAfterStop(s.tree, `every process to stop after ${how}`);
    t.same(left, [], 'no process is left behind');
    t.match(await s.finalOutput(), /\[start\] stopped/, 'the start script stopped in order');
    const portOpen = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      () => true,
      () => false,
    );
    t.equal(portOpen, false, 'the public port is closed');
  });
}
