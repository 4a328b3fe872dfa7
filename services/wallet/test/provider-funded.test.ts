// Issue #59 item 1: what a provider funds, on /provider/v1 (docs/providers.md, "Free bets, promotions
// and jackpots"): a free bet moves nothing and its round's win is FREE_BET_WIN; a promotional credit
// is PROMO_CREDIT (free rounds' winnings FREE_BET_WIN); a jackpot win is JACKPOT_WIN; a bet's jackpot
// contribution is kept on its row. Each once per provider transaction id, under concurrent copies
// too. Under br-spa an advantage before a bet is refused (BONUS_FORBIDDEN), a prize after a bet is
// taken. The real players and wallet services on real Postgres and NATS; verifyLedger after each.
import t from 'tap';
import type { Test } from 'tap';
import { randomBytes } from 'node:crypto';
import { adminScope, BR_SPA_LIMITS, gamesServicesWith, scopes, setComplianceProfile, startFakeProvider, startGamesStack } from '@bo/test-support';
import { setRuleClockOffset } from '@bo/service-kit/testing';
import { WalletConfigSchema } from '../src/config.ts';
import { walletServiceWith } from '../src/service.ts';

const services = gamesServicesWith(() => ({ service: walletServiceWith(), config: WalletConfigSchema }));
const live = scopes.production;
const txId = (label: string) => `${label}-${randomBytes(6).toString('hex')}`;
const code = (r: any) => (r.ok ? `ok:${r.status}` : r.error.code);
const DAY = 86_400_000;
const day = (days: number) => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date(Date.now() + days * DAY));

t.test('provider-funded bets and credits', async (t) => {
  setRuleClockOffset(0);
  const h = await startGamesStack(t, services);
  const fake = await startFakeProvider(t);
  const sub = h.wallet.nc.subscribe(`${h.prefix}.rpc.operators.status.get`, {
    callback: (_e, msg) => {
      msg.respond(JSON.stringify({ ok: true, status: 200, body: { status: 'active' } }));
    },
  });
  t.teardown(() => sub.unsubscribe());
  const admin = async (subject: string, params: Record<string, string>, body?: unknown) => {
    const r = await h.call(subject, adminScope, { params, ...(body === undefined ? {} : { body }) });
    if (!r.ok) throw new Error(`${subject}: ${JSON.stringify(r)}`);
    return r.body;
  };
  const provider = await admin('wallet.admin.providers.create', {}, { name: `Aggregator ${txId('p')}`, kind: 'casino', launchUrl: fake.url });
  const game = await admin('wallet.admin.providers.putGame', { id: provider.id, gameCode: 'free-slot' }, { name: 'Free Slot', category: 'slots' });
  await admin('wallet.admin.providers.setOperator', { id: provider.id, operatorId: live.operatorId }, { enabled: true });
  const pscope = { kind: 'provider' as const, providerId: provider.id, environment: 'production' as const };
  const p = (op: string, body: unknown) => h.call(`wallet.provider.${op}`, pscope, { body }) as Promise<any>;
  const available = async (playerId: string) => ((await h.call('wallet.get', live, { params: { playerId } })) as any).body.available;
  const sessionOf = async (t: Test, limits?: typeof BR_SPA_LIMITS) => {
    const player = await h.createPlayer(live, { kyc: 'aprovado', ...(limits ? { limits } : {}) });
    await h.credit(live, player, '100.00');
    await h.openSession(t, live, player, game.id);
    return { player, token: fake.requests.at(-1)!.body.token as string };
  };
  const ledgerOf = async (player: string) =>
    (
      await h.sql<{ type: string; amount: string; counter: string }>(
        `select e.type, e.amount, c.account_id as counter from wallet.ledger_entries e
           join wallet.ledger_transactions t on t.id = e.transaction_id
           join wallet.ledger_entries c on c.transaction_id = t.id and c.id <> e.id
          where e.account_id = ? and t.source like 'provider:%' order by e.account_seq`,
        [`acct:player:${live.brandId}:${player}:BRL`],
      )
    ).map((e) => `${e.type} ${e.amount} ${e.counter === `acct:provider_clearing:${live.brandId}:${provider.id}:BRL` ? 'clearing' : e.counter}`);
  const test = (name: string, fn: (t: Test) => Promise<void>) =>
    t.test(name, async (t) => {
      await fn(t);
      const v = await h.verifyLedger();
      t.same({ ok: v.ok, mismatches: v.mismatches, sum: v.sumOfAllBalances }, { ok: true, mismatches: [], sum: '0.00' }, 'verifyLedger holds');
    });

  test('a free bet moves nothing; its round wins FREE_BET_WIN; each once', async (t) => {
    const { player, token } = await sessionOf(t);
    const fb = { transactionId: txId('fb'), token, roundId: txId('round'), gameCode: 'free-slot', amount: '2.00', currency: 'BRL', rewardId: 'reward-1' };
    const first = await p('freeBet', fb);
    t.match(first, { ok: true, body: { kind: 'free_bet', moved: '0.00', balance: '100.00', replayed: false } });
    t.match(await p('freeBet', fb), { ok: true, body: { kind: 'free_bet', moved: '0.00', replayed: true } }, 'a retry answers the first answer');
    t.match(await p('freeBet', { ...fb, amount: '3.00' }), { ok: false, error: { code: 'TRANSACTION_CONFLICT', details: { differs: ['amount'] } } });
    t.equal(code(await p('freeBet', { ...fb, transactionId: txId('fb'), currency: 'USD' })), 'CURRENCY_MISMATCH');
    t.equal(
      code(await p('bet', { transactionId: txId('bet'), token, roundId: fb.roundId, gameCode: 'free-slot', amount: '1.00', currency: 'BRL' })),
      'TRANSACTION_CONFLICT',
      'a paid bet does not join a free round',
    );
    const win = { transactionId: txId('win'), playerId: player, roundId: fb.roundId, amount: '7.25', currency: 'BRL' };
    t.match(await p('win', win), { ok: true, body: { kind: 'win', moved: '7.25', balance: '107.25' } });
    t.match(await p('win', win), { ok: true, body: { replayed: true, balance: '107.25' } });
    t.same(await ledgerOf(player), ['FREE_BET_WIN 7.25 clearing'], 'the only ledger move is the free round win, against the clearing account');
    const [row] = await h.sql(
      `select provider_funded, campaign_id, moved::text, entry_id from wallet.provider_transactions where provider_id = ? and transaction_id = ?`,
      [provider.id, fb.transactionId],
    );
    t.same(row, { provider_funded: true, campaign_id: 'reward-1', moved: '0.00', entry_id: null });
    t.equal(await available(player), '107.25');
  });

  test('a free bet rolled back moves nothing and voids its round', async (t) => {
    const { player, token } = await sessionOf(t);
    const fb = { transactionId: txId('fb'), token, roundId: txId('round'), gameCode: 'free-slot', amount: '2.00', currency: 'BRL' };
    t.equal(code(await p('freeBet', fb)), 'ok:200');
    const rb = { transactionId: txId('rb'), playerId: player, roundId: fb.roundId, betTransactionId: fb.transactionId };
    t.match(await p('rollback', rb), { ok: true, body: { kind: 'rollback', moved: '0.00', balance: '100.00' } });
    t.match(await p('rollback', rb), { ok: true, body: { replayed: true } });
    const [round] = await h.sql(`select status, bets, staked::text from wallet.provider_rounds where provider_id = ? and round_id = ?`, [
      provider.id,
      fb.roundId,
    ]);
    t.same(round, { status: 'voided', bets: 0, staked: '0.00' });
    t.same(await ledgerOf(player), []);
  });

  test('promotional credits and jackpot wins, each its own ledger type; a bet carries its jackpot contribution', async (t) => {
    const { player, token } = await sessionOf(t);
    const b = {
      transactionId: txId('bet'),
      token,
      roundId: txId('round'),
      gameCode: 'free-slot',
      amount: '10.00',
      currency: 'BRL',
      jackpotContribution: '0.15',
    };
    t.equal(code(await p('bet', { ...b, transactionId: txId('bet'), jackpotContribution: '10.01' })), 'VALIDATION_ERROR', 'a contribution over the stake');
    t.match(await p('bet', b), { ok: true, body: { moved: '-10.00', balance: '90.00' } });
    const [bet] = await h.sql(`select jackpot_contribution::text from wallet.provider_transactions where provider_id = ? and transaction_id = ?`, [
      provider.id,
      b.transactionId,
    ]);
    t.same(bet, { jackpot_contribution: '0.15' });
    const promo = { transactionId: txId('promo'), playerId: player, amount: '5.00', currency: 'BRL', promotionType: 'tournament_prize', promotionId: 'tour-1' };
    t.match(await p('promoCredit', promo), { ok: true, body: { kind: 'promo_credit', moved: '5.00', balance: '95.00', replayed: false } });
    t.match(await p('promoCredit', promo), { ok: true, body: { replayed: true, balance: '95.00' } });
    t.match(await p('promoCredit', { ...promo, amount: '6.00' }), { ok: false, error: { code: 'TRANSACTION_CONFLICT' } });
    t.equal(code(await p('promoCredit', { ...promo, transactionId: txId('promo'), currency: 'USD' })), 'CURRENCY_MISMATCH');
    t.equal(code(await p('promoCredit', { ...promo, transactionId: txId('promo'), playerId: 'plr_nobody' })), 'PLAYER_NOT_FOUND');
    const freeRounds = { ...promo, transactionId: txId('promo'), promotionType: 'free_round_winnings', promotionId: 'fr-1', amount: '1.50' };
    t.match(await p('promoCredit', freeRounds), { ok: true, body: { moved: '1.50', balance: '96.50' } });
    const jackpot = { transactionId: txId('jp'), playerId: player, roundId: b.roundId, jackpotId: 'mega', amount: '250.00', currency: 'BRL' };
    t.match(await p('jackpotWin', jackpot), { ok: true, body: { kind: 'jackpot_win', moved: '250.00', balance: '346.50' } });
    t.match(await p('jackpotWin', jackpot), { ok: true, body: { replayed: true } });
    t.equal(code(await p('jackpotWin', { ...jackpot, transactionId: txId('jp'), roundId: 'no-such-round' })), 'ROUND_NOT_FOUND');
    const noRound = { transactionId: txId('jp'), playerId: player, jackpotId: 'mini', amount: '3.00', currency: 'BRL' };
    t.match(await p('jackpotWin', noRound), { ok: true, body: { roundId: 'mini', balance: '349.50' } });
    t.same(
      await ledgerOf(player),
      ['BET -10.00 clearing', 'PROMO_CREDIT 5.00 clearing', 'FREE_BET_WIN 1.50 clearing', 'JACKPOT_WIN 250.00 clearing', 'JACKPOT_WIN 3.00 clearing'],
      'each credit its own ledger type, against the clearing account',
    );
    // A win for the round still settles it (the jackpot did not).
    t.match(await p('win', { transactionId: txId('win'), playerId: player, roundId: b.roundId, amount: '0', currency: 'BRL' }), { ok: true });
  });

  test('concurrent copies of one promotional credit and one jackpot win move money once', async (t) => {
    const { player } = await sessionOf(t);
    const promo = { transactionId: txId('promo'), playerId: player, amount: '4.00', currency: 'BRL', promotionType: 'cashback', promotionId: 'cb-1' };
    const jackpot = { transactionId: txId('jp'), playerId: player, jackpotId: 'mega', amount: '9.00', currency: 'BRL' };
    const answers = await Promise.all([
      ...Array.from({ length: 6 }, () => p('promoCredit', promo)),
      ...Array.from({ length: 6 }, () => p('jackpotWin', jackpot)),
    ]);
    t.same(
      answers.map((a) => a.ok),
      Array(12).fill(true),
      'every copy answered',
    );
    t.equal(answers.filter((a) => !a.body.replayed).length, 2, 'one of each moved money');
    t.equal(await available(player), '113.00');
  });

  test("the daily regulator file's lines list what the provider funded, each its own kind", async (t) => {
    const { player, token } = await sessionOf(t);
    const paid = txId('round');
    const free = txId('round');
    t.equal(code(await p('bet', { transactionId: txId('bet'), token, roundId: paid, gameCode: 'free-slot', amount: '10.00', currency: 'BRL' })), 'ok:200');
    const fb = { transactionId: txId('fb'), token, roundId: free, gameCode: 'free-slot', amount: '2.00', currency: 'BRL', rewardId: 'reward-9' };
    t.equal(code(await p('freeBet', fb)), 'ok:200');
    t.equal(code(await p('win', { transactionId: txId('win'), playerId: player, roundId: free, amount: '7.25', currency: 'BRL' })), 'ok:200');
    const promo = { transactionId: txId('promo'), playerId: player, amount: '5.00', currency: 'BRL', promotionType: 'tournament_prize', promotionId: 'tour-9' };
    t.equal(code(await p('promoCredit', promo)), 'ok:200');
    const winnings = { ...promo, transactionId: txId('promo'), promotionType: 'free_round_winnings', promotionId: 'fr-9', amount: '1.50' };
    t.equal(code(await p('promoCredit', winnings)), 'ok:200');
    t.equal(
      code(await p('jackpotWin', { transactionId: txId('jp'), playerId: player, roundId: paid, jackpotId: 'mega', amount: '250.00', currency: 'BRL' })),
      'ok:200',
    );
    const window = { brandId: live.brandId, from: new Date(Date.now() - DAY).toISOString(), to: new Date(Date.now() + DAY).toISOString(), limit: 1000 };
    const r = (await h.call('wallet.regulator.providerMoves', { kind: 'internal', service: 'compliance' }, { body: window })) as any;
    t.equal(r.ok, true);
    const lines = r.body.data.filter((l: any) => l.playerId === player);
    t.same(
      lines.map((l: any) => [l.kind, l.moved, l.fundedStake, l.gameCode, l.roundId, l.roundKind, l.entryId === null]),
      [
        ['bet', '-10.00', null, 'free-slot', paid, 'casino', false],
        ['free_bet', '0.00', '2.00', 'free-slot', free, 'casino', true],
        ['free_bet_win', '7.25', null, 'free-slot', free, 'casino', false],
        ['promo_credit', '5.00', null, '', 'tour-9', 'casino', false],
        ['free_bet_win', '1.50', null, '', 'fr-9', 'casino', false],
        ['jackpot_win', '250.00', null, 'free-slot', paid, 'casino', false],
      ],
      "a free bet with its funded stake and no entry; its round's win and free rounds' winnings as free-bet wins; the promotional credit; the jackpot win in its round",
    );
    // Each line's kind is one ledger type: the credits are the entries' amounts.
    const types = await h.sql<{ id: string; type: string; amount: string }>(
      `select e.id, e.type, e.amount::text from wallet.ledger_entries e where e.id = any(?::text[])`,
      [lines.filter((l: any) => l.entryId).map((l: any) => l.entryId)],
    );
    const byEntry = new Map(types.map((e) => [e.id, `${e.type} ${e.amount}`]));
    t.same(
      lines.filter((l: any) => l.entryId).map((l: any) => [l.kind, byEntry.get(l.entryId)]),
      [
        ['bet', 'BET -10.00'],
        ['free_bet_win', 'FREE_BET_WIN 7.25'],
        ['promo_credit', 'PROMO_CREDIT 5.00'],
        ['free_bet_win', 'FREE_BET_WIN 1.50'],
        ['jackpot_win', 'JACKPOT_WIN 250.00'],
      ],
    );
  });

  t.test('under br-spa: an advantage before a bet is refused, a prize after a bet is taken', async (t) => {
    t.equal((await setComplianceProfile((s, sc, o) => h.call(s, sc, o), live.operatorId, 'br-spa')).ok, true, 'br-spa on');
    t.teardown(() => setComplianceProfile((s, sc, o) => h.call(s, sc, o), live.operatorId, 'off'));
    const r = await h.call('wallet.admin.providers.putCertificate', adminScope, {
      params: { id: provider.id, gameCode: 'free-slot', certificateNumber: txId('GLI') },
      body: { laboratory: 'GLI', certifiedRtp: '96.00', version: '1.0', regulatorReference: 'SPA-1', issuedOn: day(-1), validUntil: day(30) },
    });
    t.equal(code(r), 'ok:200', 'the game certified');
    const { player, token } = await sessionOf(t, BR_SPA_LIMITS);
    const fb = { transactionId: txId('fb'), token, roundId: txId('round'), gameCode: 'free-slot', amount: '2.00', currency: 'BRL' };
    t.match(await p('freeBet', fb), { ok: false, error: { code: 'BONUS_FORBIDDEN', details: { legalBasis: 'Lei 14.790/2023, art. 29, I' } } }, 'a free bet');
    const promo = { transactionId: txId('promo'), playerId: player, amount: '5.00', currency: 'BRL', promotionType: 'promo_win', promotionId: 'welcome' };
    t.equal(code(await p('promoCredit', promo)), 'BONUS_FORBIDDEN', 'a promotional credit with no bet before it');
    const jackpot = { transactionId: txId('jp'), playerId: player, jackpotId: 'mega', amount: '9.00', currency: 'BRL' };
    t.equal(code(await p('jackpotWin', jackpot)), 'BONUS_FORBIDDEN', 'a jackpot prize no bet won');
    const bet = { transactionId: txId('bet'), token, roundId: txId('round'), gameCode: 'free-slot', amount: '10.00', currency: 'BRL' };
    t.match(await p('bet', bet), { ok: true, body: { balance: '90.00' } });
    t.match(
      await p('promoCredit', { ...promo, promotionType: 'tournament_prize', promotionId: 'tour-bets' }),
      { ok: true, body: { balance: '95.00' } },
      'a tournament prize after a bet',
    );
    t.match(await p('jackpotWin', { ...jackpot, roundId: bet.roundId }), { ok: true, body: { balance: '104.00' } }, 'a jackpot its bet won');
    t.equal(
      code(await p('promoCredit', { ...promo, transactionId: txId('promo'), promotionType: 'free_round_winnings', promotionId: 'fr' })),
      'BONUS_FORBIDDEN',
      "free rounds' winnings",
    );
    t.equal(code(await p('freeBet', { ...fb, transactionId: txId('fb') })), 'BONUS_FORBIDDEN', 'a free bet after a bet too');
    const v = await h.verifyLedger();
    t.equal(v.ok, true, 'verifyLedger holds');
  });
});
