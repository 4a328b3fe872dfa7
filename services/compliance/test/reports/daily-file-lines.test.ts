// The daily regulator file's line items through the real services (players, wallet, payments,
// compliance in-process, real Postgres and NATS): a day with deposits, game rounds, a paid
// withdrawal and status changes lists each one and ties to the ledger part; the whole file
// downloads as JSON (the same chunk by chunk however small the chunks) and a part as CSV; a
// corrupted or removed kept line makes the check fail; and the brand's time zone decides the day
// an item falls on (23:59 and 00:01 in São Paulo are two days, one in UTC).
import t from 'tap';
import pg from 'pg';
import type { DailyFileCheck, DailyFileSummary, FileChunk, Withdrawal } from '@bo/contracts';
import { setStatus } from '@bo/test-support';
import { dayBounds } from '../../src/domain/daily-file.ts';
import { dayBefore } from '../../src/reports/brand-zone.ts';
import { keptFile } from '../../src/store/daily-files.ts';
import { makeYesterdaysFiles } from '../../src/reports/daily-job.ts';
import { jsonChunk } from '../../src/reports/file-layout.ts';
import { adminScope, errorOf, key, ok, startComplianceStack, type ComplianceStack } from '../support/stack.ts';

const SAO_PAULO = 'America/Sao_Paulo';

async function download(s: ComplianceStack, brandId: string, date: string, query: Record<string, string>): Promise<{ body: string; first: FileChunk }> {
  let body = '';
  let first: FileChunk | undefined;
  let cursor: string | null = null;
  do {
    const chunk: FileChunk = ok(
      await s.call('compliance.admin.reports.files.download', {
        scope: adminScope,
        params: { brandId, date },
        query: { ...query, ...(cursor ? { cursor } : {}) },
      }),
    );
    first ??= chunk;
    body += chunk.chunk;
    cursor = chunk.nextCursor;
  } while (cursor);
  return { body, first: first! };
}

const fileOf = async (s: ComplianceStack, brandId: string, date: string) =>
  ok<DailyFileCheck>(await s.call('compliance.admin.reports.files.get', { scope: adminScope, params: { brandId, date } }));

t.test('a day of deposits, rounds, a payout and status changes: each line listed, tying; a corrupted line does not', async (t) => {
  let shift = 0;
  const clock = () => new Date(Date.now() + shift);
  const s = await startComplianceStack(t, 'amllines', { now: clock });
  const op = await s.brSpaOperator();
  // The brand's zone is its operator's profile: one where it is about noon now, so that every
  // movement below falls on the same local day.
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

  const a = await s.player(op);
  const b = await s.player(op);
  const depA = await s.deposit(op, a, '100.00');
  const depB = await s.deposit(op, b, '50.00');
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
  await setStatus(s.call, b, 'suspenso');
  await setStatus(s.call, b, 'ativo');
  // The watch has seen the brand's money: the service knows the brand's operator, hence its zone.
  await s.watched(a, 2);
  await s.watched(b, 1);

  t.match(errorOf(await s.call('compliance.admin.reports.files.get', { scope: adminScope, params: { brandId: op.brandId, date } })), {
    code: 'VALIDATION_ERROR',
    details: { in: 'path', issues: [{ path: '/date' }] },
  });
  shift = 2 * 86_400_000;
  // The regulator (a read-only role, issue #69) reads kept files only: a due day not yet made stays unmade.
  const regulator = { ...adminScope, actor: 'user:inspetora@spa', readOnly: true as const };
  t.match(errorOf(await s.call('compliance.admin.reports.files.get', { scope: regulator, params: { brandId: op.brandId, date } })), {
    code: 'VALIDATION_ERROR',
    details: { in: 'path', issues: [{ path: '/date', message: /no file is kept for this day yet/ }] },
  });
  const kept = async () =>
    (await s.db.query('select count(*)::int as n, max(checked_at) as checked from compliance.daily_reports where brand_id = $1', [op.brandId])).rows[0];
  t.equal((await kept()).n, 0, "the regulator's read made no file");
  const file = await fileOf(s, op.brandId, date);
  const checkedBefore = (await kept()).checked;
  const read = ok<DailyFileCheck>(await s.call('compliance.admin.reports.files.get', { scope: regulator, params: { brandId: op.brandId, date } }));
  t.same([read.ties, read.counts], [file.ties, file.counts], 'the kept file, checked for the regulator');
  t.same((await kept()).checked, checkedBefore, 'and the check not kept: the read changed nothing');
  t.equal(file.ties, true, 'the file ties');
  t.same(file.problems, []);
  t.match(file, { timeZone, timeZoneSource: 'profile', operatorId: op.operatorId, date });
  t.same(file.counts, { bettors: 2, accounts: 2, deposits: 2, withdrawals: 1, rounds: 3, provider_transactions: 0, status_changes: 2 }, 'each part counted');
  t.match(file.totals, { deposits: '150.00', withdrawals: '-30.00', bets: '-30.00' });
  t.match(
    file.lineTotals,
    { deposits: '150.00', withdrawals: '30.00', stakes: '30.00', payouts: file.totals.wins },
    'the line items add up to the ledger part',
  );

  const json = await download(s, op.brandId, date, { format: 'json' });
  t.match(json.first, { filename: `daily-file_${op.brandId}_${date}.json`, contentType: /^application\/json/ });
  const doc = JSON.parse(json.body);
  t.match(doc, { layout: 'bo-daily-file/1', brandId: op.brandId, date, timeZone, ties: true });
  t.same(doc.deposits.map((d: { depositId: string }) => d.depositId).sort(), [depA.id, depB.id].sort(), 'each deposit');
  const cpfA = await s.cpfOf(a);
  const cpfB = await s.cpfOf(b);
  t.match(
    doc.deposits.find((d: { depositId: string }) => d.depositId === depA.id),
    {
      playerId: a,
      amount: '100.00',
      currency: 'BRL',
      method: 'pix',
      externalReference: depA.externalReference,
      payerCpf: cpfA,
      status: 'confirmed',
      bookedAt: /Z$/,
    },
  );
  t.match(doc.withdrawals, [{ withdrawalId: w.id, playerId: a, amount: '30.00', destination: cpfA, status: 'paid', paidAt: /Z$/ }], 'the payout');
  t.equal(doc.rounds.length, 3, 'each round');
  t.ok(
    doc.rounds.every((r: { playerId: string; gameId: string; amount: string }) => r.playerId === a && r.gameId === 'gm_dice_classic' && r.amount === '10.00'),
    'with its player, game and stake',
  );
  t.same(
    doc.bettors.map((x: { playerId: string; cpf: string; registeredOnDay: boolean; statusChangedOnDay: boolean; status: string }) => [
      x.playerId,
      x.cpf,
      x.registeredOnDay,
      x.statusChangedOnDay,
      x.status,
    ]),
    [
      [a, cpfA, true, false, 'ativo'],
      [b, cpfB, true, true, 'ativo'],
    ],
    'both bettors in the order they registered, that day; the second changed status (and back)',
  );
  t.same(
    doc.statusChanges.map((c: { playerId: string; previousStatus: string; status: string }) => [c.playerId, c.previousStatus, c.status]),
    [
      [b, 'ativo', 'suspenso'],
      [b, 'suspenso', 'ativo'],
    ],
    'the status changes in order',
  );
  t.equal(doc.accounts.length, 2, 'the ledger part');
  // The ledger part is asked a page at a time: one account a page gives the same accounts.
  const paged: unknown[] = [];
  let afterAccount: unknown;
  do {
    const page = ok<{ accounts: unknown[]; next: unknown }>(
      await s.call('wallet.ledgerDay', {
        scope: { kind: 'internal', service: 'compliance' },
        body: { brandId: op.brandId, from: file.from, to: file.to, limit: 1, ...(afterAccount ? { after: afterAccount } : {}) },
      }),
    );
    paged.push(...page.accounts);
    afterAccount = page.next;
  } while (afterAccount);
  t.same(paged, doc.accounts, 'the ledger part page by page');

  // The same document however small the chunks (one line each: pages within a part and across parts).
  const compliance = s.services.get('compliance')!;
  const row = (await keptFile(compliance.sql, op.brandId, date))!;
  let small = '';
  let cursor: string | undefined;
  let chunks = 0;
  do {
    const c = await jsonChunk(compliance, row, { brandId: op.brandId }, cursor, 1);
    small += c.chunk;
    cursor = c.nextCursor ?? undefined;
    chunks++;
  } while (cursor);
  const smallDoc = JSON.parse(small);
  t.ok(chunks > 10, 'many chunks');
  for (const part of ['bettors', 'accounts', 'deposits', 'withdrawals', 'rounds', 'statusChanges'])
    t.same(smallDoc[part], doc[part], `${part}: the same lines`);

  const csv = await download(s, op.brandId, date, { format: 'csv', part: 'deposits' });
  t.match(csv.first, { filename: `daily-file_${op.brandId}_${date}_deposits.csv`, contentType: /^text\/csv/ });
  const lines = csv.body.split('\r\n');
  t.equal(lines.at(-1), '', 'CRLF after every row');
  t.equal(
    lines[0],
    'brand_id,date,deposit_id,player_id,amount,currency,method,external_reference,payer_cpf,status,created_at,confirmed_at,booked_at',
    'the header row',
  );
  t.equal(lines.length, 4, 'a row per deposit');
  t.match(
    lines.find((l) => l.includes(depB.id)),
    new RegExp(`^${op.brandId},${date},${depB.id},${b},50\\.00,BRL,pix,`),
  );
  t.match(
    errorOf(await s.call('compliance.admin.reports.files.download', { scope: adminScope, params: { brandId: op.brandId, date }, query: { format: 'csv' } })),
    {
      code: 'VALIDATION_ERROR',
      details: { issues: [{ path: '/part' }] },
    },
  );

  // Corrupt one kept round's stake, then remove one kept deposit.
  await s.db.query(
    `update compliance.daily_file_lines set data = jsonb_set(data, '{amount}', '"1.00"')
     where brand_id = $1 and date = $2 and part = 'rounds' and ref = (select min(ref) from compliance.daily_file_lines where brand_id = $1 and date = $2 and part = 'rounds')`,
    [op.brandId, date],
  );
  const corrupted = await fileOf(s, op.brandId, date);
  t.equal(corrupted.ties, false, 'the check fails');
  t.match(
    corrupted.problems.join('\n'),
    new RegExp(`${a}/BRL: the bets line items add up to -21\\.00, the ledger part says -30\\.00`),
    'the stakes against the bets',
  );
  await s.db.query(`delete from compliance.daily_file_lines where brand_id = $1 and date = $2 and part = 'deposits' and ref = $3`, [op.brandId, date, depB.id]);
  const removed = await fileOf(s, op.brandId, date);
  t.match(removed.problems.join('\n'), /deposits: 2 lines when made, 1 kept now/, 'a line gone');
  t.match(removed.problems.join('\n'), new RegExp(`${b}/BRL: the deposits line items add up to 0\\.00, the ledger part says 50\\.00`));
  const listed = ok<{ data: DailyFileSummary[] }>(await s.call('compliance.admin.reports.files.list', { scope: adminScope, query: { brandId: op.brandId } }));
  t.match(listed.data, [{ brandId: op.brandId, date, ties: false, counts: { deposits: 2 } }], 'the list shows the last check');

  // The job makes each brand's yesterday in the brand's own zone: two days on, the day after `date` there.
  t.equal(await makeYesterdaysFiles(compliance, clock()), 1, 'the job made one file');
  const yesterday = dayBefore(new Intl.DateTimeFormat('en-CA', { timeZone }).format(clock()));
  t.not(yesterday, date);
  t.match(
    await keptFile(compliance.sql, op.brandId, yesterday),
    { time_zone: timeZone, time_zone_source: 'profile', ties: true },
    "yesterday in the brand's zone, checked",
  );
});

t.test("the brand's time zone decides the day: 23:59 and 00:01 in São Paulo", async (t) => {
  const s = await startComplianceStack(t, 'amlzone');
  const op = await s.brSpaOperator();
  ok(
    await s.call('players.admin.setCompliance', {
      scope: adminScope,
      params: { id: op.operatorId },
      body: { profile: 'br-spa', timeZone: SAO_PAULO, reason: 'the operator is licensed in Brazil' },
    }),
  );
  const p = await s.player(op);
  const late = await s.deposit(op, p, '40.00');
  const early = await s.deposit(op, p, '60.00');
  await s.play(op, p, '5.00', 1);
  await s.watched(p, 2);

  // Money moves at the database's own time: move this player's entries (in their order) to a day
  // ten days ago, 23:59 São Paulo, and 00:01 and 00:01:30 of the day after. A test-only edit of
  // an append-only table, as a restore of another day's data would be.
  const date = new Intl.DateTimeFormat('en-CA', { timeZone: SAO_PAULO }).format(new Date(Date.now() - 10 * 86_400_000));
  const { from, to } = dayBounds(date, SAO_PAULO);
  const at = (ms: number) => new Date(to.getTime() + ms).toISOString();
  const next = new Intl.DateTimeFormat('en-CA', { timeZone: SAO_PAULO }).format(new Date(to.getTime() + 1));
  const db = new pg.Client({ connectionString: s.databaseUrl });
  await db.connect();
  t.teardown(() => db.end());
  await db.query('set session_replication_role = replica');
  await db.query('update wallet.ledger_entries set created_at = $2 where reference_id = $1', [late.id, at(-60_000)]);
  await db.query('update wallet.ledger_entries set created_at = $2 where reference_id = $1', [early.id, at(60_000)]);
  await db.query(
    `update wallet.ledger_entries set created_at = $2 where type in ('BET', 'WIN')
       and reference_id in (select r.id from wallet.game_rounds r join wallet.game_sessions g on g.id = r.session_id where g.player_id = $1)`,
    [p, at(90_000)],
  );
  await db.query('update wallet.accounts set created_at = $2 where player_id = $1', [p, new Date(from.getTime() - 86_400_000)]);
  await db.query('update players.players set created_at = $2 where id = $1', [p, new Date(from.getTime() + 12 * 3_600_000)]);
  await db.query('reset session_replication_role');
  t.equal(new Date(at(-60_000)).toLocaleTimeString('en-GB', { timeZone: SAO_PAULO }), '23:59:00', `the first deposit at 23:59 on ${date} in São Paulo`);
  t.equal(new Date(at(60_000)).toLocaleTimeString('en-GB', { timeZone: SAO_PAULO }), '00:01:00', `the second at 00:01 on ${next}`);
  const utc = dayBounds(next, 'UTC');
  t.ok(
    [at(-60_000), at(60_000)].every((x) => Date.parse(x) >= utc.from.getTime() && Date.parse(x) < utc.to.getTime()),
    `both on ${next} in UTC`,
  );

  const first = await fileOf(s, op.brandId, date);
  t.match(first, { ties: true, timeZone: SAO_PAULO, timeZoneSource: 'profile', counts: { bettors: 1, deposits: 1, rounds: 0 } }, `${date}: one deposit`);
  t.match(first.totals, { opening: '0.00', deposits: '40.00', closing: '40.00' });
  const firstDoc = JSON.parse((await download(s, op.brandId, date, { format: 'json' })).body);
  t.same(
    firstDoc.deposits.map((d: { depositId: string }) => d.depositId),
    [late.id],
    'the 23:59 deposit',
  );
  t.match(firstDoc.bettors, [{ playerId: p, registeredOnDay: true }]);

  const second = await fileOf(s, op.brandId, next);
  t.match(second, { ties: true, counts: { bettors: 1, deposits: 1, rounds: 1 } }, `${next}: the other deposit and the round`);
  t.match(second.totals, { opening: '40.00', deposits: '60.00', bets: '-5.00' });
  const secondDoc = JSON.parse((await download(s, op.brandId, next, { format: 'json' })).body);
  t.same(
    secondDoc.deposits.map((d: { depositId: string }) => d.depositId),
    [early.id],
    'the 00:01 deposit',
  );
  t.match(secondDoc.rounds, [{ playerId: p, amount: '5.00' }]);
  t.match(secondDoc.bettors, [{ playerId: p, registeredOnDay: false, statusChangedOnDay: false }], 'the bettor who moved money that day');
});
