// Idempotency of the operator's withdrawal operations (create, cancel), whose records the payments
// service keeps in the effect's transaction (as for deposits), through the real gateway and
// services: a first answer is not marked as a replay, a replay is the first answer byte for byte
// and marked, a key reused for another request is a conflict, refusals (the service's and the
// gateway's own) are the key's answer, copies sent together make one withdrawal, and the gateway
// keeps no record of these keys.
import t from 'tap';
import { ADMIN_TOKEN, playerInput, uniq } from './support/stack.ts';
import { key, keyedOperator } from './support/keyed-operator.ts';

const withdrawalInput = (amount = '10.00') => ({ amount, currency: 'BRL', method: 'pix', destination: uniq('pix') });

t.test('withdrawal idempotency kept by the payments service', async (t) => {
  const { stack, db, c, gatewayRecords } = await keyedOperator(t, 'Idempotent Withdrawals');
  const fundedPlayer = async (amount: string) => {
    const id = (await c.post('/players', playerInput(uniq('p')), key('player'))).body.id as string;
    await c.post(`/players/${id}/kyc/submissions`, { documentType: 'rg', reference: 's3://docs/1' }, key('kyc'));
    await c.post(`/sandbox/players/${id}/kyc/decision`, { status: 'aprovado' });
    const d = await c.post(`/players/${id}/deposits`, { amount, currency: 'BRL', method: 'pix', externalReference: uniq('ref') }, key('dep'));
    const confirmed = await c.post(`/deposits/${d.body.id}/confirm`, {}, key('conf'));
    if (confirmed.status !== 200) throw new Error(`funding failed: ${confirmed.status} ${confirmed.text}`);
    return id;
  };
  const withdrawalsOf = async (player: string) =>
    (await db.query('select status from payments.withdrawals where player_id = $1 order by created_at', [player])).rows.map((r) => r.status);

  t.test('create and cancel: the first answer is not a replay, a repeat is, with one effect', async (t) => {
    const player = await fundedPlayer('50.00');
    const k = key('wcreate');
    const body = withdrawalInput('20.00');
    const first = await c.post(`/players/${player}/withdrawals`, body, k);
    t.equal(first.status, 201);
    t.equal(first.body.status, 'under_review');
    t.equal(first.headers.get('idempotent-replayed'), null, 'the first answer is not marked as a replay');
    const again = await c.post(`/players/${player}/withdrawals`, body, k);
    t.equal(again.status, 201);
    t.equal(again.text, first.text, 'the same bytes');
    t.equal(again.headers.get('idempotent-replayed'), 'true');
    t.same(await withdrawalsOf(player), ['under_review'], 'one withdrawal');
    t.equal((await c.get(`/players/${player}/wallet`)).body.withdrawable, '30.00', 'held once');

    const ck = key('wcancel');
    const cancelled = await c.post(`/withdrawals/${first.body.id}/cancel`, {}, ck);
    t.equal(cancelled.status, 200);
    t.equal(cancelled.body.status, 'cancelled');
    t.equal(cancelled.headers.get('idempotent-replayed'), null, 'the first answer is not marked as a replay');
    const cancelledAgain = await c.post(`/withdrawals/${first.body.id}/cancel`, {}, ck);
    t.equal(cancelledAgain.status, 200);
    t.equal(cancelledAgain.text, cancelled.text);
    t.equal(cancelledAgain.headers.get('idempotent-replayed'), 'true');
    t.equal((await c.get(`/players/${player}/wallet`)).body.withdrawable, '50.00', 'released once');
  });

  t.test('a declined create (funds) is stored: the first 422 is not a replay, its repeat is', async (t) => {
    const player = await fundedPlayer('5.00');
    const k = key('wpoor');
    const body = withdrawalInput('9.00');
    const first = await c.post(`/players/${player}/withdrawals`, body, k);
    t.equal(first.status, 422);
    t.equal(first.body.error.code, 'INSUFFICIENT_FUNDS');
    t.equal(first.headers.get('idempotent-replayed'), null);
    const again = await c.post(`/players/${player}/withdrawals`, body, k);
    t.equal(again.status, 422);
    t.equal(again.headers.get('idempotent-replayed'), 'true');
    t.equal(again.body.error.code, 'INSUFFICIENT_FUNDS');
    t.equal(again.body.error.requestId, first.body.error.requestId, 'the replay keeps the first request id');
  });

  t.test('the same key for another request is a conflict, and nothing happens', async (t) => {
    const player = await fundedPlayer('50.00');
    const k = key('wcreate');
    const first = await c.post(`/players/${player}/withdrawals`, withdrawalInput('10.00'), k);
    t.equal(first.status, 201);
    const other = await c.post(`/players/${player}/withdrawals`, withdrawalInput('11.00'), k);
    t.equal(other.status, 409);
    t.equal(other.body.error.code, 'IDEMPOTENCY_CONFLICT');
    t.equal(other.headers.get('idempotent-replayed'), null);
    t.same(await withdrawalsOf(player), ['under_review'], 'no second withdrawal');

    // A cancel's key reused to cancel another withdrawal: 409, and that one stays under review.
    const second = await c.post(`/players/${player}/withdrawals`, withdrawalInput('5.00'), key('wcreate'));
    const ck = key('wcancel');
    t.equal((await c.post(`/withdrawals/${first.body.id}/cancel`, {}, ck)).status, 200);
    const reused = await c.post(`/withdrawals/${second.body.id}/cancel`, {}, ck);
    t.equal(reused.status, 409);
    t.equal(reused.body.error.code, 'IDEMPOTENCY_CONFLICT');
    t.same(await withdrawalsOf(player), ['cancelled', 'under_review'], 'the other withdrawal was not cancelled');
  });

  t.test('refusals are the key’s answer: the service’s and the gateway’s own', async (t) => {
    const player = await fundedPlayer('10.00');
    // A domain refusal from the service (404): replayed with its first request id.
    const k404 = key('wunknown');
    const unknown = await c.post('/withdrawals/wd_nothing/cancel', {}, k404);
    t.equal(unknown.status, 404);
    t.equal(unknown.body.error.code, 'WITHDRAWAL_NOT_FOUND');
    const unknownAgain = await c.post('/withdrawals/wd_nothing/cancel', {}, k404);
    t.equal(unknownAgain.status, 404);
    t.equal(unknownAgain.headers.get('idempotent-replayed'), 'true');
    t.equal(unknownAgain.text, unknown.text, 'the same bytes, first request id included');

    // A validation refusal (422) made by the gateway before forwarding: stored at the service.
    const k422 = key('winvalid');
    const invalidBody = { ...withdrawalInput(), amount: '-5' };
    const invalid = await c.post(`/players/${player}/withdrawals`, invalidBody, k422);
    t.equal(invalid.status, 422);
    t.equal(invalid.body.error.code, 'VALIDATION_ERROR');
    const invalidAgain = await c.post(`/players/${player}/withdrawals`, invalidBody, k422);
    t.equal(invalidAgain.status, 422);
    t.equal(invalidAgain.headers.get('idempotent-replayed'), 'true');
    t.equal(invalidAgain.body.error.requestId, invalid.body.error.requestId, 'the body keeps the first request id');
    const corrected = await c.post(`/players/${player}/withdrawals`, { ...invalidBody, amount: '5.00' }, k422);
    t.equal(corrected.status, 409, 'the corrected request needs a new key');
    t.equal(corrected.body.error.code, 'IDEMPOTENCY_CONFLICT');
    t.same(await withdrawalsOf(player), [], 'nothing was withdrawn');
  });

  t.test('copies sent together: one withdrawal, every answer the first one or in progress', async (t) => {
    const player = await fundedPlayer('30.00');
    const k = key('wrace');
    const body = withdrawalInput('3.00');
    const answers = await Promise.all(Array.from({ length: 6 }, () => c.post(`/players/${player}/withdrawals`, body, k)));
    const created = answers.filter((a) => a.status === 201);
    const inProgress = answers.filter((a) => a.status === 409 && a.body.error.code === 'IDEMPOTENCY_IN_PROGRESS');
    t.equal(created.length + inProgress.length, answers.length, 'nothing else');
    t.ok(created.length >= 1, 'one ran');
    t.ok(
      created.every((a) => a.body.id === created[0]!.body.id),
      'every 201 is the same withdrawal',
    );
    t.same(await withdrawalsOf(player), ['under_review'], 'one withdrawal');
    t.equal((await c.get(`/players/${player}/wallet`)).body.withdrawable, '27.00', 'held once');
  });

  t.test('the team’s pay decision with a key: the first answer is not a replay, a repeat is', async (t) => {
    const player = await fundedPlayer('40.00');
    const w = await c.post(`/players/${player}/withdrawals`, withdrawalInput('15.00'), key('wcreate'));
    const decide = (decision: string, actor: string, k?: string) =>
      fetch(`${stack.adminUrl}/admin/withdrawals/${w.body.id}/decision`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${ADMIN_TOKEN}`,
          'x-admin-actor': actor,
          'content-type': 'application/json',
          ...(k ? { 'idempotency-key': k } : {}),
        },
        body: JSON.stringify({ decision }),
      }).then(async (r) => ({ status: r.status, replayed: r.headers.get('idempotent-replayed'), text: await r.text() }));
    t.equal((await decide('approve', 'ana')).status, 200);
    const k = uniq('wpay');
    const paid = await decide('pay', 'bruno', k);
    t.equal(paid.status, 200);
    t.equal(JSON.parse(paid.text).status, 'paid');
    t.equal(paid.replayed, null, 'the first answer is not marked as a replay');
    const again = await decide('pay', 'bruno', k);
    t.equal(again.status, 200);
    t.equal(again.replayed, 'true');
    t.equal(again.text, paid.text);
    t.equal((await c.get(`/players/${player}/wallet`)).body.available, '25.00', 'paid once');
  });

  t.test('the gateway kept no record of these keys', async (t) => {
    t.equal(await gatewayRecords(['wcreate', 'wcancel', 'wrace', 'wpoor', 'winvalid', 'wunknown']), 0);
  });
});
