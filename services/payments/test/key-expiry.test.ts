// Idempotency keys are kept 24 h in payments as at the gateway (docs/decisions.md): once the
// service's expiry has forgotten a key (its stored answer, and a withdrawal create's key on its
// row), the key is a new request; money stays exactly-once through the domain's own uniqueness.
import t from 'tap';
import type { Deposit, Withdrawal } from '@bo/contracts';
import { waitFor } from '@bo/service-kit/testing';
import { paymentsService } from '../src/service.ts';
import { assertLedgerSound, errorOf, FAST_RECONCILER, key, ok, operatorScope, startPaymentsStack } from './support/stack.ts';

t.test('keys past their 24 h are forgotten by payments', async (t) => {
  const stack = await startPaymentsStack(t, 'keyexpiry', { payments: false });
  await stack.start(paymentsService, { ...FAST_RECONCILER, RETENTION_INTERVAL_MS: 50 });
  const { money, sql } = stack;
  const brand = operatorScope('a');
  const age = async (statement: string, k: string) => sql.query(statement.replace('$age', `now() - interval '25 hours'`), [k]);
  const storedAnswers = async (k: string) =>
    Number((await sql.query('select count(*) from payments.processed_requests where idempotency_key = $1', [k])).rows[0].count);
  const depositCall = (playerId: string, k: string, fingerprint: string, amount: string, externalReference: string) =>
    stack.call<Deposit>('payments.deposits.create', {
      scope: brand,
      key: k,
      fingerprint,
      params: { playerId },
      body: { amount, currency: 'BRL', method: 'pix', externalReference },
    });
  const withdrawalCall = (playerId: string, k: string, fingerprint: string, amount: string) =>
    stack.call<Withdrawal>('payments.withdrawals.create', {
      scope: brand,
      key: k,
      fingerprint,
      params: { playerId },
      body: { amount, currency: 'BRL', method: 'pix', destination: 'chave-pix-123' },
    });

  t.test('a deposit key: a conflict within 24 h, a new request after; a younger key still replays', async (t) => {
    const player = await money.player(brand);
    const old = key('dep');
    const young = key('dep');
    const first = ok(await depositCall(player, old, 'fp-1', '10.00', key('ref')));
    const youngFirst = ok(await depositCall(player, young, 'fp-3', '5.00', key('ref')));
    t.equal(errorOf(await depositCall(player, old, 'fp-2', '20.00', key('ref')))?.code, 'IDEMPOTENCY_CONFLICT', 'reused for another request');

    await age('update payments.processed_requests set created_at = $age where idempotency_key = $1', old);
    await waitFor(async () => (await storedAnswers(old)) === 0, { what: 'the old key forgotten' });
    const second = await depositCall(player, old, 'fp-2', '20.00', key('ref'));
    t.equal(second.ok && second.status, 201, 'the forgotten key makes a new deposit');
    t.not(ok(second).id, first.id);
    t.equal(ok(second).amount, '20.00');
    t.notOk(second.replayed, 'not a replay');

    const replay = await depositCall(player, young, 'fp-3', '5.00', key('ref'));
    t.same(ok(replay), youngFirst, 'a key within its 24 h still replays');
    t.equal(replay.replayed, true);
  });

  t.test('a withdrawal key: forgotten on its row and its answer, then a new withdrawal; a reserving row keeps its key', async (t) => {
    const player = await money.fundedPlayer(brand, '100.00');
    const k = key('wd');
    const first = ok(await withdrawalCall(player, k, 'fp-1', '10.00'));
    t.same(ok(await withdrawalCall(player, k, 'fp-1', '10.00')), first, 'a retry within 24 h is the same withdrawal');

    // A move still under way keeps its key, however old: it is what its retry finishes. The
    // reconciler leaves this hand-made row alone (touched in the future) and it moves no money.
    const reservingKey = key('wd');
    await sql.query(
      `insert into payments.withdrawals (id, operator_id, brand_id, environment, player_id, amount, currency, method, destination, status,
         request_scope, request_key, created_at, updated_at, touched_at)
       values ('wd_reserving_test', $1, $2, 'sandbox', $3, '1.00', 'BRL', 'pix', 'x', 'reserving', $4, $5,
         now() - interval '25 hours', now() - interval '25 hours', now() + interval '1 hour')`,
      [brand.operatorId, brand.brandId, player, `${brand.operatorId}:sandbox`, reservingKey],
    );
    t.teardown(() => sql.query(`delete from payments.withdrawals where id = 'wd_reserving_test'`));

    await age('update payments.withdrawals set created_at = $age where request_key = $1', k);
    await age('update payments.processed_requests set created_at = $age where idempotency_key = $1', k);
    // Forgotten twice, on the row and as a stored answer, in two steps of a pass: a pass whose first step ran
    // before the ageing above forgets the answer only, and the next one the row's key. Both are waited for.
    const rowKey = async () => (await sql.query('select request_key from payments.withdrawals where id = $1', [first.id])).rows[0].request_key;
    await waitFor(async () => (await storedAnswers(k)) === 0 && (await rowKey()) === null, { what: 'the withdrawal key forgotten on its row and its answer' });
    const row = (await sql.query('select request_key, request_fingerprint from payments.withdrawals where id = $1', [first.id])).rows[0];
    t.same(row, { request_key: null, request_fingerprint: null }, 'the key and its fingerprint are cleared on the row');
    const kept = (await sql.query(`select request_key from payments.withdrawals where id = 'wd_reserving_test'`)).rows[0];
    t.equal(kept.request_key, reservingKey, 'the reserving row still holds its key');

    const second = await withdrawalCall(player, k, 'fp-2', '20.00');
    t.equal(second.ok && second.status, 201, 'the forgotten key makes a new withdrawal');
    t.not(ok(second).id, first.id);
    const { createdAt: _aged, ...firstNow } = ok(await money.getWithdrawal(brand, first.id));
    const { createdAt: _created, ...firstThen } = first;
    t.same(firstNow, firstThen, 'the first one is untouched (its createdAt aged by the test)');
    t.same(await money.wallet(brand, player), { playerId: player, currency: 'BRL', available: '100.00', withdrawable: '70.00' }, 'both reserved once');
    await sql.query(`delete from payments.withdrawals where id = 'wd_reserving_test'`);
    await assertLedgerSound(t, stack);
  });
});
