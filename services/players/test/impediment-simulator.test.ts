// The simulated SPA registry answers from memory (simulator.ts, docs/eligibility.md): two players
// replicas on one database and NATS prefix see each other's sandbox changes once the broadcast
// lands (well before a mirror's minute runs out), a change is in the changing replica's mirror
// before it returns, and a question answered from a mirror runs no SQL statement.
import t from 'tap';
import { startServiceWith, type SqlRunner } from '@bo/service-kit';
import { testNatsUrl, waitFor } from '@bo/service-kit/testing';
import { playersServiceWith } from '../src/service.ts';
import { impedimentSimulator, type ImpedimentSimulator } from '../src/impediments/registry/simulator.ts';
import type { ImpedimentAnswer } from '../src/impediments/registry/registry.ts';
import { admin, brSpaPlayer, errorCode, newKey, okBody, scopes, startPlayers } from './harness.ts';

const opA = { operatorId: scopes.aSandbox.operatorId };
const IMPEDED: ImpedimentAnswer = { result: 'impeded', reasons: ['social_program'] };
const CLEAR: ImpedimentAnswer = { result: 'not_impeded' };
// Far below a mirror's minute: an answer that waits longer than this came from no broadcast.
const BROADCAST_MS = 10_000;

t.test('two replicas, one table: a change on one is answered by the other once its broadcast lands', async (t) => {
  let simA: ImpedimentSimulator | undefined;
  let simB: ImpedimentSimulator | undefined;
  const settings = { IMPEDIMENT_LOOP_MS: 3_600_000 };
  const h = await startPlayers(t, 'simmirror', playersServiceWith({ onSetup: (e) => (simA = e.simulator) }), settings);
  const b = await startServiceWith(playersServiceWith({ onSetup: (e) => (simB = e.simulator) }), {
    ...settings,
    DATABASE_URL: h.databaseUrl,
    NATS_URL: testNatsUrl(),
    NATS_PREFIX: h.prefix,
    RPC_TIMEOUT_MS: 5000,
    OUTBOX_POLL_MS: 50,
  });
  t.teardown(() => b.stop()); // before the harness drops the database (teardowns run last first)
  const a = simA!;
  const other = simB!;
  const cpf = '11144477735';
  const answers = async (sim: ImpedimentSimulator, want: ImpedimentAnswer, what: string) =>
    waitFor(async () => JSON.stringify(await sim.check(cpf, opA)) === JSON.stringify(want), { timeoutMs: BROADCAST_MS, what });

  // Both mirrors read first: what follows is the broadcast's work, not a first read.
  t.same(await a.check(cpf, opA), CLEAR, 'replica A: not on the list');
  t.same(await other.check(cpf, opA), CLEAR, 'replica B: not on the list');

  await a.add(opA.operatorId, cpf, 'social_program', new Date());
  t.same(await a.check(cpf, opA), IMPEDED, 'replica A answers its own change at once');
  await answers(other, IMPEDED, 'replica B sees the addition');
  t.same(await other.check(cpf, opA), IMPEDED, 'replica B: impeded once the broadcast landed');
  t.same(await other.check(cpf, { operatorId: scopes.bSandbox.operatorId }), CLEAR, "another operator's list is its own");

  t.equal(await other.remove(opA.operatorId, cpf), true, 'replica B takes it off');
  t.same(await other.check(cpf, opA), CLEAR, 'replica B answers its own removal at once');
  await answers(a, CLEAR, 'replica A sees the removal');
  t.same(await a.check(cpf, opA), CLEAR, 'replica A: clear once the broadcast landed');

  // Through the sandbox routes and a registration, whichever replica answers each request.
  okBody(
    t,
    await h.call('players.admin.setCompliance', admin, {
      params: { id: opA.operatorId },
      body: { profile: 'br-spa', reason: 'the operator is licensed in Brazil' },
    }),
    200,
  );
  okBody(t, await h.call('players.sandbox.impediments.add', scopes.aSandbox, { body: { cpf, reason: 'social_program' } }), 201);
  await answers(a, IMPEDED, 'replica A has the route’s addition');
  await answers(other, IMPEDED, 'replica B has the route’s addition');
  const register = (externalId: string) => h.call('players.create', scopes.aSandbox, { body: { ...brSpaPlayer, externalId, cpf }, key: newKey() });
  errorCode(t, await register('mirror-1'), 'PLAYER_IMPEDED', 'registration refused on either replica');
  okBody(t, await h.call('players.sandbox.impediments.remove', scopes.aSandbox, { params: { cpf } }), 200);
  await answers(a, CLEAR, 'replica A has the route’s removal');
  await answers(other, CLEAR, 'replica B has the route’s removal');
  okBody(t, await register('mirror-2'), 201);
});

t.test('a question answered from the mirror runs no SQL statement; a change elsewhere reads it once', async (t) => {
  const h = await startPlayers(t, 'simsql', playersServiceWith(), { IMPEDIMENT_LOOP_MS: 3_600_000 });
  let statements = 0;
  const counted: SqlRunner = {
    query: (text, params) => {
      statements++;
      return h.svc.sql.query(text, params);
    },
  };
  const sim = impedimentSimulator({ sql: counted, nc: h.svc.nc, prefix: h.prefix });
  const writer = impedimentSimulator({ sql: h.svc.sql, nc: h.svc.nc, prefix: h.prefix });
  t.teardown(() => {
    sim.stop();
    writer.stop();
  });
  const cpf = '39053344705';
  await writer.add(opA.operatorId, cpf, 'social_program', new Date());
  await h.svc.nc.flush();

  t.same(await sim.check(cpf, opA), IMPEDED, "the operator's first question is answered from the table");
  t.equal(statements, 1, 'one read for the operator');
  t.same(await sim.check(cpf, opA), IMPEDED);
  t.same(
    await sim.checkBatch([cpf, '15350946056'], opA),
    new Map<string, ImpedimentAnswer>([
      [cpf, IMPEDED],
      ['15350946056', CLEAR],
    ]),
    'a batch: an answer per CPF',
  );
  t.equal(statements, 1, 'the next questions, a batch included, run no statement');
  t.equal(sim.asked, 4, 'every CPF counted as a question');

  await writer.remove(opA.operatorId, cpf);
  await waitFor(async () => (await sim.check(cpf, opA)).result === 'not_impeded', { timeoutMs: BROADCAST_MS, what: 'the removal broadcast' });
  t.equal(statements, 2, "the broadcast read the operator's list once; the questions none");

  sim.control({ down: true });
  t.same(await sim.check(cpf, opA), { result: 'unavailable', why: 'simulator down' }, 'down: unavailable, no statement');
  sim.control({ down: false });
  t.equal(statements, 2);
});

t.test('a lost broadcast heals when the mirror expires', async (t) => {
  const h = await startPlayers(t, 'simttl', playersServiceWith(), { IMPEDIMENT_LOOP_MS: 3_600_000 });
  const sim = impedimentSimulator({ sql: h.svc.sql, nc: h.svc.nc, prefix: h.prefix }, {}, { ttlMs: 200 });
  t.teardown(() => sim.stop());
  const cpf = '71460238001';
  t.same(await sim.check(cpf, opA), CLEAR);
  // Written behind the simulators' backs: no broadcast at all.
  await h.sql("insert into players.simulated_impediments (operator_id, cpf, reason, created_at) values (?, ?, 'social_program', now())", [opA.operatorId, cpf]);
  await waitFor(async () => (await sim.check(cpf, opA)).result === 'impeded', { timeoutMs: BROADCAST_MS, what: 'the mirror expired and read again' });
  t.same(await sim.check(cpf, opA), IMPEDED, 'the row is answered after the mirror expired');
});
