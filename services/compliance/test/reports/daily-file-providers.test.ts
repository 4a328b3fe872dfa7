// The daily regulator file with third-party providers' play (issue #44, br-spa), through the real
// services: a casino aggregator's bets, wins and a rollback and a sportsbook's bet with its slip
// are listed line by line (provider, game code, round; for sports the slip and outcome), our own
// rounds stay in their part, and the file still ties to the ledger: providers' bets with our
// stakes to its bets, their wins with our payouts to its wins, their rollbacks and corrections to
// its other movements. A provider line removed makes it not tie. What a provider funds (issue #59
// item 1: a free bet, its win, a promotional credit, a jackpot win) is a line of its own kind too,
// in the SIGAP online games file as well, and the file still ties (the credits are the ledger's other
// movements). The AML watch's in-and-out rule counts a provider's bets as play.
import t from 'tap';
import { SIGAP_FILE_TYPES, type DailyFileCheck, type FileChunk, type SigapDay, type SigapFile } from '@bo/contracts';
import { adminScope, errorOf, ok, operatorScope, startComplianceStack, TEST_CNPJ, type ComplianceStack } from '../support/stack.ts';
import { providerStands, txId } from '../support/providers.ts';

const SLIP = {
  sport: 'football',
  event: 'Flamengo x Palmeiras',
  market: 'match_result',
  selection: 'Flamengo',
  odds: '2.35',
  eventStartsAt: '2030-01-01T19:00:00.000Z',
};

async function download(s: ComplianceStack, brandId: string, date: string, query: Record<string, string>): Promise<string> {
  let body = '';
  let cursor: string | null = null;
  do {
    const chunk: FileChunk = ok(
      await s.call('compliance.admin.reports.files.download', {
        scope: adminScope,
        params: { brandId, date },
        query: { ...query, ...(cursor ? { cursor } : {}) },
      }),
    );
    body += chunk.chunk;
    cursor = chunk.nextCursor;
  } while (cursor);
  return body;
}

async function sigapDownload(s: ComplianceStack, f: SigapFile): Promise<string> {
  let body = '';
  let cursor: string | null = null;
  do {
    const chunk: FileChunk = ok(
      await s.call('compliance.admin.sigap.file.download', {
        scope: adminScope,
        params: { brandId: f.brandId, date: f.date, fileId: f.id },
        query: cursor ? { cursor } : {},
      }),
    );
    body += chunk.chunk;
    cursor = chunk.nextCursor;
  } while (cursor);
  return body;
}

t.test("providers' bets, wins, rollbacks and corrections are lines of the daily file, which ties to the ledger", async (t) => {
  let shift = 0;
  const s = await startComplianceStack(t, 'amlprov', { now: () => new Date(Date.now() + shift) });
  const op = await s.brSpaOperator();
  // A zone where it is about noon now: every movement below falls on the same local day.
  const offset = 12 - new Date().getUTCHours();
  const timeZone = offset === 0 ? 'Etc/GMT' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;
  ok(
    await s.call('players.admin.setCompliance', {
      scope: adminScope,
      params: { id: op.operatorId },
      body: { profile: 'br-spa', timeZone, reason: 'the operator is licensed in Brazil' },
    }),
  );
  const date = new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date());
  const { casino, sports } = await providerStands(t, s, op.operatorId);

  const a = await s.player(op);
  await s.deposit(op, a, '200.00');
  await s.play(op, a, '10.00', 1);
  const ctoken = await casino.tokenFor(op, a);
  const r1 = txId('round');
  const r2 = txId('round');
  const bet1 = { transactionId: txId('bet'), token: ctoken, roundId: r1, gameCode: 'sweet-fruits', amount: '10.00', currency: 'BRL' };
  const bet2 = { ...bet1, transactionId: txId('bet'), roundId: r2, amount: '4.00' };
  await casino.call('bet', bet1);
  await casino.call('win', { transactionId: txId('win'), playerId: a, roundId: r1, amount: '25.00', currency: 'BRL', roundClosed: true });
  await casino.call('bet', bet2);
  await casino.call('rollback', { transactionId: txId('rb'), playerId: a, betTransactionId: bet2.transactionId, roundId: r2 });
  await casino.call('correction', { transactionId: txId('fix'), playerId: a, roundId: r1, amount: '-5.00', currency: 'BRL', reason: 'resettled' });
  const stoken = await sports.tokenFor(op, a);
  const slipId = txId('slip');
  await sports.call('bet', {
    transactionId: txId('sbet'),
    token: stoken,
    roundId: slipId,
    gameCode: 'sportsbook',
    amount: '20.00',
    currency: 'BRL',
    slip: SLIP,
  });
  await sports.call('win', { transactionId: txId('swin'), playerId: a, roundId: slipId, amount: '0', currency: 'BRL', roundClosed: true, outcome: 'lost' });
  await s.watched(a, 1);

  shift = 2 * 86_400_000;
  const file = ok<DailyFileCheck>(await s.call('compliance.admin.reports.files.get', { scope: adminScope, params: { brandId: op.brandId, date } }));
  t.same(file.problems, [], 'no problems');
  t.equal(file.ties, true, 'the file ties');
  t.match(file.counts, { accounts: 1, deposits: 1, rounds: 1, provider_transactions: 7 }, 'each provider transaction a line; our own round in its part');
  // bets: our round 10.00, the providers' 10.00 + 4.00 + 20.00; other: the rollback 4.00 and the correction −5.00.
  t.match(file.totals, { bets: '-44.00', other: '-1.00' });
  t.match(file.lineTotals, {
    stakes: '10.00',
    providerBets: '-34.00',
    providerWins: '25.00',
    providerRollbacks: '4.00',
    providerCorrections: '-5.00',
  });

  const doc = JSON.parse(await download(s, op.brandId, date, { format: 'json' }));
  t.same(
    doc.providerTransactions.map((l: any) => [l.kind, l.moved, l.providerId, l.gameCode, l.roundId]),
    [
      ['bet', '-10.00', casino.providerId, 'sweet-fruits', r1],
      ['win', '25.00', casino.providerId, 'sweet-fruits', r1],
      ['bet', '-4.00', casino.providerId, 'sweet-fruits', r2],
      ['rollback', '4.00', casino.providerId, 'sweet-fruits', r2],
      ['correction', '-5.00', casino.providerId, 'sweet-fruits', r1],
      ['bet', '-20.00', sports.providerId, 'sportsbook', slipId],
      ['win', '0.00', sports.providerId, 'sportsbook', slipId],
    ],
    'line by line, in order',
  );
  t.match(doc.providerTransactions[5], { roundKind: 'sports', slip: SLIP, providerName: sports.providerName, playerId: a });
  t.match(doc.providerTransactions[6], { outcome: 'lost', slip: SLIP, entryId: null }, 'a lost bet: its settlement moved nothing');
  // Issue #59 item 5: a casino line names its game's certificate valid then; a sports line none.
  t.match(doc.providerTransactions[0].certificate, { laboratory: 'Test Laboratory', certificateNumber: 'TEST-sweet-fruits', certifiedRtp: '96.00' });
  t.equal(doc.providerTransactions[5].certificate, null, 'a sports bet: no game certificate');
  t.equal(doc.rounds.length, 1, 'our own round only');

  const csv = (await download(s, op.brandId, date, { format: 'csv', part: 'provider_transactions' })).split('\r\n');
  t.equal(
    csv[0],
    'brand_id,date,id,provider_id,provider_name,transaction_id,kind,player_id,currency,game_code,round_id,round_kind,bet_transaction_id,moved,entry_id,slip_sport,slip_event,slip_market,slip_selection,slip_odds,slip_event_starts_at,outcome,at,certificate_laboratory,certificate_number,certificate_game_version,certificate_certified_rtp,certificate_regulator_reference,funded_stake',
  );
  t.equal(csv.length, 9, 'a row per line, CRLF after each');
  t.match(
    csv[6],
    new RegExp(
      `,bet,${a},BRL,sportsbook,${slipId},sports,,-20\\.00,le_[^,]+,football,Flamengo x Palmeiras,match_result,Flamengo,2\\.35,2030-01-01T19:00:00\\.000Z,,`,
    ),
  );
  t.match(csv[1], /,Test Laboratory,TEST-sweet-fruits,1\.0\.0,96\.00,,$/, "a casino line's certificate in its columns (and no funded stake: a paid bet)");

  await s.db.query(
    `delete from compliance.daily_file_lines where brand_id = $1 and date = $2 and part = 'provider_transactions' and data->>'kind' = 'rollback'`,
    [op.brandId, date],
  );
  const broken = ok<DailyFileCheck>(await s.call('compliance.admin.reports.files.get', { scope: adminScope, params: { brandId: op.brandId, date } }));
  t.equal(broken.ties, false, 'a provider line removed: the file does not tie');
  t.match(broken.problems, [
    /rollbacks, corrections and provider-funded credits add up to -5\.00, the ledger part's other movements say -1\.00/,
    /provider_transactions: 7 lines when made, 6 kept now/,
  ]);
  t.match(
    errorOf(await s.call('compliance.admin.reports.files.download', { scope: adminScope, params: { brandId: op.brandId, date }, query: { format: 'csv' } })),
    {
      code: 'VALIDATION_ERROR',
    },
  );
});

t.test('what providers funded (issue #59 item 1) is in the daily file and its SIGAP files, which still tie to the ledger', async (t) => {
  let shift = 0;
  const s = await startComplianceStack(t, 'amlfund', { now: () => new Date(Date.now() + shift) });
  // Free bets are an advantage before a bet, which br-spa refuses: an operator under no profile.
  const op = operatorScope('aml', 'production');
  // The watch sees no money of an operator outside br-spa: the brand is the operators service's to name.
  const brand = { id: op.brandId, operatorId: op.operatorId, operatorName: 'Aml', name: 'Aml', environment: 'production', currency: 'BRL' };
  const sub = s.nc.subscribe(`${s.prefix}.rpc.operators.brands.get`, {
    callback: (_e, msg) => {
      msg.respond(JSON.stringify({ ok: true, status: 200, body: { brand } }));
    },
  });
  t.teardown(() => sub.unsubscribe());
  const offset = 12 - new Date().getUTCHours();
  const timeZone = offset === 0 ? 'Etc/GMT' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;
  ok(
    await s.call('players.admin.setCompliance', {
      scope: adminScope,
      params: { id: op.operatorId },
      body: { profile: 'off', timeZone, reason: 'not licensed in Brazil' },
    }),
  );
  ok(
    await s.call('compliance.admin.sigap.operator.set', {
      scope: adminScope,
      params: { operatorId: op.operatorId },
      body: { cnpj: TEST_CNPJ, reason: 'the licence' },
    }),
  );
  const date = new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date());
  const { casino } = await providerStands(t, s, op.operatorId);

  const a = await s.player(op);
  await s.deposit(op, a, '200.00');
  const token = await casino.tokenFor(op, a);
  const paid = txId('round');
  const free = txId('round');
  await casino.call('bet', { transactionId: txId('bet'), token, roundId: paid, gameCode: 'sweet-fruits', amount: '10.00', currency: 'BRL' });
  await casino.call('win', { transactionId: txId('win'), playerId: a, roundId: paid, amount: '25.00', currency: 'BRL', roundClosed: true });
  const fb = await casino.call('freeBet', {
    transactionId: txId('fb'),
    token,
    roundId: free,
    gameCode: 'sweet-fruits',
    amount: '2.00',
    currency: 'BRL',
    rewardId: 'reward-1',
  });
  t.match(fb, { kind: 'free_bet', moved: '0.00' });
  await casino.call('win', { transactionId: txId('fwin'), playerId: a, roundId: free, amount: '7.25', currency: 'BRL', roundClosed: true });
  await casino.call('promoCredit', {
    transactionId: txId('promo'),
    playerId: a,
    amount: '5.00',
    currency: 'BRL',
    promotionType: 'tournament_prize',
    promotionId: 'tour-1',
  });
  const jackpot = await casino.call('jackpotWin', {
    transactionId: txId('jp'),
    playerId: a,
    roundId: paid,
    jackpotId: 'mega',
    amount: '250.00',
    currency: 'BRL',
  });
  t.equal(jackpot.balance, '477.25', '200.00 − 10.00 + 25.00 + 7.25 + 5.00 + 250.00');

  shift = 2 * 86_400_000;
  const file = ok<DailyFileCheck>(await s.call('compliance.admin.reports.files.get', { scope: adminScope, params: { brandId: op.brandId, date } }));
  t.same(file.problems, [], 'no problems');
  t.equal(file.ties, true, 'the file ties with the provider-funded lines in it');
  t.match(file.counts, { accounts: 1, deposits: 1, provider_transactions: 6 }, 'each provider transaction a line, the free bet too');
  // other: FREE_BET_WIN 7.25 + PROMO_CREDIT 5.00 + JACKPOT_WIN 250.00; the free bet moved nothing.
  t.match(file.totals, { deposits: '200.00', bets: '-10.00', wins: '25.00', other: '262.25' });
  t.match(file.lineTotals, {
    providerBets: '-10.00',
    providerWins: '25.00',
    providerRollbacks: '0.00',
    providerCorrections: '0.00',
    providerFreeBetWins: '7.25',
    providerPromoCredits: '5.00',
    providerJackpotWins: '250.00',
  });

  const doc = JSON.parse(await download(s, op.brandId, date, { format: 'json' }));
  t.same(
    doc.providerTransactions.map((l: any) => [l.kind, l.moved, l.fundedStake, l.gameCode, l.roundId, l.entryId === null]),
    [
      ['bet', '-10.00', null, 'sweet-fruits', paid, false],
      ['win', '25.00', null, 'sweet-fruits', paid, false],
      ['free_bet', '0.00', '2.00', 'sweet-fruits', free, true],
      ['free_bet_win', '7.25', null, 'sweet-fruits', free, false],
      ['promo_credit', '5.00', null, '', 'tour-1', false],
      ['jackpot_win', '250.00', null, 'sweet-fruits', paid, false],
    ],
    'line by line: a free bet with its funded stake and no ledger entry, its win, the promotional credit, the jackpot win',
  );
  const csv = (await download(s, op.brandId, date, { format: 'csv', part: 'provider_transactions' })).split('\r\n');
  t.match(csv[3], new RegExp(`,free_bet,${a},BRL,sweet-fruits,${free},casino,,0\\.00,,.*,2\\.00$`), "a free bet's row: moved 0.00, its funded stake last");

  // The SIGAP files made from it: the online games file names each kind, with its amount.
  const day = ok<SigapDay>(await s.call('compliance.admin.sigap.day.get', { scope: adminScope, params: { brandId: op.brandId, date } }));
  t.match(day, { dailyFileTies: true, problems: [] });
  const games = day.files.filter((f) => f.fileType === 'online_games');
  t.equal(games.length, 1);
  const records = JSON.parse(await sigapDownload(s, games[0]!)).records;
  t.same(
    records.map((r: any) => [r.kind, r.amount, r.gameCode, r.roundId]),
    [
      ['bet', '10.00', 'sweet-fruits', paid],
      ['win', '25.00', 'sweet-fruits', paid],
      ['free_bet', '2.00', 'sweet-fruits', free],
      ['free_bet_win', '7.25', 'sweet-fruits', free],
      ['promo_credit', '5.00', null, 'tour-1'],
      ['jackpot_win', '250.00', 'sweet-fruits', paid],
    ],
    "each provider-funded kind its own record; a free bet's amount the stake the provider funded; a promotional credit outside a round names no game",
  );
  const wallets = JSON.parse(await sigapDownload(s, day.files.find((f) => f.fileType === 'wallets')!)).records;
  t.match(wallets, [{ playerId: a, bets: '-10.00', wins: '25.00', other: '262.25', closing: '477.25' }]);
  const sent = ok<SigapDay>(await s.call('compliance.admin.sigap.day.submit', { scope: adminScope, params: { brandId: op.brandId, date } }));
  t.same(
    sent.files.map((f) => [f.fileType, f.status, f.phase]),
    SIGAP_FILE_TYPES.map((type) => [type, 'accepted', null]),
    "the simulator's structure and quality checks accept every file",
  );

  // The jackpot win's line removed: the file no longer ties.
  await s.db.query(
    `delete from compliance.daily_file_lines where brand_id = $1 and date = $2 and part = 'provider_transactions' and data->>'kind' = 'jackpot_win'`,
    [op.brandId, date],
  );
  const broken = ok<DailyFileCheck>(await s.call('compliance.admin.reports.files.get', { scope: adminScope, params: { brandId: op.brandId, date } }));
  t.equal(broken.ties, false, 'a jackpot line removed: the file does not tie');
  t.match(broken.problems, [
    /rollbacks, corrections and provider-funded credits add up to 12\.25, the ledger part's other movements say 262\.25/,
    /provider_transactions: 6 lines when made, 5 kept now/,
  ]);
});

t.test("the watch's in-and-out rule counts a provider's bets as play, and a bet rolled back as none", async (t) => {
  const s = await startComplianceStack(t, 'amlprovw');
  const op = await s.brSpaOperator();
  const { casino } = await providerStands(t, s, op.operatorId);
  /** Deposits 1000.00, bets 300.00 (30%: the rule's bar) with the aggregator, rolled back or lost, then withdraws 600.00. */
  const scenario = async (rolledBack: boolean) => {
    const p = await s.player(op);
    await s.deposit(op, p, '1000.00');
    const token = await casino.tokenFor(op, p);
    const bet = { transactionId: txId('bet'), token, roundId: txId('round'), gameCode: 'sweet-fruits', amount: '300.00', currency: 'BRL' };
    await casino.call('bet', bet);
    if (rolledBack) await casino.call('rollback', { transactionId: txId('rb'), playerId: p, betTransactionId: bet.transactionId, roundId: bet.roundId });
    else await casino.call('win', { transactionId: txId('win'), playerId: p, roundId: bet.roundId, amount: '0', currency: 'BRL', roundClosed: true });
    await s.withdraw(op, p, '600.00');
    await s.watched(p, 2);
    return s.cases(p);
  };
  t.same(await scenario(false), [], 'a provider bet of 30% is play: no case');
  const [c] = await scenario(true);
  t.match(c, { risk: 'high', rules: ['in_and_out'] }, 'the same bet rolled back was no play: an in-and-out case');
  t.match((await s.caseOf(c!.id)).evidence[0]!.facts, { deposited: '1000.00', stakes: '0.00' });

  // A large win with the provider, then a cash-out: rule 3 (high value) sees the win.
  const w = await s.player(op);
  await s.deposit(op, w, '1000.00');
  const token = await casino.tokenFor(op, w);
  const roundId = txId('round');
  await casino.call('bet', { transactionId: txId('bet'), token, roundId, gameCode: 'sweet-fruits', amount: '500.00', currency: 'BRL' });
  const won = await casino.call('win', { transactionId: txId('win'), playerId: w, roundId, amount: '60000.00', currency: 'BRL', roundClosed: true });
  t.equal(won.balance, '60500.00');
  await s.withdraw(op, w, '1000.00');
  await s.watched(w, 2);
  const [big] = await s.cases(w);
  t.match(big, { risk: 'medium', rules: ['high_value'] }, 'a withdrawal after a provider win over the high-value threshold opens a case');
  t.match((await s.caseOf(big!.id)).evidence[0]!.facts, { threshold: '50000.00', win: { amount: '60000.00', referenceId: /^ptx_/ } });
});
