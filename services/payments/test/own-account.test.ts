// br-spa payments (issue 27, docs/eligibility.md) through real players, wallet and payments with
// the simulated SPA registry and PSP key directory: allowed methods, the payer's CPF on confirm (a
// mismatch is never credited), withdrawals only to the player's own account, an impediment hit
// (deposits refused, withdrawals inside the window only), the closing with the balance in the
// review queue, and the profile switch in force at once.
import t from 'tap';
import { randomCpf, setRuleClockOffset, waitFor } from '@bo/service-kit/testing';
import { playersServiceWith } from '@bo/players';
import { walletService } from '@bo/wallet';
import { startStack, type Stack } from '@bo/test-support';
import pg from 'pg';
import type { Deposit, OperatorScope, Withdrawal } from '@bo/contracts';
import { paymentsServiceWith } from '../src/service.ts';
import type { OwnAccount } from '../src/own-account/setup.ts';
import { BR_SPA_LIMITS } from '@bo/test-support';
import { FAST_RECONCILER, adminScope, assertLedgerSound, createPlayer, errorOf, key, ok, operatorScope, streamEvents } from './support/stack.ts';

const DAY = 86_400_000;

t.test('br-spa: whose money it is', async (t) => {
  // The players service's clock: the impediment rules' days; payments reads the window's end from it.
  let now = Date.now() - 5 * DAY;
  const stack: Stack = await startStack(t, 'ownacct', []);
  await stack.start(playersServiceWith({ clock: () => new Date(now) }), { IMPEDIMENT_LOOP_MS: 100 });
  await stack.start(walletService);
  let own: OwnAccount | undefined;
  await stack.start(
    paymentsServiceWith((o) => (own = o)),
    FAST_RECONCILER,
  );
  const sql = new pg.Client({ connectionString: stack.databaseUrl });
  await sql.connect();
  t.teardown(() => sql.end());
  const { call } = stack;
  const brand: OperatorScope = operatorScope('own');

  const cpfOf = async (playerId: string): Promise<string> => (await sql.query('select cpf from players.players where id = $1', [playerId])).rows[0].cpf;
  const createDeposit = (playerId: string, body: Record<string, unknown> = {}) =>
    call<Deposit>('payments.deposits.create', {
      scope: brand,
      key: key('dep'),
      params: { playerId },
      body: { amount: '100.00', currency: 'BRL', method: 'pix', externalReference: key('ref'), ...body },
    });
  const confirm = (depositId: string, body: Record<string, unknown> = {}, k = key('conf')) =>
    call<Deposit>('payments.deposits.confirm', { scope: brand, key: k, params: { depositId }, body });
  const withdraw = (playerId: string, method: string, destination: string, amount = '10.00') =>
    call<Withdrawal>('payments.withdrawals.create', {
      scope: brand,
      key: key('wd'),
      params: { playerId },
      body: { amount, currency: 'BRL', method, destination },
    });
  const available = async (playerId: string) => ok<{ available: string }>(await call('wallet.get', { scope: brand, params: { playerId } })).available;
  const funded = async (amount: string): Promise<string> => {
    const playerId = await createPlayer(call, brand, { kyc: 'aprovado', limits: BR_SPA_LIMITS });
    const dep = ok(await createDeposit(playerId, { amount }));
    ok(await confirm(dep.id, { payer: { cpf: await cpfOf(playerId) } }));
    return playerId;
  };

  t.test('the profile off: confirm without a body; switching br-spa on is in force at once', async (t) => {
    const playerId = await createPlayer(call, brand, { limits: BR_SPA_LIMITS });
    const first = ok(await createDeposit(playerId, { method: 'boleto' }));
    t.equal(ok(await confirm(first.id)).status, 'confirmed', 'off: no payer, any method');
    const second = ok(await createDeposit(playerId));
    const third = ok(await createDeposit(playerId));
    ok(
      await call('players.admin.setCompliance', {
        scope: adminScope,
        params: { id: brand.operatorId },
        body: { profile: 'br-spa', reason: 'the operator is licensed in Brazil' },
      }),
    );
    t.equal(errorOf(await confirm(second.id))?.code, 'PAYER_REQUIRED', 'the next confirm already needs the payer');
    t.equal((await sql.query('select status from payments.deposits where id = $1', [second.id])).rows[0].status, 'pending');
    // Created under off, these deposits record no owner: the payer is checked against the player.
    const owners = await sql.query('select owner_cpf from payments.deposits where id = any($1) order by id', [[second.id, third.id]]);
    t.same(owners.rows, [{ owner_cpf: null }, { owner_cpf: null }], 'created under off: no owner recorded');
    t.equal(ok(await confirm(second.id, { payer: { cpf: await cpfOf(playerId) } })).status, 'confirmed', "the player's CPF credits");
    t.match(ok(await confirm(third.id, { payer: { cpf: randomCpf() } })), { status: 'failed', failureReason: 'payer_mismatch' }, 'another CPF fails it');
  });

  t.test('methods: pix, ted, debit_card, prepaid_card only', async (t) => {
    const playerId = await createPlayer(call, brand, { kyc: 'aprovado', limits: BR_SPA_LIMITS });
    for (const method of ['boleto', 'credit_card', 'crypto', 'cash']) {
      const refused = errorOf(await createDeposit(playerId, { method }));
      t.match(refused, { code: 'METHOD_NOT_ALLOWED', details: { allowed: ['pix', 'ted', 'debit_card', 'prepaid_card'] } }, `deposit ${method}`);
    }
    for (const method of ['pix', 'ted', 'debit_card', 'prepaid_card']) t.equal(ok(await createDeposit(playerId, { method })).status, 'pending', method);
    t.equal(errorOf(await withdraw(playerId, 'boleto', await cpfOf(playerId)))?.code, 'METHOD_NOT_ALLOWED');
  });

  t.test("the payer: the player's CPF credits; another CPF fails the deposit, wallet untouched", async (t) => {
    const playerId = await createPlayer(call, brand, { limits: BR_SPA_LIMITS });
    const cpf = await cpfOf(playerId);
    const good = ok(await createDeposit(playerId, { amount: '40.00' }));
    const owner = await sql.query('select owner_cpf from payments.deposits where id = $1', [good.id]);
    t.equal(owner.rows[0].owner_cpf, cpf, "created under br-spa: the player's CPF recorded as the owner");
    const formatted = `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`;
    t.equal(ok(await confirm(good.id, { payer: { cpf: formatted, name: 'Maria Teste', bank: '341', account: '0001/1234-5' } })).status, 'confirmed');
    t.same((await sql.query('select payer_cpf, payer_name, payer_bank, payer_account from payments.deposits where id = $1', [good.id])).rows[0], {
      payer_cpf: cpf,
      payer_name: 'Maria Teste',
      payer_bank: '341',
      payer_account: '0001/1234-5',
    });
    t.equal(await available(playerId), '40.00');

    const other = randomCpf();
    const bad = ok(await createDeposit(playerId, { amount: '60.00' }));
    const k = key('mismatch');
    const answer = ok(await confirm(bad.id, { payer: { cpf: other, name: 'Someone Else' } }, k));
    t.match(answer, { id: bad.id, status: 'failed', failureReason: 'payer_mismatch', confirmedAt: null });
    t.same(answer.payer, { cpf: `***.${other.slice(3, 6)}.${other.slice(6, 9)}-**` }, 'the reply shows who paid, the CPF masked');
    t.notMatch(JSON.stringify(answer), other, 'never the whole CPF');
    t.same(ok(await confirm(bad.id, { payer: { cpf: other, name: 'Someone Else' } }, k)), answer, 'a retry with the key answers the same');
    t.equal(errorOf(await confirm(bad.id, { payer: { cpf } }))?.code, 'DEPOSIT_NOT_PENDING', 'a failed deposit is never confirmed after');
    t.equal(await available(playerId), '40.00', 'wallet untouched');
    t.same((await sql.query('select payer_cpf, payer_name, status from payments.deposits where id = $1', [bad.id])).rows[0], {
      payer_cpf: other,
      payer_name: 'Someone Else',
      status: 'failed',
    });
    const credits = await sql.query('select count(*)::int as n from wallet.ledger_entries where reference_id = $1', [bad.id]);
    t.equal(credits.rows[0].n, 0, 'no ledger entry for the mismatch');
    await waitFor(async () => (await sql.query('select count(*)::int as n from payments.outbox where published_at is null')).rows[0].n === 0, {
      what: 'outbox drained',
    });
    const failed = (await streamEvents(stack)).filter((e) => e.type === 'deposit.failed' && (e.data as { deposit: { id: string } }).deposit.id === bad.id);
    t.same(
      failed.map((e) => e.data),
      [{ deposit: answer, refundRequired: true }],
      'deposit.failed with refundRequired',
    );
    await assertLedgerSound(t, stack);
  });

  t.test("withdrawals only to the player's own account", async (t) => {
    const playerId = await funded('100.00');
    const cpf = await cpfOf(playerId);
    const otherCpf = randomCpf();
    t.equal(ok(await withdraw(playerId, 'pix', cpf)).status, 'under_review', 'PIX CPF key: the player');
    t.equal(errorOf(await withdraw(playerId, 'pix', otherCpf))?.code, 'DESTINATION_NOT_OWNED', "PIX CPF key: someone else's");
    t.equal(errorOf(await withdraw(playerId, 'pix', 'maria@example.com'))?.code, 'DESTINATION_NOT_OWNED', 'a key the PSP does not know');
    const mine = `maria-${key()}@example.com`;
    const theirs = `+5511${Math.floor(Math.random() * 1e9)}`;
    t.same(ok(await call('payments.sandbox.pixKeys.add', { scope: brand, body: { key: mine, ownerCpf: cpf } })), { key: mine, ownerCpf: cpf });
    ok(await call('payments.sandbox.pixKeys.add', { scope: brand, body: { key: theirs, ownerCpf: otherCpf } }));
    t.equal(ok(await withdraw(playerId, 'pix', mine)).status, 'under_review', "an e-mail key the PSP says is the player's");
    t.equal(errorOf(await withdraw(playerId, 'pix', theirs))?.code, 'DESTINATION_NOT_OWNED', "a phone key of someone else's");
    t.equal(ok(await withdraw(playerId, 'ted', `341/0001/12345-6/${cpf}`)).status, 'under_review', 'TED to an account the player holds');
    t.equal(errorOf(await withdraw(playerId, 'ted', `341/0001/12345-6/${otherCpf}`))?.code, 'DESTINATION_NOT_OWNED');
    t.equal(errorOf(await withdraw(playerId, 'debit_card', '4111111111111111'))?.code, 'DESTINATION_NOT_OWNED', 'a card is not a destination we can check');
    own!.simulator.control({ down: true });
    t.equal(errorOf(await withdraw(playerId, 'pix', mine))?.code, 'PROVIDER_UNAVAILABLE', 'the PSP down: refused, never a pass');
    own!.simulator.control({ down: false });
    t.same(ok(await call('payments.sandbox.pixKeys.remove', { scope: brand, params: { key: mine } })), { key: mine, removed: true });
    t.equal(errorOf(await withdraw(playerId, 'pix', mine))?.code, 'DESTINATION_NOT_OWNED');
    t.equal(await available(playerId), '100.00', 'nothing paid yet: every withdrawal waits in the review queue');
    await assertLedgerSound(t, stack);
  });

  t.test('DESTINATION_NOT_OWNED says why, never whose; a CPF key is kept as its digits', async (t) => {
    const playerId = await funded('50.00');
    const cpf = await cpfOf(playerId);
    const otherCpf = randomCpf();
    const theirs = `+5521${Math.floor(Math.random() * 1e9)}`;
    ok(await call('payments.sandbox.pixKeys.add', { scope: brand, body: { key: theirs, ownerCpf: otherCpf } }));
    const refusal = async (method: string, destination: string) => {
      const error = errorOf(await withdraw(playerId, method, destination));
      t.notMatch(JSON.stringify(error), otherCpf, `${destination}: the other owner is never named`);
      return error;
    };
    t.match(await refusal('pix', `unknown-${key()}@example.com`), { code: 'DESTINATION_NOT_OWNED', details: { reason: 'unknown_key' }, message: /No PIX key/ });
    t.match(await refusal('pix', otherCpf), { code: 'DESTINATION_NOT_OWNED', details: { reason: 'other_owner' } }, "another person's CPF key");
    t.match(await refusal('pix', theirs), { code: 'DESTINATION_NOT_OWNED', details: { reason: 'other_owner' } }, "another person's phone key");
    t.match(await refusal('ted', `341/0001/12345-6/${otherCpf}`), { details: { reason: 'other_owner' } }, "another person's account");
    t.match(await refusal('debit_card', '4111111111111111'), { details: { reason: 'not_verifiable' } }, 'a card');
    const punctuated = `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`;
    t.equal(ok(await withdraw(playerId, 'pix', punctuated)).destination, cpf, 'a punctuated CPF key is kept as its digits');
  });

  t.test('an impediment hit: deposits refused, withdrawals inside the window, then closed with the balance in the review queue', async (t) => {
    // Hit 4 days ago (players' clock): the 2-day window is over.
    now = Date.now() - 5 * DAY;
    const late = await funded('30.00');
    ok(await call('players.sandbox.impediments.add', { scope: brand, body: { cpf: await cpfOf(late), reason: 'central_self_exclusion' } }));
    now += DAY;
    t.equal(errorOf(await createDeposit(late))?.code, 'PLAYER_IMPEDED', "the first deposit of the day runs the day's check");
    t.match(errorOf(await createDeposit(late)), { code: 'RG_BLOCKED', details: { reason: 'impeded' } }, 'then refused as impeded');
    t.match(
      errorOf(await withdraw(late, 'pix', await cpfOf(late))),
      { code: 'RG_BLOCKED', details: { reason: 'impeded' } },
      'the window closed 2 days after the hit',
    );

    // Hit now: inside the window.
    now = Date.now() - 5 * DAY;
    const player = await funded('80.00');
    const cpf = await cpfOf(player);
    ok(await call('players.sandbox.impediments.add', { scope: brand, body: { cpf, reason: 'social_program' } }));
    now = Date.now();
    const hitAt = now;
    t.equal(errorOf(await call('players.logins.report', { scope: brand, params: { playerId: player } }))?.code, 'PLAYER_IMPEDED');
    t.match(errorOf(await createDeposit(player)), { code: 'RG_BLOCKED', details: { reason: 'impeded' } });
    const out = ok(await withdraw(player, 'pix', cpf, '25.00'));
    t.equal(out.status, 'under_review', 'a withdrawal inside the window');

    // Three days on: closed, and what is left goes to the review queue, to the player's own CPF.
    now += 3 * DAY;
    await waitFor(async () => (await sql.query('select status from players.players where id = $1', [player])).rows[0].status === 'encerrado', {
      what: 'player closed',
    });
    const closing = await waitFor(
      async () => {
        const rows = (
          await sql.query("select id, amount, destination, method, status from payments.withdrawals where player_id = $1 and request_scope = 'closeout'", [
            player,
          ])
        ).rows;
        return rows[0]?.status === 'under_review' && rows[0];
      },
      { what: 'closing withdrawal' },
    );
    t.match(closing, { amount: '55.00', destination: cpf, method: 'pix', status: 'under_review' }, 'the balance left, to the player');
    const queue = ok<{ data: Withdrawal[] }>(await call('payments.admin.withdrawals', { scope: adminScope, query: { status: 'under_review', limit: 100 } }));
    t.ok(
      queue.data.some((w) => w.id === closing.id),
      "in our team's review queue",
    );
    await waitFor(async () => (await sql.query('select closeout_done_at from players.players where id = $1', [player])).rows[0].closeout_done_at !== null, {
      what: 'hand-over recorded',
    });
    const closed = (await streamEvents(stack)).filter((e) => e.type === 'player.closed').map((e) => e.data);
    t.ok(
      closed.some((d) => (d as { playerId: string }).playerId === player),
      'player.closed',
    );
    await assertLedgerSound(t, stack);

    // Issue #46 item 4: the wallet closed the account too, the return due 2 days after the closing.
    const [impeded] = (await sql.query('select return_due_at from wallet.impeded_accounts where player_id = $1', [player])).rows;
    t.equal(new Date(impeded.return_due_at).toISOString(), new Date(hitAt + 5 * DAY).toISOString(), 'closing due at the hit + 3 days, the return 2 days later');
    // The return cannot be made (our team rejects the closing withdrawal): past its deadline the
    // unclaimed-funds job holds the balance for the bettor, 180 days.
    const finance = { kind: 'admin' as const, actor: 'user:finance@team.example', personId: 'usr_finance' };
    t.equal(
      ok<Withdrawal>(
        await call('payments.admin.withdrawalDecision', {
          scope: finance,
          key: key('reject'),
          params: { id: closing.id },
          body: { decision: 'reject', reason: 'the account is closing' },
        }),
      ).status,
      'rejected',
    );
    setRuleClockOffset(hitAt + 5 * DAY + 60_000 - Date.now());
    t.teardown(() => setRuleClockOffset(0));
    ok(await call('wallet.admin.unclaimed.run', { scope: adminScope }));
    const holds = ok<{ data: Array<{ amount: string; status: string }> }>(
      await call('wallet.admin.unclaimed.list', { scope: adminScope, query: { playerId: player } }),
    ).data;
    t.match(holds, [{ amount: '55.00', status: 'held' }], 'what the rejected return left is held');
    t.match(
      ok(await call('wallet.get', { scope: brand, params: { playerId: player } })),
      { available: '25.00', withdrawable: '0.00' },
      'on the wallet, only what the withdrawal inside the window still reserves',
    );
    setRuleClockOffset(0);
    await assertLedgerSound(t, stack);
  });
});
