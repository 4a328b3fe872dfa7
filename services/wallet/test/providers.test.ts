// The provider wallet API in the wallet (docs/providers.md), against real Postgres and NATS with
// the real players service: a provider registered by our team, a session launched through it,
// then bets, wins, rollbacks and corrections as a provider's server sends them, with retries,
// conflicts, refusals and concurrent copies. The operators service is a NATS responder here (its
// status is all the wallet asks); the e2e suite runs the whole stack. Every test ends with
// verifyLedger, which checks each provider transaction against its ledger transaction.
import t from 'tap';
import type { Test } from 'tap';
import { randomBytes } from 'node:crypto';
import { adminScope, gamesServicesWith, scopes, startFakeProvider, startGamesStack, type GamesStack } from '@bo/test-support';
import { WalletConfigSchema } from '../src/config.ts';
import { walletServiceWith } from '../src/service.ts';

const services = gamesServicesWith(() => ({ service: walletServiceWith(), config: WalletConfigSchema }));
const live = scopes.production;
const txId = (label = 'tx') => `${label}-${randomBytes(6).toString('hex')}`;
const code = (r: any) => (r.ok ? `ok:${r.status}` : r.error.code);

async function assertLedgerSound(t: Test, h: GamesStack): Promise<void> {
  const v = await h.verifyLedger();
  t.same({ ok: v.ok, mismatches: v.mismatches, sum: v.sumOfAllBalances }, { ok: true, mismatches: [], sum: '0.00' }, 'verifyLedger holds');
}

t.test('the provider wallet API', async (t) => {
  const h = await startGamesStack(t, services);
  const fake = await startFakeProvider(t);
  // The operators service's answer to the wallet's status question.
  let operatorStatus: 'active' | 'suspended' = 'active';
  const sub = h.wallet.nc.subscribe(`${h.prefix}.rpc.operators.status.get`, {
    callback: (_e, msg) => {
      msg.respond(JSON.stringify({ ok: true, status: 200, body: { status: operatorStatus } }));
    },
  });
  t.teardown(() => sub.unsubscribe());

  const admin = async (subject: string, params: Record<string, string>, body?: unknown) => {
    const r = await h.call(subject, adminScope, { params, ...(body === undefined ? {} : { body }) });
    if (!r.ok) throw new Error(`${subject}: ${JSON.stringify(r)}`);
    return r.body;
  };
  const provider = await admin('wallet.admin.providers.create', {}, { name: `Aggregator ${txId()}`, kind: 'casino', launchUrl: fake.url });
  t.match(provider, { id: /^prv_/, kind: 'casino', status: 'enabled', operatorIds: [] });
  const game = await admin('wallet.admin.providers.putGame', { id: provider.id, gameCode: 'sweet-fruits' }, { name: 'Sweet Fruits', category: 'slots' });
  t.match(game, { id: /^gm_p_/, gameCode: 'sweet-fruits', enabled: true });
  const pscope = { kind: 'provider' as const, providerId: provider.id, environment: 'production' as const };
  const p = (op: string, body: unknown) => h.call(`wallet.provider.${op}`, pscope, { body });

  t.test('the catalogue offers a provider game only to the operators it is enabled for', async (t) => {
    const listed = async () => ((await h.call('games.list', live)) as any).body.data.map((g: any) => g.id);
    t.notOk((await listed()).includes(game.id), 'not offered before the operator is enabled');
    const player = await h.createPlayer(live, { kyc: 'aprovado' });
    const refused = await h.call('games.sessions.create', live, { params: { playerId: player }, body: { gameId: game.id } });
    t.equal(code(refused), 'GAME_NOT_FOUND', 'nor launched');
    await admin('wallet.admin.providers.setOperator', { id: provider.id, operatorId: live.operatorId }, { enabled: true });
    t.ok((await listed()).includes(game.id), 'offered once enabled');
  });

  /** A funded player with a session of the provider's game; the token the provider got at launch. */
  const sessionOf = async (t: Test, funds = '100.00') => {
    const player = await h.createPlayer(live, { kyc: 'aprovado' });
    if (funds !== '0.00') await h.credit(live, player, funds);
    await h.openSession(t, live, player, game.id);
    const launch = fake.requests.at(-1)!;
    t.match(launch.body, { playerId: player, gameCode: 'sweet-fruits', token: /^pst_/ }, 'the launch carried our session token');
    return { player, token: launch.body.token as string };
  };
  const bet = (token: string, over: Record<string, unknown> = {}) => ({
    transactionId: txId('bet'),
    token,
    roundId: txId('round'),
    gameCode: 'sweet-fruits',
    amount: '10.00',
    currency: 'BRL',
    ...over,
  });
  const test = (name: string, fn: (t: Test) => Promise<void>) =>
    t.test(name, async (t) => {
      await fn(t);
      await assertLedgerSound(t, h);
    });

  test('authenticate and balance', async (t) => {
    const { player, token } = await sessionOf(t);
    t.match((await p('authenticate', { token })) as any, {
      ok: true,
      body: { playerId: player, brandId: live.brandId, currency: 'BRL', balance: '100.00', gameCode: 'sweet-fruits' },
    });
    t.equal(code(await p('authenticate', { token: 'pst_forged' })), 'SESSION_TOKEN_INVALID');
    await h.sql(`update wallet.provider_sessions set created_at = now() - interval '2 hours', expires_at = now() - interval '1 hour' where player_id = ?`, [
      player,
    ]);
    t.equal(code(await p('authenticate', { token })), 'SESSION_TOKEN_EXPIRED', 'authenticate wants a live session');
    t.match((await p('balance', { token })) as any, { ok: true, body: { balance: '100.00' } }, 'the balance reads with an expired token');
  });

  test('a bet and its win, each once: the same id answers the first answer, another call under it is a conflict', async (t) => {
    const { player, token } = await sessionOf(t);
    const b = bet(token);
    const first = (await p('bet', b)) as any;
    if (!first.ok) t.fail(JSON.stringify(first));
    t.match(first.body, { transactionId: b.transactionId, kind: 'bet', playerId: player, moved: '-10.00', balance: '90.00', replayed: false });
    const again = (await p('bet', b)) as any;
    t.same({ ...again.body, replayed: false }, first.body, 'a retry answers the first answer');
    t.equal(again.body.replayed, true);
    t.match((await p('bet', { ...b, amount: '11.00' })) as any, { ok: false, error: { code: 'TRANSACTION_CONFLICT', details: { differs: ['amount'] } } });
    const w = { transactionId: txId('win'), playerId: player, roundId: b.roundId, amount: '25.50', currency: 'BRL', roundClosed: true };
    t.match(((await p('win', w)) as any).body, { kind: 'win', moved: '25.50', balance: '115.50', replayed: false });
    t.match(((await p('win', w)) as any).body, { balance: '115.50', replayed: true });
    t.equal(code(await p('win', { ...w, transactionId: txId('win') })), 'ROUND_CLOSED', 'a closed round takes no more wins');
    t.equal(code(await p('bet', bet(token, { roundId: b.roundId }))), 'ROUND_CLOSED', 'nor bets');
    const entries = await h.sql<{ type: string; amount: string; source: string }>(
      `select e.type, e.amount, t.source from wallet.ledger_entries e join wallet.ledger_transactions t on t.id = e.transaction_id
       where e.account_id = ? and t.source like 'provider:%' order by e.account_seq`,
      [`acct:player:${live.brandId}:${player}:BRL`],
    );
    t.same(
      entries.map((e) => `${e.type} ${e.amount} ${e.source}`),
      [`BET -10.00 provider:${provider.id}:${b.transactionId}`, `WIN 25.50 provider:${provider.id}:${w.transactionId}`],
      'one ledger transaction each, sourced by provider and transaction id',
    );
    const [round] = await h.sql(`select status, bets, wins, staked, won from wallet.provider_rounds where provider_id = ? and round_id = ?`, [
      provider.id,
      b.roundId,
    ]);
    t.same(round, { status: 'settled', bets: 1, wins: 1, staked: '10.00', won: '25.50' });
  });

  test('a lost round settles with a win of 0.00; a win names its own player and round', async (t) => {
    const { player, token } = await sessionOf(t);
    const other = await sessionOf(t);
    const b = bet(token);
    await p('bet', b);
    t.equal(code(await p('win', { transactionId: txId(), playerId: other.player, roundId: b.roundId, amount: '5.00', currency: 'BRL' })), 'ROUND_NOT_FOUND');
    t.equal(code(await p('win', { transactionId: txId(), playerId: player, roundId: 'no-such-round', amount: '5.00', currency: 'BRL' })), 'ROUND_NOT_FOUND');
    t.equal(code(await p('win', { transactionId: txId(), playerId: player, roundId: b.roundId, amount: '5.00', currency: 'USD' })), 'CURRENCY_MISMATCH');
    t.match(((await p('win', { transactionId: txId(), playerId: player, roundId: b.roundId, amount: '0', currency: 'BRL' })) as any).body, {
      moved: '0.00',
      balance: '90.00',
    });
  });

  test('not enough money: refused with the balance, nothing moved', async (t) => {
    const { token } = await sessionOf(t, '5.00');
    t.match((await p('bet', bet(token))) as any, { ok: false, error: { code: 'INSUFFICIENT_FUNDS', details: { balance: '5.00' } } });
    t.equal((await h.sql(`select count(*)::int as n from wallet.provider_transactions where provider_id = ? and balance_after = 5`, [provider.id]))[0].n, 0);
  });

  test('a rollback refunds its bet once; a settled bet is not rolled back', async (t) => {
    const { player, token } = await sessionOf(t);
    const b = bet(token);
    await p('bet', b);
    const r = { transactionId: txId('rb'), playerId: player, betTransactionId: b.transactionId, roundId: b.roundId };
    t.match(((await p('rollback', r)) as any).body, { kind: 'rollback', moved: '10.00', balance: '100.00' });
    t.match(((await p('rollback', r)) as any).body, { moved: '10.00', balance: '100.00', replayed: true }, 'its retry: the first answer');
    t.match(
      ((await p('rollback', { ...r, transactionId: txId('rb') })) as any).body,
      { moved: '0.00', balance: '100.00' },
      'another rollback id: nothing moves again',
    );
    const [round] = await h.sql(`select status, bets, staked from wallet.provider_rounds where provider_id = ? and round_id = ?`, [provider.id, b.roundId]);
    t.same(round, { status: 'voided', bets: 0, staked: '0.00' }, 'a round whose bets are all rolled back is voided');

    const settled = bet(token);
    await p('bet', settled);
    await p('win', { transactionId: txId('win'), playerId: player, roundId: settled.roundId, amount: '3.00', currency: 'BRL', roundClosed: false });
    t.equal(
      code(await p('rollback', { transactionId: txId('rb'), playerId: player, betTransactionId: settled.transactionId, roundId: settled.roundId })),
      'BET_ALREADY_SETTLED',
    );
  });

  test('a win on a round still open: its retry answers the first answer, another amount under its id is a conflict; one credit', async (t) => {
    const { player, token } = await sessionOf(t);
    const b = bet(token);
    await p('bet', b);
    const w = { transactionId: txId('win'), playerId: player, roundId: b.roundId, amount: '4.00', currency: 'BRL', roundClosed: false };
    const first = ((await p('win', w)) as any).body;
    t.match(first, { kind: 'win', moved: '4.00', balance: '94.00', replayed: false });
    // The round is still open, so the retry's statement is tried and writes nothing under the taken id: the first answer.
    t.same(((await p('win', w)) as any).body, { ...first, replayed: true }, 'the retry: the first answer');
    t.match((await p('win', { ...w, amount: '5.00' })) as any, { ok: false, error: { code: 'TRANSACTION_CONFLICT', details: { differs: ['amount'] } } });
    t.match((await p('win', { ...w, amount: '0.00' })) as any, { ok: false, error: { code: 'TRANSACTION_CONFLICT' } }, 'a zero win under a taken id too');
    const [credits] = await h.sql<{ n: number }>(`select count(*)::int as n from wallet.ledger_transactions where source = ?`, [
      `provider:${provider.id}:${w.transactionId}`,
    ]);
    t.equal(credits!.n, 1, 'one ledger transaction for the win');
    t.match(((await p('balance', { token })) as any).body, { balance: '94.00' }, 'credited once');
  });

  test('a rollback of a bet never received is recorded as done; the bet arriving later is refused', async (t) => {
    const { player, token } = await sessionOf(t);
    const b = bet(token);
    const r = { transactionId: txId('rb'), playerId: player, betTransactionId: b.transactionId, roundId: b.roundId };
    t.match(((await p('rollback', r)) as any).body, { kind: 'rollback', moved: '0.00', balance: '100.00' });
    t.match((await p('bet', b)) as any, { ok: false, error: { code: 'BET_ROLLED_BACK' } });
    t.match(((await p('authenticate', { token })) as any).body, { balance: '100.00' }, 'nothing was debited');
  });

  test('bets are refused, moving nothing, for each standing that forbids them; wins still settle', async (t) => {
    const { player, token } = await sessionOf(t);
    const open = bet(token);
    await p('bet', open);
    t.equal(code(await p('bet', bet(token, { currency: 'USD' }))), 'CURRENCY_MISMATCH');
    t.equal(code(await p('bet', bet(token, { gameCode: 'no-such-game' }))), 'GAME_NOT_FOUND');

    await admin('wallet.admin.providers.putGame', { id: provider.id, gameCode: 'sweet-fruits' }, { name: 'Sweet Fruits', category: 'slots', enabled: false });
    t.equal(code(await p('bet', bet(token))), 'GAME_DISABLED');
    await admin('wallet.admin.providers.putGame', { id: provider.id, gameCode: 'sweet-fruits' }, { name: 'Sweet Fruits', category: 'slots', enabled: true });

    await admin('wallet.admin.providers.update', { id: provider.id }, { status: 'disabled' });
    t.equal(code(await p('bet', bet(token))), 'PROVIDER_DISABLED');
    // The session took bets before (the wallet keeps it and its bet's statement checks the standing):
    // the session's refusal still comes before the money's.
    t.equal(code(await p('bet', bet(token, { amount: '100000.00' }))), 'PROVIDER_DISABLED', 'the standing before the money');
    t.equal(
      code(await p('win', { transactionId: txId('win'), playerId: player, roundId: open.roundId, amount: '1.00', currency: 'BRL', roundClosed: false })),
      'ok:200',
      'a disabled provider still settles',
    );
    await admin('wallet.admin.providers.update', { id: provider.id }, { status: 'enabled' });

    await admin('wallet.admin.providers.setOperator', { id: provider.id, operatorId: live.operatorId }, { enabled: false });
    t.equal(code(await p('bet', bet(token))), 'PROVIDER_NOT_ENABLED');
    await admin('wallet.admin.providers.setOperator', { id: provider.id, operatorId: live.operatorId }, { enabled: true });

    // As the operators service does on a change: broadcast it (the wallet drops its cached status).
    const setOperatorStatus = async (status: 'active' | 'suspended') => {
      operatorStatus = status;
      h.wallet.nc.publish(`${h.prefix}.gateway.invalidate`, JSON.stringify({ operatorId: live.operatorId }));
      await h.wallet.nc.flush();
    };
    await setOperatorStatus('suspended');
    t.equal(code(await p('bet', bet(token))), 'OPERATOR_SUSPENDED');
    t.equal(
      code(await p('win', { transactionId: txId('win'), playerId: player, roundId: open.roundId, amount: '1.00', currency: 'BRL' })),
      'ok:200',
      'a suspended operator still pays',
    );
    await setOperatorStatus('active');

    const excluded = await sessionOf(t);
    await h.call('players.admin.limits', adminScope, {
      params: { id: excluded.player },
      body: { dailyDepositLimit: null, selfExcludedUntil: new Date(Date.now() + 86_400_000).toISOString() },
    });
    t.match((await p('bet', bet(excluded.token))) as any, { ok: false, error: { code: 'RG_BLOCKED', details: { reason: 'self_excluded' } } });

    await h.sql(`update wallet.provider_sessions set created_at = now() - interval '2 hours', expires_at = now() - interval '1 hour' where player_id = ?`, [
      player,
    ]);
    t.equal(code(await p('bet', bet(token))), 'SESSION_TOKEN_EXPIRED');
    t.equal(code(await p('bet', bet('pst_forged'))), 'SESSION_TOKEN_INVALID');
    t.match(((await p('balance', { token })) as any).body, { balance: '92.00' }, 'only the first bet and the two wins moved money');
  });

  test('a correction of a settled bet: a credit, and a debit taken up to the balance', async (t) => {
    const { player, token } = await sessionOf(t, '20.00');
    const b = bet(token);
    await p('bet', b);
    t.equal(
      code(await p('correction', { transactionId: txId('c'), playerId: player, roundId: b.roundId, amount: '5.00', currency: 'BRL', reason: 'x' })),
      'ROUND_NOT_SETTLED',
    );
    await p('win', { transactionId: txId('win'), playerId: player, roundId: b.roundId, amount: '30.00', currency: 'BRL' });
    t.match(
      ((await p('correction', { transactionId: txId('c'), playerId: player, roundId: b.roundId, amount: '2.50', currency: 'BRL', reason: 'resettled' })) as any)
        .body,
      {
        kind: 'correction',
        moved: '2.50',
        balance: '42.50',
      },
    );
    const debit = { transactionId: txId('c'), playerId: player, roundId: b.roundId, amount: '-50.00', currency: 'BRL', reason: 'resettled as lost' };
    t.match(((await p('correction', debit)) as any).body, { moved: '-42.50', balance: '0.00' }, 'taken up to the balance');
    const [row] = await h.sql(`select requested, moved from wallet.provider_transactions where provider_id = ? and transaction_id = ?`, [
      provider.id,
      debit.transactionId,
    ]);
    t.same(row, { requested: '-50.00', moved: '-42.50' }, 'the rest (7.50) is kept as what was asked and not taken');
  });

  test("a player's debt to the provider: a correction's shortfall, repaid by the next credits first", async (t) => {
    const { player, token } = await sessionOf(t, '10.00');
    const debtOf = async () => ((await admin('wallet.admin.providers.debts', { id: provider.id })) as any).data.filter((d: any) => d.playerId === player);
    const settledRound = async (stake: string, won: string) => {
      const b = bet(token, { amount: stake });
      t.equal(((await p('bet', b)) as any).ok, true);
      t.equal(((await p('win', { transactionId: txId('win'), playerId: player, roundId: b.roundId, amount: won, currency: 'BRL' })) as any).ok, true);
      return b.roundId;
    };
    const round = await settledRound('10.00', '0.00');
    // The balance is 0.00: the whole debit is the debt (a move of no money records it).
    const c1 = { transactionId: txId('c'), playerId: player, roundId: round, amount: '-4.00', currency: 'BRL', reason: 'resettled' };
    t.match(((await p('correction', c1)) as any).body, { moved: '0.00', balance: '0.00' });
    t.same(
      (await debtOf()).map((d: any) => [d.owed, d.incurred, d.repaid]),
      [['4.00', '4.00', '0.00']],
      'listed for our team',
    );
    const [named] = await h.sql<{ name: string; external_id: string }>('select name, external_id from players.players where id = ?', [player]);
    t.match((await debtOf())[0], { playerName: named!.name, externalId: named!.external_id }, 'by the player’s name (issue #61)');
    await h.credit(live, player, '6.00');
    const c2 = { transactionId: txId('c'), playerId: player, roundId: round, amount: '-9.50', currency: 'BRL', reason: 'resettled again' };
    t.match(((await p('correction', c2)) as any).body, { moved: '-6.00', balance: '0.00' }, 'taken up to the balance');
    t.same(
      (await debtOf()).map((d: any) => d.owed),
      ['7.50'],
      'the shortfalls add up',
    );

    // Two wins at once, 5.00 each, with 7.50 owed: 7.50 repaid in all, never more.
    await h.credit(live, player, '2.00');
    const b = bet(token, { amount: '2.00' });
    await p('bet', b);
    const b2 = bet(token, { amount: '0.01' });
    await h.credit(live, player, '0.01');
    await p('bet', b2);
    const w1 = { transactionId: txId('win'), playerId: player, roundId: b.roundId, amount: '5.00', currency: 'BRL' };
    const w2 = { transactionId: txId('win'), playerId: player, roundId: b2.roundId, amount: '5.00', currency: 'BRL' };
    const [a1, a2] = (await Promise.all([p('win', w1), p('win', w2)])) as any[];
    t.equal(a1.ok && a2.ok, true, 'both wins paid');
    t.same([a1.body.moved, a2.body.moved], ['5.00', '5.00'], 'each moved its whole win');
    t.same([a1.body.repaid, a2.body.repaid].sort(), ['2.50', '5.00'], 'the first to commit repaid 5.00, the second the 2.50 left');
    t.same(
      (await debtOf()).map((d: any) => d.owed),
      [],
      'nothing owed any more',
    );
    t.match(((await p('balance', { token })) as any).body, { balance: '2.50' }, '10.00 won less 7.50 repaid');
    const again = (await p('win', w1)) as any;
    t.same({ ...again.body, replayed: false }, a1.body, 'a retry answers the first answer, with what it repaid');
    const entries = await h.sql<{ type: string; amount: string; source: string }>(
      `select e.type, e.amount, t.source from wallet.ledger_entries e join wallet.ledger_transactions t on t.id = e.transaction_id
       where e.account_id = ? and t.source like ? order by e.account_seq`,
      [`acct:player:${live.brandId}:${player}:BRL`, `provider:${provider.id}:${w1.transactionId}%`],
    );
    t.same(
      entries.map((e) => `${e.type} ${e.amount} ${e.source.slice(`provider:${provider.id}:`.length)}`),
      [`WIN 5.00 ${w1.transactionId}`, `CORRECTION -${a1.body.repaid} ${w1.transactionId} repayment`],
      'the repayment is a ledger transaction of its own, in the credit statement',
    );
    // The ledger's verification holds the debts to the transactions: a debt written by hand is found.
    await h.sql('update wallet.provider_debts set owed = owed + 1, incurred = incurred + 1 where player_id = ?', [player]);
    const verified = (await h.call('wallet.admin.verifyLedger', adminScope)) as any;
    t.match(
      verified.body.mismatches,
      [{ check: `providerDebt:${provider.id}`, stored: '1.00', computed: '0.00' }],
      'a debt that is not the transactions is a mismatch',
    );
    await h.sql('update wallet.provider_debts set owed = owed - 1, incurred = incurred - 1 where player_id = ?', [player]);
  });

  test("a key of one environment reaches nothing of the other's", async (t) => {
    const { player, token } = await sessionOf(t);
    const b = bet(token);
    await p('bet', b);
    const sandbox = { ...pscope, environment: 'sandbox' as const };
    const s = (op: string, body: unknown) => h.call(`wallet.provider.${op}`, sandbox, { body });
    t.equal(code(await s('authenticate', { token })), 'SESSION_TOKEN_INVALID', 'a production session is unknown to the sandbox key');
    t.equal(code(await s('bet', bet(token))), 'SESSION_TOKEN_INVALID');
    t.equal(code(await s('win', { transactionId: txId('win'), playerId: player, roundId: b.roundId, amount: '5.00', currency: 'BRL' })), 'ROUND_NOT_FOUND');
    t.equal(
      code(await s('rollback', { transactionId: txId('rb'), playerId: player, betTransactionId: b.transactionId, roundId: b.roundId })),
      'ROUND_NOT_FOUND',
    );
    t.equal(
      code(await s('rollback', { transactionId: txId('rb'), playerId: player, betTransactionId: txId('unseen'), roundId: b.roundId })),
      'ROUND_NOT_FOUND',
      'nor may it cancel an unseen bet of a production player',
    );
    t.match((await s('bet', { ...b })) as any, { ok: false }, 'a production id sent with the sandbox key moves nothing');
    t.match(((await p('balance', { token })) as any).body, { balance: '90.00' });
  });

  test('concurrent copies of one bet debit once; concurrent bets never take more than the balance', async (t) => {
    const { token } = await sessionOf(t, '50.00');
    const b = bet(token);
    const copies = await Promise.all(Array.from({ length: 12 }, () => p('bet', b)));
    t.same(new Set(copies.map((c: any) => `${code(c)} ${c.body?.balance}`)), new Set(['ok:200 40.00']), 'every copy answers the one debit');
    t.equal(copies.filter((c: any) => c.body.replayed === false).length, 1, 'one copy did it');
    const many = await Promise.all(Array.from({ length: 10 }, () => p('bet', bet(token))));
    t.equal(many.filter((c: any) => c.ok).length, 4, 'four more bets of 10.00 fit in 40.00');
    t.ok(many.filter((c: any) => !c.ok).every((c: any) => c.error.code === 'INSUFFICIENT_FUNDS'));
    t.match(((await p('balance', { token })) as any).body, { balance: '0.00' });
  });

  test("concurrent copies of one win (its round's facts kept from its bet) credit once and answer alike, a connector's too", async (t) => {
    const { player, token } = await sessionOf(t, '50.00');
    const cases = [
      { via: 'wallet.provider.win', amount: '7.50' },
      { via: 'wallet.provider.win', amount: '0.00' },
      { via: 'wallet.connector.win', amount: '7.50' },
      { via: 'wallet.connector.win', amount: '0.00' },
    ];
    let balance = 50;
    for (const c of cases) {
      const b = bet(token, { amount: '1.00' });
      t.equal(((await p('bet', b)) as any).ok, true);
      balance -= 1;
      const w = {
        transactionId: txId('win'),
        playerId: player,
        roundId: b.roundId,
        amount: c.amount,
        currency: 'BRL',
        ...(c.via === 'wallet.connector.win' ? { betTransactionId: b.transactionId } : {}),
      };
      const copies = (await Promise.all(Array.from({ length: 12 }, () => h.call(c.via, pscope, { body: w })))) as any[];
      balance += Number(c.amount);
      t.same(
        new Set(copies.map((a) => `${code(a)} ${a.body?.balance}`)),
        new Set([`ok:200 ${balance.toFixed(2)}`]),
        `${c.via} ${c.amount}: every copy answers the one credit`,
      );
      t.equal(copies.filter((a) => a.body?.replayed === false).length, 1, `${c.via} ${c.amount}: one copy did it`);
    }
  });

  test('twenty copies of one rollback at once, of the first bet of a round of two: each answered as the first, refunded once (issue #66 item 7)', async (t) => {
    // The race: a copy that waited for the player's row lock read the id as free (its statement's
    // snapshot), and took the stake off the round's row (re-read under its lock) a second time
    // before its insert met the id taken: staked below zero, `provider_rounds_staked_check`, a 500.
    // Ten rounds, each first bet larger than the second, so a second decrement goes below zero.
    const { player, token } = await sessionOf(t, '200.00');
    const odd: string[] = [];
    const rollbackIds: string[] = [];
    for (let i = 0; i < 10; i++) {
      const first = bet(token, { amount: '10.00' });
      const second = bet(token, { amount: '5.00', roundId: first.roundId });
      await p('bet', first);
      await p('bet', second);
      const rb = { transactionId: txId('rb'), playerId: player, betTransactionId: first.transactionId, roundId: first.roundId };
      rollbackIds.push(rb.transactionId);
      const copies = (await Promise.all(Array.from({ length: 20 }, () => p('rollback', rb)))) as any[];
      const applied = copies.filter((c) => c.ok && c.body.replayed === false);
      if (applied.length !== 1) odd.push(`round ${i + 1}: ${applied.length} copies applied`);
      for (const c of copies) {
        if (!c.ok) odd.push(`round ${i + 1}: ${c.error.code}`);
        else if (JSON.stringify({ ...c.body, replayed: false }) !== JSON.stringify(applied[0]?.body)) odd.push(`round ${i + 1}: ${JSON.stringify(c.body)}`);
      }
      const [round] = await h.sql(`select status, bets, staked from wallet.provider_rounds where provider_id = ? and round_id = ?`, [
        provider.id,
        first.roundId,
      ]);
      if (JSON.stringify(round) !== JSON.stringify({ status: 'open', bets: 1, staked: '5.00' })) odd.push(`round ${i + 1}: ${JSON.stringify(round)}`);
    }
    t.same(odd, [], 'in each round one copy applied, every copy answered its answer (never a 500), the first bet left the round once');
    t.match(((await p('balance', { token })) as any).body, { balance: '150.00' }, '200.00 − 10 × 5.00: each first bet refunded once');
    const ledger = await h.sql<{ n: number }>(`select count(*)::int as n from wallet.ledger_transactions where source = any(?::text[]) and type = 'ROLLBACK'`, [
      rollbackIds.map((id) => `provider:${provider.id}:${id}`),
    ]);
    t.same(ledger, [{ n: 10 }], 'one ledger refund per rollback');
    const [usage] = await h.sql<{ wagered: string }>(`select sum(wagered)::text as wagered from wallet.rg_usage where account_id = ?`, [
      `acct:player:${live.brandId}:${player}:BRL`,
    ]);
    t.equal(usage!.wagered, '50.00', "the player's usage counts each refunded stake out once (10 × 5.00 wagered)");
  });

  test('every amount answered has two decimals, whatever form the call wrote it in (issue #66 item 8)', async (t) => {
    const { player, token } = await sessionOf(t);
    const money = /^-?\d+\.\d{2}$/;
    /** Each amount of an answer (moved, balance, repaid, …) that is not in our money's form. */
    const odd = (body: any) => Object.entries(body ?? {}).filter(([k, v]) => ['moved', 'balance', 'repaid', 'netResult'].includes(k) && !money.test(String(v)));
    const b = bet(token, { amount: '0.5' });
    const first = (await p('bet', b)) as any;
    t.match(first.body, { moved: '-0.50', balance: '99.50' }, 'a bet of "0.5" moved -0.50');
    const again = (await p('bet', b)) as any;
    t.same({ ...again.body, replayed: false }, first.body, 'its replay is the same answer');
    const b2 = bet(token, { amount: '1.1', roundId: b.roundId });
    t.match(((await p('bet', b2)) as any).body, { moved: '-1.10' });
    const rb = (await p('rollback', { transactionId: txId('rb'), playerId: player, betTransactionId: b2.transactionId, roundId: b.roundId })) as any;
    t.match(rb.body, { moved: '1.10', balance: '99.50' });
    const w = (await p('win', { transactionId: txId('win'), playerId: player, roundId: b.roundId, amount: '2.5', currency: 'BRL' })) as any;
    t.match(w.body, { moved: '2.50', balance: '102.00' });
    const c = (await p('correction', {
      transactionId: txId('cor'),
      playerId: player,
      roundId: b.roundId,
      amount: '-0.5',
      currency: 'BRL',
      reason: 'r',
    })) as any;
    t.match(c.body, { moved: '-0.50', balance: '101.50' });
    const reads = [first, again, rb, w, c, await p('balance', { token }), await p('authenticate', { token }), await p('refreshSession', { token })] as any[];
    t.same(
      reads.flatMap((r) => odd(r.body)),
      [],
      'every amount of every answer has two decimals',
    );
  });

  test('a win and a rollback of the same bet at once: exactly one of them applies', async (t) => {
    const { player, token } = await sessionOf(t, '10.00');
    const b = bet(token);
    await p('bet', b);
    const [win, rollback] = await Promise.all([
      p('win', { transactionId: txId('win'), playerId: player, roundId: b.roundId, amount: '20.00', currency: 'BRL' }),
      p('rollback', { transactionId: txId('rb'), playerId: player, betTransactionId: b.transactionId, roundId: b.roundId }),
    ]);
    const outcome = [code(win), code(rollback)].sort().join(' ');
    t.ok(['BET_ALREADY_SETTLED ok:200', 'ROUND_CLOSED ok:200'].includes(outcome), `one applied, the other refused (${outcome})`);
    const balance = ((await p('balance', { token })) as any).body.balance;
    t.ok(balance === '20.00' || balance === '10.00', `the balance is the win's or the refund's (${balance})`);
  });

  test('rounds left open past the provider limit are listed for our team', async (t) => {
    const { token } = await sessionOf(t);
    const b = bet(token);
    await p('bet', b);
    await h.sql(`update wallet.provider_rounds set opened_at = now() - interval '2 hours' where provider_id = ? and round_id = ?`, [provider.id, b.roundId]);
    const open = await admin('wallet.admin.providers.openRounds', { id: provider.id });
    const [named] = await h.sql<{ name: string }>(
      'select p.name from players.players p join wallet.provider_rounds r on r.player_id = p.id where r.round_id = ?',
      [b.roundId],
    );
    t.match(
      open.data.find((r: any) => r.roundId === b.roundId),
      { gameCode: 'sweet-fruits', staked: '10.00', playerName: named!.name },
      'with the player’s name (issue #61)',
    );
  });
});
