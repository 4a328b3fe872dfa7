// One Idempotency-Key, one request, whichever operation uses it and whichever service keeps its
// answer (the players service for players and KYC, the payments service for deposits and withdrawals),
// through the real gateway (two replicas) and services; and a signed request accepted with one
// key only (issue #24, items 1 and 10; docs/decisions.md, "Idempotency" and "Authentication").
import t, { type Test } from 'tap';
import { OperatorClient } from '@bo/contracts';
import { playerInput, uniq } from './support/stack.ts';
import { key, keyedOperator } from './support/keyed-operator.ts';

const depositInput = () => ({ amount: '10.00', currency: 'BRL', method: 'pix', externalReference: uniq('ref') });
const withdrawalInput = () => ({ amount: '5.00', currency: 'BRL', method: 'pix', destination: uniq('pix') });
const now = () => String(Math.floor(Date.now() / 1000));

t.test('idempotency keys across operations, services and replicas', async (t) => {
  const { stack, db, op, c } = await keyedOperator(t, 'Cross Operation Keys');
  const replica = new OperatorClient({ baseUrl: `${await stack.startGatewayReplica()}/api/v1`, key: op.sandbox.key, secret: op.sandbox.secret });
  const player = (await c.post('/players', playerInput(uniq('p')), key('player'))).body.id as string;
  t.equal((await c.post(`/sandbox/players/${player}/kyc/decision`, { status: 'aprovado' })).status, 200);
  const funding = await c.post(`/players/${player}/deposits`, { ...depositInput(), amount: '100.00' }, key('fund'));
  t.equal((await c.post(`/deposits/${funding.body.id}/confirm`, {}, key('fundc'))).status, 200);

  const count = async (sql: string, param: string) => (await db.query(sql, [param])).rows[0].n as number;
  const depositsWith = (ref: string) => count('select count(*)::int n from payments.deposits where external_reference = $1', ref);
  const playersWith = (externalId: string) => count('select count(*)::int n from players.players where external_id = $1', externalId);
  const withdrawalsOf = (id: string) => count('select count(*)::int n from payments.withdrawals where player_id = $1', id);
  const submissionsOf = (id: string) => count('select count(*)::int n from players.kyc_submissions where player_id = $1', id);
  const conflict = (t: Test, res: { status: number; body: any }, what: string) => {
    t.equal(res.status, 409, what);
    t.equal(res.body?.error?.code, 'IDEMPOTENCY_CONFLICT');
  };

  t.test('players, then payments: the deposit is a conflict and does not exist', async (t) => {
    for (const [second, where] of [
      [c, 'the same replica'],
      [replica, 'another replica'],
    ] as const) {
      const k = key('gw-then-svc');
      t.equal((await c.post('/players', playerInput(uniq('p')), k)).status, 201);
      const dep = depositInput();
      conflict(t, await second.post(`/players/${player}/deposits`, dep, k), `a player's key used for a deposit on ${where}`);
      t.equal(await depositsWith(dep.externalReference), 0, 'no deposit');
    }
  });

  t.test('payments, then players: the KYC submission and the player are conflicts and do not exist', async (t) => {
    // A player whose KYC can take a submission (an approved one would refuse it for that reason).
    const fresh = (await c.post('/players', playerInput(uniq('p')), key('fresh'))).body.id as string;
    const k = key('svc-then-gw');
    t.equal((await c.post(`/players/${player}/deposits`, depositInput(), k)).status, 201);
    conflict(t, await replica.post(`/players/${fresh}/kyc/submissions`, { documentType: 'rg', reference: 's3://docs/x' }, k), 'a KYC submission');
    t.equal(await submissionsOf(fresh), 0, 'no submission');
    const k2 = key('svc-then-gw');
    t.equal((await replica.post(`/players/${player}/deposits`, depositInput(), k2)).status, 201);
    const input = playerInput(uniq('p'));
    conflict(t, await c.post('/players', input, k2), 'a player');
    t.equal(await playersWith(input.externalId), 0, 'no player');
  });

  // Two operations of one service: its own stored answers would refuse the key too; the edge's claim does first.
  t.test('two payments operations: the withdrawal and the confirm are conflicts and do nothing', async (t) => {
    const k = key('svc-then-svc');
    const created = await c.post(`/players/${player}/deposits`, depositInput(), k);
    t.equal(created.status, 201);
    const withdrawals = await withdrawalsOf(player);
    conflict(t, await replica.post(`/players/${player}/withdrawals`, withdrawalInput(), k), 'a withdrawal');
    t.equal(await withdrawalsOf(player), withdrawals, 'no withdrawal');
    conflict(t, await c.post(`/deposits/${created.body.id}/confirm`, {}, k), 'the confirm of the deposit the key created');
    const row = await db.query('select status from payments.deposits where id = $1', [created.body.id]);
    t.equal(row.rows[0].status, 'pending', 'not confirmed');
  });

  t.test('the same signed bytes with another key are refused, on either replica; with the same key they are a replay', async (t) => {
    const ts = now();
    const body = withdrawalInput();
    const withdrawals = await withdrawalsOf(player);
    const k = key('signed');
    const first = await c.post(`/players/${player}/withdrawals`, body, { 'x-timestamp': ts, ...k });
    t.equal(first.status, 201);
    for (const [client, where] of [
      [c, 'the same replica'],
      [replica, 'another replica'],
    ] as const) {
      const captured = await client.post(`/players/${player}/withdrawals`, body, { 'x-timestamp': ts, ...key('captured') });
      t.equal(captured.status, 401, `sent again with a new key on ${where}`);
      t.equal(captured.body?.error?.code, 'SIGNATURE_REUSED');
    }
    t.equal(await withdrawalsOf(player), withdrawals + 1, 'one withdrawal');
    const retried = await replica.post(`/players/${player}/withdrawals`, body, { 'x-timestamp': ts, ...k });
    t.equal(retried.status, 201, 'the same bytes with the same key');
    t.equal(retried.headers.get('idempotent-replayed'), 'true');
    t.equal(retried.text, first.text);
    t.equal(await withdrawalsOf(player), withdrawals + 1, 'still one withdrawal');
    t.equal((await c.get(`/players/${player}/wallet`)).body.withdrawable, '95.00', 'held once');
  });
});
