// Hub88's calls when the wallet dies between the money statement and the answer (issue #58,
// docs/connectors-hub88.md, "When we do not answer"): the wallet runs as a real child process and is
// killed at the provider calls' crash points while Hub88's call goes through the real gateway. Hub88
// hears no answer (RS_ERROR_UNKNOWN once the gateway's deadline passes) and does what its document
// says: a bet is rolled back, a win or a rollback is sent again. Each moves money once: the
// rollback refunds the committed bet once, a retried win or rollback answers the first answer.
// Killed before the bet's statement, nothing survives: the rollback moves nothing and the bet
// arriving late is refused. Every test ends with verifyLedger.
import t from 'tap';
import type { Test } from 'tap';
import { randomBytes, randomUUID } from 'node:crypto';
import { hub88AmountToMoney, signHub88, WALLET_SUBJECTS, type Hub88Answer, type OperatorScope } from '@bo/contracts';
import { BaseConfigSchema, configOf, startServiceWith } from '@bo/service-kit';
import { cleanupNatsPrefix, createTestDatabase, randomCpf, testNatsUrl, testPrefix } from '@bo/service-kit/testing';
import { caller, internalScope, LAUNCH_SECRET, ok, playersService, processGroup, startHub88Standin } from '@bo/test-support';
import { startHarness } from './support/harness.ts';

const units = (money: string) => Math.round(Number(money) * 100) * 1000;

t.test('Hub88 calls survive a wallet killed between its money statement and its answer, exactly once', async (t) => {
  const db = await createTestDatabase('hub88crash');
  const prefix = testPrefix('hub88crash');
  // A short deadline at the gateway: Hub88 hears "no answer" soon after the wallet dies.
  const h = await startHarness({ RPC_TIMEOUT_MS: '1500' }, { db, prefix });
  const players = await startServiceWith(playersService, configOf(BaseConfigSchema, { DATABASE_URL: db.url, NATS_URL: testNatsUrl(), NATS_PREFIX: prefix }));
  t.teardown(async () => {
    await players.stop();
    await h.close();
    await cleanupNatsPrefix(prefix);
    await db.drop();
  });
  const call = caller(h.operators.nc, prefix);
  const gw = h.gateways[0]!;
  const wallet = processGroup<'wallet'>(
    t,
    {
      DATABASE_URL: db.url,
      NATS_URL: testNatsUrl(),
      NATS_PREFIX: prefix,
      RPC_TIMEOUT_MS: 5000,
      GAME_LAUNCH_SECRET: LAUNCH_SECRET,
      PUBLIC_BASE_URL: gw.publicUrl,
    },
    async () => {
      const r = await call('wallet.admin.verifyLedger', { scope: { kind: 'admin', actor: 'test' }, timeoutMs: 1000 });
      return r.ok || r.error.code !== 'SERVICE_UNAVAILABLE';
    },
  );
  await wallet.start('wallet');

  const admin = async (method: string, path: string, body?: unknown) => {
    const r = await h.admin(method, path, body);
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  const op = await h.createOperator({ name: `Crash Casino ${randomBytes(3).toString('hex')}` });
  const live: OperatorScope = {
    kind: 'operator',
    operatorId: op.operator.id,
    brandId: (await op.productionClient.get('/me')).body.brand.id,
    environment: 'production',
    currency: 'BRL',
  };
  const hub88 = await startHub88Standin(t, [{ game_code: 'crash_slot', name: 'Crash Slot', category: 'slots', enabled: true }]);
  const provider = await admin('POST', '/admin/providers', { name: `Hub88 crash ${randomBytes(3).toString('hex')}`, kind: 'casino', protocol: 'hub88' });
  const P = `/admin/providers/${provider.id}/connector/production`;
  await admin('PUT', P, { settings: { operatorId: 7, apiBaseUrl: hub88.url } });
  await admin('POST', `${P}/their-keys`, { publicKey: hub88.keys.publicKeyPem });
  hub88.trust((await admin('POST', `${P}/our-keys`, {})).publicKey);
  await admin('POST', `${P}/sync-games`);
  await admin('PUT', `/admin/providers/${provider.id}/operators/${live.operatorId}`, { enabled: true });
  const game = (await admin('GET', `/admin/providers/${provider.id}/games`)).data[0];
  const base = `${gw.publicUrl}/connectors/hub88/${provider.id}/production`;

  const hub88Call = async (path: string, body: unknown): Promise<Hub88Answer> => {
    const text = JSON.stringify(body);
    const res = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hub88-signature': signHub88(text, hub88.keys.privateKey) },
      body: text,
    });
    return (await res.json()) as Hub88Answer;
  };
  const session = async (funds: string) => {
    const player = ok<{ id: string }>(
      await call('players.create', {
        scope: live,
        key: `create-${randomUUID()}`,
        body: { externalId: `ext-${randomUUID()}`, name: 'Maria Teste', email: 'maria@example.com', cpf: randomCpf(), birthDate: '1990-05-17' },
      }),
    ).id;
    ok(await call('players.admin.kycDecision', { scope: { kind: 'admin', actor: 'test' }, params: { id: player }, body: { status: 'aprovado' } }));
    ok(
      await call(WALLET_SUBJECTS.credit, {
        scope: internalScope(),
        body: { brandId: live.brandId, playerId: player, currency: 'BRL', amount: funds, depositId: `dep_${randomBytes(6).toString('hex')}` },
      }),
    );
    ok(await call('games.sessions.create', { scope: live, params: { playerId: player }, body: { gameId: game.id } }));
    return { player, token: String(hub88.gameUrlRequests.at(-1)!.body.token) };
  };
  const bet = (s: { player: string; token: string }, amount: string) => ({
    user: s.player,
    transaction_uuid: randomUUID(),
    token: s.token,
    round: randomUUID(),
    round_closed: false,
    request_uuid: randomUUID(),
    is_free: false,
    game_code: 'crash_slot',
    currency: 'BRL',
    amount: units(amount),
  });
  const rollbackOf = (s: { player: string }, b: { transaction_uuid: string; round: string }) => ({
    user: s.player,
    transaction_uuid: randomUUID(),
    round: b.round,
    request_uuid: randomUUID(),
    reference_transaction_uuid: b.transaction_uuid,
  });
  const balanceOf = async (s: { player: string; token: string }) =>
    hub88AmountToMoney((await hub88Call('/user/balance', { user: s.player, token: s.token, request_uuid: randomUUID() })).balance);
  const ledgerOf = async (transactionUuid: string) =>
    players.sql.query<{ type: string; amount: string }>(
      `select e.type, e.amount from wallet.ledger_transactions t join wallet.ledger_entries e on e.transaction_id = t.id
       where t.source = ? and e.account_seq is not null`,
      [`provider:${provider.id}:${transactionUuid}`],
    );
  const crashAt = async (t: Test, point: string, path: string, body: unknown) => {
    const victim = await wallet.start('wallet', { CRASH_AT: point });
    t.equal((await hub88Call(path, body)).status, 'RS_ERROR_UNKNOWN', 'Hub88 hears no answer');
    t.equal((await victim.exited).signal, 'SIGKILL', `the wallet died at ${point}`);
    await wallet.start('wallet');
  };
  const ledgerSound = async (t: Test) => {
    const v = ok<any>(await call('wallet.admin.verifyLedger', { scope: { kind: 'admin', actor: 'test' } }));
    t.same({ ok: v.ok, mismatches: v.mismatches, sum: v.sumOfAllBalances }, { ok: true, mismatches: [], sum: '0.00' }, 'verifyLedger holds');
  };

  t.test('killed after a bet commits: Hub88 rolls it back, the stake comes back once', async (t) => {
    const s = await session('100.00');
    const b = bet(s, '10.00');
    await crashAt(t, 'wallet.provider.bet.after-commit', '/transaction/bet', b);
    t.same(await ledgerOf(b.transaction_uuid), [{ type: 'BET', amount: '-10.00' }], 'the bet was committed before the crash');
    const rb = rollbackOf(s, b);
    const refund = await hub88Call('/transaction/rollback', rb);
    t.match(refund, { status: 'RS_OK', request_uuid: rb.request_uuid, balance: units('100.00') }, "Hub88's rollback refunds it");
    t.match(
      await hub88Call('/transaction/rollback', { ...rb, request_uuid: randomUUID() }),
      { status: 'RS_OK', balance: units('100.00') },
      'sent again: the first answer',
    );
    t.same(await ledgerOf(rb.transaction_uuid), [{ type: 'ROLLBACK', amount: '10.00' }], 'one refund');
    t.equal(await balanceOf(s), '100.00');
    await ledgerSound(t);
  });

  t.test('killed after a bet commits: the same bet sent again answers the committed one, one debit', async (t) => {
    const s = await session('50.00');
    const b = bet(s, '5.00');
    await crashAt(t, 'wallet.provider.bet.after-commit', '/transaction/bet', b);
    t.match(await hub88Call('/transaction/bet', { ...b, request_uuid: randomUUID() }), { status: 'RS_OK', balance: units('45.00') });
    t.same(await ledgerOf(b.transaction_uuid), [{ type: 'BET', amount: '-5.00' }], 'one debit');
    await ledgerSound(t);
  });

  t.test('killed before the bet statement: the rollback moves nothing, the late bet is refused', async (t) => {
    const s = await session('30.00');
    const b = bet(s, '3.00');
    await crashAt(t, 'wallet.provider.bet.before-post', '/transaction/bet', b);
    t.same(await ledgerOf(b.transaction_uuid), [], 'nothing recorded');
    t.match(await hub88Call('/transaction/rollback', rollbackOf(s, b)), { status: 'RS_OK', balance: units('30.00') }, 'a rollback of nothing: RS_OK');
    t.equal((await hub88Call('/transaction/bet', { ...b, request_uuid: randomUUID() })).status, 'RS_ERROR_DUPLICATE_TRANSACTION', 'the bet arriving late');
    t.equal(await balanceOf(s), '30.00');
    await ledgerSound(t);
  });

  t.test('killed after a win commits: the win sent again answers the first, one credit', async (t) => {
    const s = await session('20.00');
    const b = bet(s, '2.00');
    t.equal((await hub88Call('/transaction/bet', b)).status, 'RS_OK');
    const w = { ...bet(s, '6.00'), reference_transaction_uuid: b.transaction_uuid, round: b.round, round_closed: true };
    await crashAt(t, 'wallet.provider.win.after-commit', '/transaction/win', w);
    t.match(await hub88Call('/transaction/win', { ...w, request_uuid: randomUUID() }), { status: 'RS_OK', balance: units('24.00') });
    t.same(await ledgerOf(w.transaction_uuid), [{ type: 'WIN', amount: '6.00' }], 'one credit');
    await ledgerSound(t);
  });

  t.test('killed after a rollback commits: the rollback sent again answers the first, one refund', async (t) => {
    const s = await session('40.00');
    const b = bet(s, '7.50');
    t.equal((await hub88Call('/transaction/bet', b)).status, 'RS_OK');
    const rb = rollbackOf(s, b);
    await crashAt(t, 'wallet.provider.rollback.after-commit', '/transaction/rollback', rb);
    t.match(await hub88Call('/transaction/rollback', { ...rb, request_uuid: randomUUID() }), { status: 'RS_OK', balance: units('40.00') });
    t.same(await ledgerOf(rb.transaction_uuid), [{ type: 'ROLLBACK', amount: '7.50' }], 'one refund');
    t.equal(await balanceOf(s), '40.00');
    await ledgerSound(t);
  });
});
