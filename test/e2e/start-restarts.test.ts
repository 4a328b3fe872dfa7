// Under `npm start`, a process that dies (kill -9) is started again, as an orchestrator would, and
// the rest keeps running: the wallet service, then the nats-server and the embedded Postgres that
// `npm start` started itself. After each, the start script says so, the system is ready again and
// answers through the gateway with what it knew before; Ctrl-C still stops every process.
import t from 'tap';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { OperatorClient } from '@bo/contracts';
import { randomCpf, waitFor } from '@bo/service-kit/testing';
import { freePortBlock } from '../../scripts/local-infra.ts';
import { alive, descendants, leftAfterStop, pidOf, startSystem } from './support/start-system.ts';

const dataDir = path.join('/tmp', `bo-start-restarts-${randomBytes(4).toString('hex')}`);
mkdirSync(dataDir, { recursive: true, mode: 0o755 });
t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));

t.test('npm start restarts a process that dies and keeps the others running', async (t) => {
  // PORT, ADMIN_PORT and the six metrics ports in one free block (start-stop.test.ts does the same).
  const port = await freePortBlock(8);
  const s = await startSystem({ port, metricsPort: port + 2, dataDir });
  t.teardown(() => {
    if (s.npm.exitCode === null) process.kill(-s.npm.pid!, 'SIGKILL');
  });
  const demo = JSON.parse(readFileSync(path.join(dataDir, 'demo-operator.json'), 'utf8'));
  const client = new OperatorClient({ baseUrl: `http://127.0.0.1:${port}/api/v1`, ...demo.sandbox });
  const player = await client.post(
    '/players',
    {
      externalId: `restarts-${randomBytes(4).toString('hex')}`,
      name: 'Ana Souza',
      email: 'ana@example.com',
      cpf: randomCpf(),
      birthDate: '1990-05-17',
      phone: '+5511987654321',
      gender: 'feminino',
      signupIp: '198.51.100.7',
      address: { street: 'Rua Augusta', number: '1500', district: 'Consolação', city: 'São Paulo', state: 'SP', postalCode: '01304-001' },
      // The demo operator runs Brazil's profile: a registration carries its loss and time limits (docs/players.md).
      limits: [
        { type: 'loss', period: 'day', value: '1000.00' },
        { type: 'time', period: 'day', value: 600 },
      ],
    },
    { 'idempotency-key': randomBytes(8).toString('hex') },
  );
  t.equal(player.status, 201, 'a player is registered');
  const walletBefore = await client.get(`/players/${player.body.id}/wallet`);
  t.equal(walletBefore.status, 200, 'and has a wallet');

  const victims: Array<[string, RegExp]> = [
    ['wallet', /services\/wallet\/src\/main\.ts/],
    ['nats-server', /nats-server -js/],
    ['postgres', /\/bin\/postgres -D/],
  ];
  for (const [name, command] of victims) {
    const pid = pidOf(descendants(s.script), command);
    const restarted = `[start] ${name} restarted`;
    const seenBefore = s.output().split(restarted).length - 1;
    process.kill(pid, 'SIGKILL');
    // The restart, or start exiting instead (what it did before it restarted anything).
    await waitFor(async () => s.output().split(restarted).length - 1 > seenBefore || s.npm.exitCode !== null, {
      timeoutMs: 120_000,
      intervalMs: 100,
      what: `${name} to be restarted`,
    });
    t.match(s.output(), `[start] ${name} exited (SIGKILL); restarting in 1 s (restart 1)`, `start logs that ${name} died and when it restarts it`);
    t.equal(s.npm.exitCode, null, `npm start is still running after ${name} died`);
    const ready = await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined))?.ok || s.npm.exitCode !== null, {
      timeoutMs: 120_000,
      intervalMs: 100,
      what: `the system to be ready again after ${name} died`,
    });
    t.equal(ready && s.npm.exitCode === null, true, 'the system is ready again');
    t.equal((await client.get('/me')).status, 200, `GET /me answers after ${name} was restarted`);
    t.same((await client.get(`/players/${player.body.id}/wallet`)).body, walletBefore.body, 'and the wallet reads as before');
    const again = pidOf(descendants(s.script), command);
    t.not(again, pid, `a new ${name} process runs`);
  }

  // Ctrl-C: every process goes, the restarted ones included.
  const tree = descendants(s.npm.pid!);
  process.kill(-s.npm.pid!, 'SIGINT');
  t.same(await leftAfterStop(tree, 'every process to stop after Ctrl-C'), [], 'no process is left behind');
  t.match(await s.finalOutput(), /\[start\] stopped/, 'the start script stopped in order');
  t.equal(alive(s.script), false, 'the start script exited');
});
