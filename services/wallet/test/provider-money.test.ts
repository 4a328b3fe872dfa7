// Issue #59 items 2 and 3 on real Postgres and NATS with the real players and wallet services:
// - what the brand owes a provider: a simulated month of every kind of provider money, the revenue
//   share with its history, the month statement in JSON and CSV, its figures to the cent, tied to
//   the brand's clearing account with the provider (its balance in the ledger);
// - reconciliation: the provider reads its transactions by id, round and time range (paged); a daily
//   statement (CSV, cents, unsigned) with planted differences is ingested and exactly those are found.
import t from 'tap';
import type { Test } from 'tap';
import { randomBytes } from 'node:crypto';
import { adminScope, gamesServicesWith, scopes, startFakeProvider, startGamesStack } from '@bo/test-support';
import { setRuleClockOffset } from '@bo/service-kit/testing';
import { WalletConfigSchema } from '../src/config.ts';
import { walletServiceWith } from '../src/service.ts';

const services = gamesServicesWith(() => ({ service: walletServiceWith(), config: WalletConfigSchema }));
const live = scopes.production;
const txId = (label: string) => `${label}-${randomBytes(6).toString('hex')}`;
const code = (r: any) => (r.ok ? `ok:${r.status}` : r.error.code);
const ZONE = 'America/Sao_Paulo';
const monthOf = (d: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit' }).format(d).slice(0, 7);
const dayOf = (d: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(d);
const shiftMonth = (m: string, by: number) => {
  const d = new Date(`${m}-15T12:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + by);
  return d.toISOString().slice(0, 7);
};

t.test("provider money: the month's statement and reconciliation", async (t) => {
  setRuleClockOffset(0);
  const h = await startGamesStack(t, services);
  const fake = await startFakeProvider(t);
  const sub = h.wallet.nc.subscribe(`${h.prefix}.rpc.operators.status.get`, {
    callback: (_e, msg) => {
      msg.respond(JSON.stringify({ ok: true, status: 200, body: { status: 'active' } }));
    },
  });
  t.teardown(() => sub.unsubscribe());
  const admin = async (subject: string, opts: { params?: Record<string, string>; body?: unknown; query?: Record<string, unknown> }) => {
    const r = await h.call(subject, adminScope, opts);
    if (!r.ok) throw new Error(`${subject}: ${JSON.stringify(r)}`);
    return r.body as any;
  };
  const provider = await admin('wallet.admin.providers.create', { body: { name: `Aggregator ${txId('p')}`, kind: 'casino', launchUrl: fake.url } });
  const game = await admin('wallet.admin.providers.putGame', {
    params: { id: provider.id, gameCode: 'money-slot' },
    body: { name: 'Money Slot', category: 'slots' },
  });
  await admin('wallet.admin.providers.setOperator', { params: { id: provider.id, operatorId: live.operatorId }, body: { enabled: true } });
  const pscope = { kind: 'provider' as const, providerId: provider.id, environment: 'production' as const };
  const p = async (op: string, body: unknown) => {
    const r = (await h.call(`wallet.provider.${op}`, pscope, { body })) as any;
    if (!r.ok) throw new Error(`${op}: ${JSON.stringify(r)}`);
    return r.body;
  };
  const read = (op: string, opts: { params?: Record<string, string>; query?: Record<string, unknown> }) =>
    h.call(`wallet.provider.${op}`, pscope, opts) as Promise<any>;
  const sessionOf = async (t: Test) => {
    const player = await h.createPlayer(live, { kyc: 'aprovado' });
    await h.credit(live, player, '100.00');
    await h.openSession(t, live, player, game.id);
    return { player, token: fake.requests.at(-1)!.body.token as string };
  };

  // A month of play: every kind of provider money.
  const { player, token } = await sessionOf(t);
  const bet = (amount: string, over: Record<string, unknown> = {}) =>
    p('bet', { transactionId: txId('bet'), token, roundId: txId('round'), gameCode: 'money-slot', amount, currency: 'BRL', ...over });
  const b1 = await bet('10.00', { jackpotContribution: '0.50' });
  await p('win', { transactionId: txId('win'), playerId: player, roundId: b1.roundId, amount: '4.00', currency: 'BRL' });
  const b2 = await bet('20.00');
  await p('rollback', { transactionId: txId('rb'), playerId: player, roundId: b2.roundId, betTransactionId: b2.transactionId });
  const b3 = await bet('5.00');
  await p('win', { transactionId: txId('win'), playerId: player, roundId: b3.roundId, amount: '0', currency: 'BRL' });
  await p('correction', { transactionId: txId('c'), playerId: player, roundId: b3.roundId, amount: '1.00', currency: 'BRL', reason: 'resettled' });
  const fb = await p('freeBet', { transactionId: txId('fb'), token, roundId: txId('round'), gameCode: 'money-slot', amount: '2.00', currency: 'BRL' });
  await p('win', { transactionId: txId('win'), playerId: player, roundId: fb.roundId, amount: '3.00', currency: 'BRL' });
  await p('promoCredit', {
    transactionId: txId('promo'),
    playerId: player,
    amount: '5.00',
    currency: 'BRL',
    promotionType: 'tournament_prize',
    promotionId: 't1',
  });
  await p('promoCredit', {
    transactionId: txId('promo'),
    playerId: player,
    amount: '1.50',
    currency: 'BRL',
    promotionType: 'free_round_winnings',
    promotionId: 'fr1',
  });
  await p('jackpotWin', { transactionId: txId('jp'), playerId: player, roundId: b1.roundId, jackpotId: 'mega', amount: '50.00', currency: 'BRL' });
  const month = monthOf(new Date());

  t.test("what the brand owes the provider: the month's statement ties to the clearing account to the cent", async (t) => {
    const set = (effectiveFrom: string, sharePercent: string) =>
      h.call('wallet.admin.providers.setRevenueShare', adminScope, { params: { id: provider.id }, body: { effectiveFrom, sharePercent, reason: 'contract' } });
    t.equal(code(await set(shiftMonth(month, -1), '20')), 'ok:201', 'last month 20%');
    t.equal(code(await set(month, '10.00')), 'ok:201', 'this month 10%');
    t.equal(code(await set(shiftMonth(month, 1), '15.5')), 'ok:201', 'next month 15.5%');
    t.equal(code(await set(month, '101')), 'VALIDATION_ERROR', 'over 100%');
    const history = await admin('wallet.admin.providers.revenueShares', { params: { id: provider.id } });
    t.same(
      history.data.map((s: any) => `${s.effectiveFrom} ${s.sharePercent}`),
      [`${shiftMonth(month, 1)} 15.50`, `${month} 10.00`, `${shiftMonth(month, -1)} 20.00`],
      'the history, latest first',
    );
    const s = await admin('wallet.admin.providers.monthStatement', { params: { id: provider.id, month } });
    t.equal(s.brands.length, 1);
    t.match(s.brands[0], {
      brandId: live.brandId,
      currency: 'BRL',
      bets: { count: 3, amount: '-35.00' },
      wins: { count: 2, amount: '4.00' },
      rollbacks: { count: 1, amount: '20.00' },
      corrections: { count: 1, amount: '1.00' },
      freeBets: { count: 1, amount: '2.00' },
      freeBetWins: { count: 2, amount: '4.50' },
      promoCredits: { count: 1, amount: '5.00' },
      jackpotContributions: { count: 1, amount: '0.50' },
      jackpotWins: { count: 1, amount: '50.00' },
      ggr: '10.00',
      netGgr: '9.50',
      sharePercent: '10.00',
      revenueShare: '0.95',
      providerFundedCredits: '59.50',
      amountDue: '-58.05',
      ledgerNet: '-49.50',
      ties: true,
    });
    t.equal(s.ties, true);
    // The clearing account's balance in the ledger (this provider's only month) is the statement's ledger side.
    const [clearing] = await h.sql<{ available: string }>(`select available::text from wallet.account_balances where id = ?`, [
      `acct:provider_clearing:${live.brandId}:${provider.id}:BRL`,
    ]);
    t.equal(clearing?.available, s.brands[0].ledgerNet, 'the clearing account holds exactly the month');
    const clearingApi = await admin('wallet.admin.providers.clearing', { params: { id: provider.id } });
    t.equal(clearingApi.data[0].balance, '-49.50', "finance's clearing page agrees");
    const last = await admin('wallet.admin.providers.monthStatement', { params: { id: provider.id, month: shiftMonth(month, -1) } });
    t.match(last.brands[0], { sharePercent: '20.00', bets: { count: 0, amount: '0.00' }, amountDue: '0.00', ties: true }, 'last month: nothing played');
    const csv = await admin('wallet.admin.providers.monthStatementCsv', { params: { id: provider.id, month } });
    t.match(csv, { filename: `provider-${provider.id}-${month}.csv`, contentType: /text\/csv/, nextCursor: null });
    const [header, line] = csv.chunk.trim().split('\r\n');
    const row = Object.fromEntries(header.split(',').map((c: string, i: number) => [c, line.split(',')[i]]));
    t.match(
      row,
      { brand_id: live.brandId, bets_amount: '-35.00', jackpot_wins_amount: '50.00', revenue_share: '0.95', amount_due: '-58.05', ties: 'true' },
      'the CSV says the same',
    );
    t.equal(code(await h.call('wallet.admin.providers.monthStatement', adminScope, { params: { id: 'prv_nope', month } })), 'PROVIDER_NOT_FOUND');
    const v = await h.verifyLedger();
    t.same({ ok: v.ok, mismatches: v.mismatches }, { ok: true, mismatches: [] }, 'verifyLedger holds');
  });

  t.test('the provider reads its transactions by id, by round and by time range', async (t) => {
    const one = await read('transaction', { params: { transactionId: b1.transactionId } });
    t.match(one, {
      ok: true,
      body: { transactionId: b1.transactionId, kind: 'bet', requested: '-10.00', moved: '-10.00', status: 'ok', jackpotContribution: '0.50' },
    });
    t.match(await read('transaction', { params: { transactionId: b2.transactionId } }), { body: { status: 'rolled_back' } });
    t.equal(code(await read('transaction', { params: { transactionId: 'nope' } })), 'TRANSACTION_NOT_FOUND');
    const other = { ...pscope, environment: 'sandbox' as const };
    t.equal(
      code(await h.call('wallet.provider.transaction', other, { params: { transactionId: b1.transactionId } })),
      'TRANSACTION_NOT_FOUND',
      'another environment',
    );
    const round = await read('roundTransactions', { params: { roundId: b1.roundId } });
    t.same(
      round.body.data.map((r: any) => r.kind),
      ['bet', 'win', 'jackpot_win'],
      "the round's transactions, oldest first",
    );
    t.equal(code(await read('roundTransactions', { params: { roundId: 'nope' } })), 'ROUND_NOT_FOUND');
    const from = new Date(Date.now() - 3_600_000).toISOString();
    const to = new Date(Date.now() + 60_000).toISOString();
    const all: any[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 20; pages++) {
      const page = await read('transactions', { query: { from, to, limit: 4, ...(cursor ? { cursor } : {}) } });
      t.equal(page.ok, true);
      all.push(...page.body.data);
      cursor = page.body.nextCursor ?? undefined;
      if (!cursor) break;
    }
    t.equal(all.length, 12, 'every transaction once, over pages');
    t.equal(new Set(all.map((r) => r.transactionId)).size, 12);
    t.equal(code(await read('transactions', { query: { from: to, to: from } })), 'VALIDATION_ERROR', 'an empty range');
  });

  t.test('a daily statement with planted differences: reconciliation finds exactly those', async (t) => {
    const day = dayOf(new Date());
    t.equal(
      code(await h.call('wallet.admin.providers.uploadStatement', adminScope, { params: { id: provider.id }, body: { date: day, content: 'x' } })),
      'VALIDATION_ERROR',
      'no mapping yet',
    );
    const mapping = {
      format: 'csv',
      delimiter: ';',
      fields: { transactionId: 'tx_id', kind: 'type', amount: 'amount_cents', currency: 'ccy', status: 'state' },
      kinds: { BET: 'bet', WIN: 'win', REFUND: 'rollback', ADJUST: 'correction', FREEBET: 'free_bet', PROMO: 'promo_credit', JACKPOT: 'jackpot_win' },
      statuses: { OK: 'ok', CANCELLED: 'rolled_back' },
      amountUnit: 'cents',
      sign: 'absolute',
      timeZone: ZONE,
    };
    t.equal(code(await h.call('wallet.admin.providers.putStatementMapping', adminScope, { params: { id: provider.id }, body: mapping })), 'ok:200');
    const ours = (
      (await read('transactions', {
        query: { from: new Date(Date.now() - 86_400_000).toISOString(), to: new Date(Date.now() + 60_000).toISOString(), limit: 1000 },
      })) as any
    ).body.data as any[];
    const TYPE: Record<string, string> = {
      bet: 'BET',
      win: 'WIN',
      rollback: 'REFUND',
      correction: 'ADJUST',
      free_bet: 'FREEBET',
      promo_credit: 'PROMO',
      jackpot_win: 'JACKPOT',
    };
    const cents = (m: string) => String(Math.round(Math.abs(Number(m)) * 100));
    const lines = ours.map((r) => ({
      id: r.transactionId,
      type: TYPE[r.kind],
      cents: cents(r.requested),
      state: r.status === 'rolled_back' ? 'CANCELLED' : 'OK',
    }));
    // Planted: one of ours left out, one of theirs we never had, an amount and a status that differ.
    const [dropped, changedAmount, changedStatus] = [ours[1].transactionId, ours[2].transactionId, b1.transactionId];
    const planted = lines
      .filter((l) => l.id !== dropped)
      .map((l) => (l.id === changedAmount ? { ...l, cents: String(Number(l.cents) + 1) } : l.id === changedStatus ? { ...l, state: 'CANCELLED' } : l));
    planted.push({ id: 'theirs-only-1', type: 'WIN', cents: '700', state: 'OK' });
    const csv = ['tx_id;type;amount_cents;ccy;state', ...planted.map((l) => `${l.id};${l.type};${l.cents};BRL;${l.state}`)].join('\n');
    const up = await admin('wallet.admin.providers.uploadStatement', { params: { id: provider.id }, body: { date: day, content: csv } });
    t.match(up.day, { date: day, matched: ours.length - 3, oursOnly: 1, theirsOnly: 1, amountDiffers: 1, statusDiffers: 1, ties: false });
    t.same(
      up.differences.map((d: any) => `${d.category} ${d.transactionId} ${d.fields.join('+')}`),
      [`amount_differs ${changedAmount} amount`, `ours_only ${dropped} `, `status_differs ${changedStatus} status`, 'theirs_only theirs-only-1 '],
      'exactly the planted differences, with their transaction ids',
    );
    const read1 = await admin('wallet.admin.providers.reconciliationDay', { params: { id: provider.id, date: day } });
    t.same(read1.differences.length, 4, 'kept for the day');
    const days = await admin('wallet.admin.providers.reconciliations', { params: { id: provider.id }, query: { from: day, to: day } });
    t.match(days.data, [{ date: day, ties: false, oursOnly: 1 }]);
    const scrape = await h.wallet.metrics.metrics();
    t.match(scrape, /bo_provider_reconciliation_untied_days\{service="wallet"\} [1-9]/, 'the alert gauge counts the day');
    // The same statement uploaded again, corrected: the part's lines are replaced and the day ties.
    const fixed = ['tx_id;type;amount_cents;ccy;state', ...lines.map((l) => `${l.id};${l.type};${l.cents};BRL;${l.state}`)].join('\n');
    const again = await admin('wallet.admin.providers.uploadStatement', { params: { id: provider.id }, body: { date: day, content: fixed } });
    t.match(again.day, { matched: ours.length, oursOnly: 0, theirsOnly: 0, amountDiffers: 0, statusDiffers: 0, ties: true });
    // Records are kept (five years): the part uploaded before is superseded, not deleted, with its lines and the differences it gave.
    const parts = await h.sql<{ superseded: boolean; lines: number; kept: number }>(
      `select s.superseded_at is not null as superseded, s.lines, (select count(*)::int from wallet.provider_statement_lines l where l.statement_id = s.id) as kept
       from wallet.provider_statements s where s.provider_id = ? and s.statement_date = ?::date order by s.uploaded_at, s.id`,
      [provider.id, day],
    );
    t.same(
      parts.map((p) => [p.superseded, p.lines, p.kept]),
      [
        [true, planted.length, planted.length],
        [false, lines.length, lines.length],
      ],
      'the earlier part is kept, superseded by the new one, with its lines',
    );
    const [kept] = await h.sql<{ superseded: number; current: number }>(
      `select count(*) filter (where superseded_at is not null)::int as superseded, count(*) filter (where superseded_at is null)::int as current
       from wallet.provider_reconciliation_differences where provider_id = ? and statement_date = ?::date`,
      [provider.id, day],
    );
    t.same(kept, { superseded: 4, current: 0 }, 'the differences found before are kept, superseded');
    const read2 = await admin('wallet.admin.providers.reconciliationDay', { params: { id: provider.id, date: day } });
    t.same(read2.differences, [], 'the day reads only the current differences');
    t.equal(
      code(
        await h.call('wallet.admin.providers.uploadStatement', adminScope, {
          params: { id: provider.id },
          body: { date: day, content: 'tx_id;type;amount_cents;ccy;state\nx;SPIN;100;BRL;OK' },
        }),
      ),
      'VALIDATION_ERROR',
      'a kind the mapping does not know',
    );
    t.equal(
      code(await h.call('wallet.admin.providers.reconciliationDay', adminScope, { params: { id: provider.id, date: '2020-01-01' } })),
      'RECONCILIATION_NOT_FOUND',
    );
  });
});
