// SIGAP files (issue #46 item 1) through the real services (players, wallet, payments, compliance
// in-process; real Postgres and NATS): a day of activity (deposits, our own rounds, a paid
// withdrawal, a casino aggregator's bets and wins, a sportsbook's bet and its settlement, a status
// change) gives one file per SIGAP type made from the daily file, in parts of at most
// SIGAP_RECORDS_PER_FILE records, which the simulator accepts with a receipt. Three files corrupted
// before they are sent are rejected with the phase and reasons SIGAP's checks would give (a wrong
// balance: quality; a missing field: structure; content altered on the way: its hash), kept with
// them, and accepted once sent again after a correction as a new version. The job's pass counts the
// brands whose yesterday is not accepted, and those of them past 06:00 São Paulo time.
import t from 'tap';
import { createHash } from 'node:crypto';
import type { DailyFileCheck, FileChunk, SigapDay, SigapFile, Withdrawal } from '@bo/contracts';
import { Money } from '@bo/service-kit';
import { setStatus } from '@bo/test-support';
import { deadlineOf, type SigapDeps } from '../../src/reports/sigap-files.ts';
import { makeYesterdaysFiles } from '../../src/reports/daily-job.ts';
import { sigapPass } from '../../src/reports/sigap-job.ts';
import { sigapSimulator } from '../../src/sigap/simulator.ts';
import { adminScope, errorOf, key, ok, startComplianceStack, type ComplianceStack } from '../support/stack.ts';
import { providerStands, txId } from '../support/providers.ts';

const SLIP = {
  sport: 'football',
  event: 'Flamengo x Palmeiras',
  market: 'match_result',
  selection: 'Flamengo',
  odds: '2.35',
  eventStartsAt: '2030-01-01T19:00:00.000Z',
};

async function download(s: ComplianceStack, f: SigapFile): Promise<string> {
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

const current = (day: SigapDay, type: string) => day.files.filter((f) => f.fileType === type && f.supersededAt === null);
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

t.test('a day of activity: SIGAP files the simulator accepts; corrupted ones rejected with reasons, resent after a correction', async (t) => {
  let shift = 0;
  const clock = () => new Date(Date.now() + shift);
  const s = await startComplianceStack(t, 'amlsigap', { now: clock, config: { SIGAP_RECORDS_PER_FILE: 4 } });
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
  const b = await s.player(op);
  // Stakes of at least 30% of what was deposited: the AML watch's in-and-out rule does not hold the payout.
  const depA = await s.deposit(op, a, '100.00');
  await s.deposit(op, b, '50.00');
  await s.play(op, a, '10.00', 3);
  const w = await s.withdraw(op, a, '30.00');
  for (const [actor, decision] of [
    ['rev@team', 'approve'],
    ['pay@team', 'pay'],
  ] as const) {
    ok<Withdrawal>(
      await s.call('payments.admin.withdrawalDecision', { scope: { kind: 'admin', actor }, key: key(decision), params: { id: w.id }, body: { decision } }),
    );
  }
  const ctoken = await casino.tokenFor(op, a);
  const round = txId('round');
  await casino.call('bet', { transactionId: txId('bet'), token: ctoken, roundId: round, gameCode: 'sweet-fruits', amount: '5.00', currency: 'BRL' });
  await casino.call('win', { transactionId: txId('win'), playerId: a, roundId: round, amount: '12.00', currency: 'BRL', roundClosed: true });
  const stoken = await sports.tokenFor(op, b);
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
  await sports.call('win', { transactionId: txId('swin'), playerId: b, roundId: slipId, amount: '47.00', currency: 'BRL', roundClosed: true, outcome: 'won' });
  await setStatus(s.call, b, 'suspenso');
  await s.watched(a, 2);
  await s.watched(b, 1);

  t.match(
    errorOf(await s.call('compliance.admin.sigap.day.get', { scope: adminScope, params: { brandId: op.brandId, date } })),
    { code: 'VALIDATION_ERROR', details: { in: 'path', issues: [{ path: '/date' }] } },
    'no SIGAP file for a day not over',
  );
  shift = 2 * 86_400_000;
  // The regulator (read-only, issue #69) reads the day as kept: before the daily file is made, nothing to read, nothing made.
  const regulator = { ...adminScope, actor: 'user:inspetora@spa', readOnly: true as const };
  t.match(
    errorOf(await s.call('compliance.admin.sigap.day.get', { scope: regulator, params: { brandId: op.brandId, date } })),
    { code: 'VALIDATION_ERROR', details: { in: 'path', issues: [{ path: '/date', message: /no file is kept for this day yet/ }] } },
    "the regulator's read of a day not made: refused, and it makes nothing",
  );
  t.equal((await s.db.query('select count(*)::int as n from compliance.daily_reports where brand_id = $1', [op.brandId])).rows[0].n, 0, 'no daily file made');
  const daily = ok<DailyFileCheck>(await s.call('compliance.admin.reports.files.get', { scope: adminScope, params: { brandId: op.brandId, date } }));
  t.equal(daily.ties, true, 'the daily file ties');
  t.same(
    ok<SigapDay>(await s.call('compliance.admin.sigap.day.get', { scope: regulator, params: { brandId: op.brandId, date } })).files,
    [],
    'the daily file made, the SIGAP files not yet: the regulator reads none and makes none',
  );

  const made = ok<SigapDay>(await s.call('compliance.admin.sigap.day.get', { scope: adminScope, params: { brandId: op.brandId, date } }));
  t.match(made, { brandId: op.brandId, date, timeZone, accepted: false, dailyFileTies: true, problems: [] }, 'made, not sent yet');
  t.equal(made.deadline, deadlineOf(date, timeZone).toISOString(), "the deadline: 06:00 the day after in the brand's zone (issue #61)");
  t.same(
    made.files.map((f) => [f.fileType, f.version, f.part, f.parts, f.records, f.status]),
    [
      ['bettors', 1, 1, 1, 2, 'made'],
      ['wallets', 1, 1, 1, 2, 'made'],
      // 3 rounds of ours (a bet and a win each) and the aggregator's bet and win: 8 records, 4 a part.
      ['online_games', 1, 1, 2, 4, 'made'],
      ['online_games', 1, 2, 2, 4, 'made'],
      ['sports_bets', 1, 1, 1, 2, 'made'],
      ['legal_destinations', 1, 1, 1, 1, 'made'],
    ],
    'a file per type, split in parts of at most 4 records',
  );
  const again = ok<SigapDay>(await s.call('compliance.admin.sigap.day.get', { scope: adminScope, params: { brandId: op.brandId, date } }));
  t.same(
    again.files.map((f) => f.id),
    made.files.map((f) => f.id),
    'made once',
  );
  t.same(
    ok<SigapDay>(await s.call('compliance.admin.sigap.day.get', { scope: regulator, params: { brandId: op.brandId, date } })).files.map((f) => f.id),
    made.files.map((f) => f.id),
    'the regulator reads the files made',
  );

  // What the files say, from the daily file's lines.
  const doc = async (type: string, part = 1) => JSON.parse(await download(s, current(made, type)[part - 1]!));
  const bettors = await doc('bettors');
  t.match(bettors, { layout: 'sigap-assumed/1', fileType: 'bettors', brandId: op.brandId, referenceDate: date, recordCount: 2, part: 1, parts: 1 });
  const cpfA = await s.cpfOf(a);
  const byPlayer = Object.fromEntries(bettors.records.map((r: any) => [r.playerId, r]));
  t.match(byPlayer[a], { cpf: cpfA, statusCode: 1, status: 'ativo' }, 'a bettor: CPF, and status code 1 (Ativo)');
  t.match(byPlayer[b], { statusCode: 6, status: 'suspenso', statusChangedOnDay: true }, 'a suspended one: 6 (Suspenso preventivamente)');
  const wallets = await doc('wallets');
  const wa = wallets.records.find((r: any) => r.playerId === a);
  t.match(wa, { cpf: cpfA, opening: '0.00', deposits: '100.00', withdrawals: '-30.00', bets: '-35.00', closing: wa.closing });
  t.match(
    wa.movements,
    [
      { id: depA.id, type: 'deposit', amount: '100.00', counterpart: cpfA },
      { id: w.id, type: 'withdrawal', amount: '30.00', counterpart: cpfA },
    ],
    'its deposit and its payout',
  );
  const games = [...(await doc('online_games', 1)).records, ...(await doc('online_games', 2)).records];
  t.same(
    games.map((r: any) => [r.kind, r.amount, r.providerName === 'in-house studio' ? 'ours' : r.gameCode]),
    [
      ['bet', '10.00', 'ours'],
      ['win', games[1].amount, 'ours'],
      ['bet', '10.00', 'ours'],
      ['win', games[3].amount, 'ours'],
      ['bet', '10.00', 'ours'],
      ['win', games[5].amount, 'ours'],
      ['bet', '5.00', 'sweet-fruits'],
      ['win', '12.00', 'sweet-fruits'],
    ],
    'our rounds (a bet and a win each) and the aggregator casino round, in time order',
  );
  const bets = (await doc('sports_bets')).records;
  t.match(bets, [
    { kind: 'bet', playerId: b, betId: slipId, amount: '20.00', sport: 'football', selection: 'Flamengo', odds: '2.35', providerId: sports.providerId },
    { kind: 'win', betId: slipId, amount: '47.00', outcome: 'won' },
  ]);
  const [legal] = (await doc('legal_destinations')).records;
  // The bettors' bets (our 30.00, the aggregator's 5.00, the sportsbook's 20.00) less their wins.
  t.match(legal, { currency: 'BRL', stakes: '55.00', prizes: daily.totals.wins, otherMovements: '0.00', rate: '0.12' });
  t.equal(legal.ggr, new Money(55).minus(daily.totals.wins).toFixed(2), 'the gross gaming revenue: stakes less prizes');
  t.equal(legal.share, Money.max(new Money(legal.ggr), 0).times('0.12').toFixed(2), 'and its share for the legal destinations');

  // Three files go wrong before they are sent: a balance off by 1.00 (its hash made anew, as a
  // maker's bug would), a field left out (likewise), and one altered after its hash.
  const corrupt = async (f: SigapFile, edit: (d: any) => void, rehash: boolean) => {
    const d = JSON.parse(await download(s, f));
    edit(d);
    const content = JSON.stringify(d);
    await s.db.query('update compliance.sigap_files set content = $2, checksum = case when $3 then $4 else checksum end where id = $1', [
      f.id,
      content,
      rehash,
      sha256(content),
    ]);
  };
  await corrupt(
    current(made, 'wallets')[0]!,
    (d) => {
      d.records[0].closing = (Number(d.records[0].closing) + 1).toFixed(2);
    },
    true,
  );
  await corrupt(
    current(made, 'bettors')[0]!,
    (d) => {
      delete d.records[1].statusCode;
    },
    true,
  );
  await corrupt(
    current(made, 'sports_bets')[0]!,
    (d) => {
      d.records[0].amount = '2.00';
    },
    false,
  );

  const sent = ok<SigapDay>(await s.call('compliance.admin.sigap.day.submit', { scope: adminScope, params: { brandId: op.brandId, date } }));
  t.equal(sent.accepted, false, 'not all accepted');
  t.same(
    sent.files.map((f) => [f.fileType, f.status, f.phase, f.via, f.attempts]),
    [
      ['bettors', 'rejected', 'structure', 'simulator', 1],
      ['wallets', 'rejected', 'quality', 'simulator', 1],
      ['online_games', 'accepted', null, 'simulator', 1],
      ['online_games', 'accepted', null, 'simulator', 1],
      ['sports_bets', 'rejected', 'structure', 'simulator', 1],
      ['legal_destinations', 'accepted', null, 'simulator', 1],
    ],
    'each file answered',
  );
  for (const f of sent.files.filter((x) => x.status === 'accepted')) t.match(f, { receipt: /^SIM-[0-9A-F]{20}$/, answeredAt: /Z$/, reasons: [] });
  t.match(
    current(sent, 'wallets')[0]!.reasons,
    [{ code: 'BALANCE_MISMATCH', field: 'closing', record: 0, message: /closing says/ }],
    'the quality reason names the record',
  );
  t.match(current(sent, 'bettors')[0]!.reasons, [{ code: 'FIELD_MISSING', field: 'statusCode', record: 1 }]);
  t.match(current(sent, 'sports_bets')[0]!.reasons, [{ code: 'CHECKSUM_MISMATCH' }]);
  t.equal(current(sent, 'wallets')[0]!.receipt, null);

  const resent = ok<SigapDay>(await s.call('compliance.admin.sigap.day.submit', { scope: adminScope, params: { brandId: op.brandId, date } }));
  t.same(
    resent.files.map((f) => [f.status, f.attempts]),
    sent.files.map((f) => [f.status, f.attempts]),
    'sending again sends nothing: an accepted file stands, a rejected one waits for its correction',
  );
  t.match(
    errorOf(
      await s.call('compliance.admin.sigap.file.resend', {
        scope: adminScope,
        params: { brandId: op.brandId, date },
        body: { fileType: 'online_games', correction: 'nothing to correct' },
      }),
    ),
    { code: 'SIGAP_FILE_NOT_REJECTED', details: { fileType: 'online_games', status: 'accepted' } },
    'an accepted type is not sent again',
  );

  let day = sent;
  for (const fileType of ['wallets', 'bettors', 'sports_bets'] as const) {
    day = ok<SigapDay>(
      await s.call('compliance.admin.sigap.file.resend', {
        scope: adminScope,
        params: { brandId: op.brandId, date },
        body: { fileType, correction: `${fileType}: made again from the daily file` },
      }),
    );
    const [v2] = current(day, fileType);
    t.match(
      v2,
      { version: 2, status: 'accepted', receipt: /^SIM-/, correction: `${fileType}: made again from the daily file` },
      `${fileType}: version 2 accepted`,
    );
    t.match(
      day.files.find((f) => f.fileType === fileType && f.version === 1),
      { status: 'rejected', supersededAt: /Z$/, reasons: [{}] },
      'version 1 kept with its rejection',
    );
  }
  t.equal(day.accepted, true, 'the day is accepted');
  const v2 = current(day, 'wallets')[0]!;
  const content = await download(s, v2);
  t.equal(sha256(content), v2.checksum, 'the download is the file as sent');

  const list = ok<{ data: SigapFile[]; nextCursor: string | null }>(
    await s.call('compliance.admin.sigap.files.list', { scope: adminScope, query: { brandId: op.brandId, status: 'rejected' } }),
  );
  t.same(list.data.map((f) => f.fileType).sort(), ['bettors', 'sports_bets', 'wallets'], 'the rejected versions, listed');
  const page = ok<{ data: SigapFile[]; nextCursor: string | null }>(
    await s.call('compliance.admin.sigap.files.list', { scope: adminScope, query: { brandId: op.brandId, limit: 5 } }),
  );
  const rest = ok<{ data: SigapFile[]; nextCursor: string | null }>(
    await s.call('compliance.admin.sigap.files.list', { scope: adminScope, query: { brandId: op.brandId, limit: 5, cursor: page.nextCursor! } }),
  );
  t.equal(page.data.length + rest.data.length, 9, 'every version of every part, over two pages');
  t.equal(rest.nextCursor, null);

  // The job's pass: yesterday of the brand (the day after `date`: no activity) is made and sent.
  const compliance = s.services.get('compliance')!;
  const simulator = sigapSimulator({ maxRecords: 4 });
  const deps: SigapDeps = { sql: compliance.sql, call: compliance.call, ports: { production: simulator, sandbox: simulator }, recordsPerFile: 4 };
  t.same(await sigapPass(deps, clock()), { notAccepted: 0, dueSoon: 0, overdue: 0 }, "the job sends yesterday's files, accepted");
});

t.test('the job: a brand whose yesterday is not accepted counts, and past 06:00 São Paulo it is overdue', async (t) => {
  const s = await startComplianceStack(t, 'amlsigapjob');
  const op = await s.brSpaOperator();
  ok(
    await s.call('players.admin.setCompliance', {
      scope: adminScope,
      params: { id: op.operatorId },
      body: { profile: 'br-spa', timeZone: 'America/Sao_Paulo', reason: 'the operator is licensed in Brazil' },
    }),
  );
  const p = await s.player(op);
  await s.deposit(op, p, '10.00');
  await s.watched(p, 1);
  // Then an impediment hit for a social programme restricts the bettor (as the day's check would
  // write it; test-only edits of players' tables): SIGAP's status 10 from the next file on.
  const cpf = await s.cpfOf(p);
  await s.db.query(
    `insert into players.impediment_checks (operator_id, brand_id, player_id, cpf, moment, outcome, reasons, at)
     values ($1, $2, $3, $4, 'login', 'impeded', 'social_program', now())`,
    [op.operatorId, op.brandId, p, cpf],
  );
  await s.db.query(`update players.players set status = 'restrito', restricted_at = now() where id = $1`, [p]);
  const compliance = s.services.get('compliance')!;
  // A SIGAP that rejects everything (a structure failure), and one that is down.
  const rejecting = {
    via: 'sigap' as const,
    submit: async () => ({ outcome: 'rejected' as const, phase: 'structure' as const, reasons: [{ code: 'X', field: null, record: null, message: 'no' }] }),
    status: async () => ({ outcome: 'unavailable' as const, why: 'none' }),
  };
  const deps: SigapDeps = { sql: compliance.sql, call: compliance.call, ports: { production: rejecting, sandbox: rejecting }, recordsPerFile: 7000 };
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date());
  // 05:59 and 06:00 São Paulo (UTC−3) of the day after the brand's yesterday.
  const tomorrow = new Date(Date.parse(`${today}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  const at = (hhmm: string) => new Date(`${tomorrow}T${hhmm}:00-03:00`);
  // The daily file made (the daily job, at 05:00), then one of its lines lost: it no longer ties, and
  // no SIGAP file is made from it.
  t.equal(await makeYesterdaysFiles(compliance, at('05:00')), 1, 'the daily file made');
  const [line] = (
    await s.db.query(`delete from compliance.daily_file_lines where brand_id = $1 and date = $2 and part = 'deposits' returning *`, [op.brandId, today])
  ).rows;
  t.same(await sigapPass(deps, at('05:30')), { notAccepted: 1, dueSoon: 1, overdue: 0 }, 'not accepted: nothing to send');
  const blocked = ok<SigapDay>(await s.call('compliance.admin.sigap.day.get', { scope: adminScope, params: { brandId: op.brandId, date: today } }));
  t.match(blocked, { dailyFileTies: false, files: [], problems: [/deposits/] }, 'the daily file does not tie: no SIGAP file made, the problems named');
  await s.db.query('insert into compliance.daily_file_lines (brand_id, date, part, ref, player_id, at, data) values ($1, $2, $3, $4, $5, $6, $7)', [
    line.brand_id,
    line.date,
    line.part,
    line.ref,
    line.player_id,
    line.at,
    line.data,
  ]);
  t.same(await sigapPass(deps, at('05:59')), { notAccepted: 1, dueSoon: 1, overdue: 0 }, 'not accepted, before the deadline');
  t.same(await sigapPass(deps, at('06:00')), { notAccepted: 1, dueSoon: 0, overdue: 1 }, 'at 06:00 São Paulo: overdue');
  const day = ok<SigapDay>(await s.call('compliance.admin.sigap.day.get', { scope: adminScope, params: { brandId: op.brandId, date: today } }));
  t.match(day.files[0], { status: 'rejected', attempts: 1, reasons: [{ code: 'X' }] }, 'sent once: a rejection waits for a correction');
  const bettors = JSON.parse(
    ok<FileChunk>(
      await s.call('compliance.admin.sigap.file.download', {
        scope: adminScope,
        params: { brandId: op.brandId, date: today, fileId: day.files[0]!.id },
        query: {},
      }),
    ).chunk,
  );
  t.match(
    bettors.records,
    [{ playerId: p, cpf, status: 'restrito', statusCode: 10 }],
    'a bettor restricted for a social programme: status 10 (Exclusão – Programas Sociais)',
  );
});
