// Idempotency of the deposit operations, whose answers the payments service keeps in the effect's
// own statement (the gateway keeps none, as for every operation), through the real gateway and services: the same
// contract as every other idempotent operation (docs/decisions.md): replay with
// Idempotent-Replayed and the original body, conflict for another request, in progress for a
// concurrent copy, 4xx stored (the gateway's own refusals included), and one effect.
import t from 'tap';
import { playerInput, uniq } from './support/stack.ts';
import { key, keyedOperator } from './support/keyed-operator.ts';

const depositInput = (amount = '10.00') => ({ amount, currency: 'BRL', method: 'pix', externalReference: uniq('ref') });

t.test('deposit idempotency kept by the payments service', async (t) => {
  const { db, op, c, gatewayRecords } = await keyedOperator(t, 'Idempotent Deposits');
  const player = (await c.post('/players', playerInput(uniq('p')), key('player'))).body.id as string;

  t.test('a replay is the first answer, byte for byte, marked, with one effect', async (t) => {
    const k = key('create');
    const body = depositInput('25.00');
    const first = await c.post(`/players/${player}/deposits`, body, k);
    t.equal(first.status, 201);
    t.equal(first.headers.get('idempotent-replayed'), null);
    const again = await c.post(`/players/${player}/deposits`, body, k);
    t.equal(again.status, 201);
    t.equal(again.text, first.text, 'the same bytes');
    t.equal(again.headers.get('idempotent-replayed'), 'true');
    t.not(again.headers.get('x-request-id'), first.headers.get('x-request-id'), 'a fresh request id header');
    const rows = await db.query('select count(*)::int as n from payments.deposits where external_reference = $1', [body.externalReference]);
    t.equal(rows.rows[0].n, 1, 'one deposit');

    const ck = key('confirm');
    const confirmed = await c.post(`/deposits/${first.body.id}/confirm`, {}, ck);
    t.equal(confirmed.status, 200);
    t.equal(confirmed.body.status, 'confirmed');
    const confirmedAgain = await c.post(`/deposits/${first.body.id}/confirm`, {}, ck);
    t.equal(confirmedAgain.status, 200);
    t.equal(confirmedAgain.text, confirmed.text);
    t.equal(confirmedAgain.headers.get('idempotent-replayed'), 'true');
    const wallet = await c.get(`/players/${player}/wallet`);
    t.equal(wallet.body.available, '25.00', 'credited once');
  });

  t.test('the same key for another request is a conflict, and nothing happens', async (t) => {
    const k = key('create');
    const first = await c.post(`/players/${player}/deposits`, depositInput(), k);
    t.equal(first.status, 201);
    const otherBody = await c.post(`/players/${player}/deposits`, depositInput('11.00'), k);
    t.equal(otherBody.status, 409);
    t.equal(otherBody.body.error.code, 'IDEMPOTENCY_CONFLICT');
    t.equal(otherBody.headers.get('idempotent-replayed'), null);

    // A confirm's key reused to confirm another deposit: 409, and that deposit stays pending.
    const second = await c.post(`/players/${player}/deposits`, depositInput(), key('create'));
    const ck = key('confirm');
    t.equal((await c.post(`/deposits/${first.body.id}/confirm`, {}, ck)).status, 200);
    const reused = await c.post(`/deposits/${second.body.id}/confirm`, {}, ck);
    t.equal(reused.status, 409);
    t.equal(reused.body.error.code, 'IDEMPOTENCY_CONFLICT');
    const still = await db.query('select status from payments.deposits where id = $1', [second.body.id]);
    t.equal(still.rows[0].status, 'pending', 'the other deposit was not confirmed');
    // The key is the operator's per environment: production has its own.
    const live = await op.productionClient.post(`/players/${player}/deposits`, depositInput(), k);
    t.equal(live.status, 404, 'production answers for itself (the sandbox player is not there)');
    t.equal(live.headers.get('idempotent-replayed'), null);
  });

  t.test('refusals are the key’s answer: the service’s and the gateway’s own', async (t) => {
    // A domain refusal (404) from the service: replayed with its first request id.
    const k404 = key('unknown');
    const unknownBody = depositInput();
    const unknown = await c.post('/players/pl_nobody/deposits', unknownBody, k404);
    t.equal(unknown.status, 404);
    t.equal(unknown.body.error.code, 'PLAYER_NOT_FOUND');
    const unknownAgain = await c.post('/players/pl_nobody/deposits', unknownBody, k404);
    t.equal(unknownAgain.status, 404);
    t.equal(unknownAgain.headers.get('idempotent-replayed'), 'true');
    t.equal(unknownAgain.text, unknown.text, 'the same bytes, first request id included');
    const unknownOther = await c.post('/players/pl_nobody/deposits', depositInput(), k404);
    t.equal(unknownOther.status, 409, 'another body with the key: a conflict, not the refusal');
    t.equal(unknownOther.body.error.code, 'IDEMPOTENCY_CONFLICT');

    // A validation refusal (422) made by the gateway before forwarding: stored at the service.
    const k422 = key('invalid');
    const invalidBody = { ...depositInput(), amount: '-5' };
    const invalid = await c.post(`/players/${player}/deposits`, invalidBody, k422);
    t.equal(invalid.status, 422);
    t.equal(invalid.body.error.code, 'VALIDATION_ERROR');
    const invalidAgain = await c.post(`/players/${player}/deposits`, invalidBody, k422);
    t.equal(invalidAgain.status, 422);
    t.equal(invalidAgain.headers.get('idempotent-replayed'), 'true');
    t.equal(invalidAgain.body.error.requestId, invalid.body.error.requestId, 'the body keeps the first request id');
    const corrected = await c.post(`/players/${player}/deposits`, { ...invalidBody, amount: '5.00' }, k422);
    t.equal(corrected.status, 409, 'the corrected request needs a new key');
    t.equal(corrected.body.error.code, 'IDEMPOTENCY_CONFLICT');

    // A media-type refusal (415), also the gateway's: the same bytes as JSON replay it.
    const k415 = key('media');
    const bytes = JSON.stringify(depositInput());
    const text = await c.request('POST', `/players/${player}/deposits`, bytes, { ...k415, 'content-type': 'text/plain' });
    t.equal(text.status, 415);
    const json = await c.request('POST', `/players/${player}/deposits`, bytes, k415);
    t.equal(json.status, 415, 'the same method, path and bytes: the stored 415');
    t.equal(json.headers.get('idempotent-replayed'), 'true');
  });

  t.test('a body that is not UTF-8: refused, kept under its key, and no deposit (two such references never collide)', async (t) => {
    // "r\xFF" used to be stored as "r\uFFFD", and "r\xFE" was then a 409 naming that deposit.
    const bytes = (b: number) =>
      Buffer.concat([Buffer.from('{"amount":"10.00","currency":"BRL","method":"pix","externalReference":"r'), Buffer.from([b]), Buffer.from('"}')]);
    const k = key('not-utf8');
    const ff = await c.post(`/players/${player}/deposits`, bytes(0xff), k);
    t.equal(ff.status, 422);
    t.same(ff.body.error?.details, { in: 'body', issues: [{ path: '/', message: 'The body is not valid UTF-8.' }] });
    const ffAgain = await c.post(`/players/${player}/deposits`, bytes(0xff), k);
    t.equal(ffAgain.status, 422, 'the retry gets the refusal the payments service kept');
    t.equal(ffAgain.headers.get('idempotent-replayed'), 'true');
    t.equal(ffAgain.body.error?.requestId, ff.body.error?.requestId);
    const fe = await c.post(`/players/${player}/deposits`, bytes(0xfe), key('not-utf8'));
    t.equal(fe.status, 422, 'another such reference is refused the same way, not a 409');
    t.equal(fe.body.error?.code, 'VALIDATION_ERROR');
    const rows = await db.query(`select count(*)::int as n from payments.deposits where player_id = $1 and external_reference like 'r_'`, [player]);
    t.equal(rows.rows[0].n, 0, 'no deposit was stored');
  });

  t.test('copies sent together: one effect, every answer the first one or in progress', async (t) => {
    const k = key('race');
    const body = depositInput('3.00');
    const answers = await Promise.all(Array.from({ length: 6 }, () => c.post(`/players/${player}/deposits`, body, k)));
    const created = answers.filter((a) => a.status === 201);
    const inProgress = answers.filter((a) => a.status === 409 && a.body.error.code === 'IDEMPOTENCY_IN_PROGRESS');
    t.equal(created.length + inProgress.length, answers.length, 'nothing else');
    t.ok(created.length >= 1, 'one ran');
    t.ok(
      created.every((a) => a.text === created[0]!.text),
      'every 201 is the same deposit',
    );
    t.ok(
      inProgress.every((a) => a.headers.get('retry-after') === '1'),
      'in progress says when to retry',
    );
    const rows = await db.query('select count(*)::int as n from payments.deposits where external_reference = $1', [body.externalReference]);
    t.equal(rows.rows[0].n, 1, 'one deposit');
  });

  t.test('the gateway kept no record of these keys', async (t) => {
    t.equal(await gatewayRecords(['create', 'confirm']), 0);
  });
});
