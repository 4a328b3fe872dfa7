// Personal data under the LGPD (issue #69; docs/privacy.md), on the six services that hold it, with
// real Postgres and NATS: every table of every schema is in a catalogue (a new one fails here), a
// player's access and portability requests answered with every category's rows and none of the AML
// data, a correction, a deletion that anonymises what no duty keeps and refuses the rest with its
// duty, a request a service could not answer answered later and listed as overdue meanwhile, and the
// retention sweep that anonymises a player five years after the account closed, restartable, with the
// ledger still verifying and every amount kept.
import t from 'tap';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import {
  PERSONAL_DATA_SERVICES,
  personalDataMessages,
  retentionTableRows,
  type DataRequest,
  type FileChunk,
  type OperatorScope,
  type PersonalDataExport,
} from '@bo/contracts';
import { operatorsPersonalData, operatorsService } from '@bo/operators';
import { paymentsPersonalData } from '@bo/payments';
import { playersPersonalData } from '@bo/players';
import { walletPersonalData, walletService } from '@bo/wallet';
import { webhooksPersonalData, webhooksService } from '@bo/webhooks';
import { exportPersonalData, personalDataCoverage, sqlOnPool, type PersonalDataCatalogue } from '@bo/service-kit';
import { setRuleClockOffset, waitFor } from '@bo/service-kit/testing';
import { adminScope, assertLedgerSound, errorOf, internalScope, ok, operatorScope, setStatus } from '@bo/test-support';
import { compliancePersonalData } from '../src/index.ts';
import { key, startComplianceStack } from './support/stack.ts';

const CATALOGUES: PersonalDataCatalogue[] = [
  playersPersonalData,
  walletPersonalData,
  paymentsPersonalData,
  compliancePersonalData,
  operatorsPersonalData,
  webhooksPersonalData,
];
const DAY = 86_400_000;

t.test("docs/privacy.md's retention table is the code's", async (t) => {
  const page = readFileSync(path.resolve(import.meta.dirname, '../../../docs/privacy.md'), 'utf8');
  const rows = retentionTableRows();
  t.same(
    rows.filter((row) => !page.includes(row)),
    [],
    `every category's row as PERSONAL_DATA_CATEGORIES says it (${rows.length} rows)`,
  );
  const documented = page.split('\n').filter((line) => /^\| `[a-zA-Z]+` \| /.test(line) && line.split('|').length === 8);
  t.equal(documented.length, rows.length, 'and no other row');
});

t.test('personal data: the catalogues, data requests and the retention sweep', async (t) => {
  const stack = await startComplianceStack(t, 'privacy', { players: { PRIVACY_LOOP_MS: 200 } });
  await stack.start(operatorsService);
  await stack.start(webhooksService);
  t.teardown(() => setRuleClockOffset(0));
  const db = new pg.Pool({ connectionString: stack.databaseUrl, max: 2 });
  t.teardown(() => db.end());
  const sql = sqlOnPool(db);
  const { call, cpfOf } = stack;
  // br-spa: the deposit keeps its payer (Ordinance 615/2024), the registration its sign-up IP.
  const scope: OperatorScope = await stack.brSpaOperator('sandbox');
  const player = async () => {
    const id = await stack.player(scope);
    ok(await call('players.marketing.setConsent', { scope, key: key('mkt'), params: { playerId: id }, body: { consent: true } }));
    return id;
  };
  const file = (playerId: string, body: Record<string, unknown>) =>
    call<DataRequest>('players.dataRequests.file', { scope, key: key('dsr'), params: { playerId }, body });
  // The file as the gateway streams it: chunk after chunk, each one message, joined.
  const fileTextOf = async (playerId: string, requestId: string) => {
    let text = '';
    let cursor: string | null | undefined;
    do {
      const chunk = ok<FileChunk>(await call('players.dataRequests.download', { scope, params: { playerId, requestId }, query: cursor ? { cursor } : {} }));
      text += chunk.chunk;
      cursor = chunk.nextCursor;
    } while (cursor);
    return text;
  };
  const fileOf = async (playerId: string, requestId: string) => JSON.parse(await fileTextOf(playerId, requestId));

  await t.test('every table of every schema is in a catalogue, and a new one is found', async (t) => {
    for (const c of CATALOGUES) t.same(await personalDataCoverage(sql, c), [], `${c.schema}: every table named, every named column there`);
    await sql.query('create table compliance.lgpd_probe (id text primary key, player_id text, payer_cpf text)');
    t.teardown(() => sql.query('drop table compliance.lgpd_probe'));
    t.same(
      await personalDataCoverage(sql, compliancePersonalData),
      ["compliance.lgpd_probe: not in the personal-data catalogue (a player's table, or one that holds nothing about players)"],
      'a table the catalogue does not name fails',
    );
    const saysNone = { ...compliancePersonalData, none: { ...compliancePersonalData.none, lgpd_probe: 'nothing' } };
    t.same(
      await personalDataCoverage(sql, saysNone),
      [
        "compliance.lgpd_probe.payer_cpf: a person's column in a table the catalogue calls empty of players",
        "compliance.lgpd_probe.player_id: a person's column in a table the catalogue calls empty of players",
      ],
      'a table called empty of players that names a person fails',
    );
  });

  const maria = await player();
  await stack.deposit(scope, maria, '100.00', 'Maria Teste');
  await stack.play(scope, maria, '1.00', 3);
  const withdrawal = await stack.withdraw(scope, maria, '10.00');
  const mariaCpf = await cpfOf(maria);
  // Terms accepted from an IP: a connection record, kept six months.
  ok(await call('players.terms.versions.publish', { scope, key: key('terms'), body: { version: '2026.1' } }));
  ok(await call('players.terms.accept', { scope, key: key('accept'), params: { playerId: maria }, body: { version: '2026.1', ip: '203.0.113.9' } }));

  await t.test('access: every category of every service, the AML data never, the file as answered', async (t) => {
    const request = ok<DataRequest>(await file(maria, { type: 'access', reference: 'ticket-1' }));
    t.match(request, { type: 'access', status: 'answered', reference: 'ticket-1', playerId: maria }, 'answered at once: every service answered');
    t.equal(new Date(request.dueAt).getTime() - new Date(request.receivedAt).getTime(), 15 * DAY, 'due 15 days after it was received');
    const text = await fileTextOf(maria, request.id);
    t.equal(createHash('sha256').update(text).digest('hex'), request.answer!.file!.sha256, 'the file is the one the answer names');
    const body = JSON.parse(text);
    const tables = (category: string) => (body.categories.find((c: any) => c.category === category)?.tables ?? []).map((x: any) => x.table);
    t.same(tables('identity').slice(0, 1), ['players.players'], 'identity: the registration');
    t.equal(body.categories.find((c: any) => c.category === 'identity').tables[0].rows[0].cpf, mariaCpf, 'with the CPF whole');
    t.ok(
      tables('money').includes('payments.deposits') && tables('money').includes('wallet.ledger_entries') && tables('money').includes('payments.withdrawals'),
      'money: deposits, withdrawals, the ledger',
    );
    t.ok(tables('play').includes('wallet.game_rounds') && tables('play').includes('wallet.game_sessions'), 'play: sessions and rounds');
    t.ok(tables('responsibleGaming').includes('players.rg_limits'), 'responsible gaming: the limits');
    t.ok(
      tables('marketing').includes('players.marketing_suppressions') || body.categories.some((c: any) => c.category === 'marketing'),
      'marketing is a category',
    );
    t.same(body.categories.map((c: any) => c.category).includes('aml'), false, 'no AML category in the file');
    t.same(
      body.notShown.map((c: any) => c.category),
      ['aml'],
      'the AML category named as never shown, whatever it holds',
    );
    t.notMatch(JSON.stringify(body), /compliance\.(cases|watched_money|screened_players|player_risk)/, 'no AML table');
    const deposits = body.categories.find((c: any) => c.category === 'money').tables.find((x: any) => x.table === 'payments.deposits').rows;
    t.equal(deposits[0].payer_cpf, mariaCpf, 'the deposit with its payer');
    t.equal(deposits[0].amount, '100.00', 'its amount as the text of the NUMERIC, never a float');
    t.notOk('confirm_key' in deposits[0], 'internal columns left out');
    const identity = body.categories.find((c: any) => c.category === 'identity');
    t.match(
      identity,
      { legalBasis: { basis: /legal obligation/ }, retention: /5 years after it is closed/, keptUntil: null },
      'each category with its legal basis and retention',
    );
    // The export holds every column of each table it exports but the internal ones. One assertion for
    // them all: which tables hold a row of Maria's yet depends on background work (the harm feed's days
    // and levels follow her deposits and rounds), and a test asserts the same number of times every run.
    const columns = async (table: string) =>
      (await sql.query<{ c: string }>('select column_name as c from information_schema.columns where table_schema = ? and table_name = ?', table.split('.')))
        .map((r) => r.c)
        .sort();
    const exported: string[] = [];
    const columnsMissed: string[] = [];
    for (const category of body.categories)
      for (const x of category.tables) {
        const c = CATALOGUES.find((k) => k.schema === x.table.split('.')[0])!;
        const internal = c.players[x.table.split('.')[1]]!.internal ?? [];
        const expected = (await columns(x.table)).filter((col) => !internal.includes(col));
        exported.push(x.table);
        if (JSON.stringify(Object.keys(x.rows[0]).sort()) !== JSON.stringify(expected))
          columnsMissed.push(`${x.table}: exported ${Object.keys(x.rows[0]).sort().join(', ')}; has ${expected.join(', ')}`);
      }
    t.same(columnsMissed, [], `every column of the ${exported.length} tables exported (${exported.join(', ')})`);
  });

  await t.test("a service's export in pages: each within a message, together the whole", async (t) => {
    // Enough deposits (failed copies of Maria's: no money moved) that the file passes one NATS message (1 MB);
    // each payer's name holds a character outside the BMP (one code point, two JS characters) across every chunk.
    await sql.query(
      `insert into payments.deposits
       select (jsonb_populate_record(null::payments.deposits,
                 to_jsonb(d) || jsonb_build_object('id', d.id || '_' || g, 'external_reference', 'bulk-' || g, 'status', 'failed',
                                              'confirmed_at', null, 'failed_at', d.created_at, 'payer_name', 'Maria 🎰 Teste'))).*
         from payments.deposits d, generate_series(1, 3000) g where d.player_id = ?`,
      [maria],
    );
    t.teardown(() => sql.query(`delete from payments.deposits where player_id = ? and external_reference like 'bulk-%'`, [maria]));
    const whole = await exportPersonalData(sql, paymentsPersonalData, maria);
    const pages: PersonalDataExport[] = [];
    let after: PersonalDataExport['next'];
    do {
      const page = ok<PersonalDataExport>(
        await call(personalDataMessages('payments').export.subject, {
          scope: internalScope('players'),
          body: { playerId: maria, ...(after ? { after } : {}) },
        }),
      );
      pages.push(page);
      after = page.next;
    } while (after);
    t.ok(pages.length > 1 && pages.every((p) => Buffer.byteLength(JSON.stringify(p)) < 1_000_000), `${pages.length} pages, each within one message`);
    const joined = pages
      .flatMap((p) => p.tables)
      .filter((x) => x.table === 'payments.deposits')
      .flatMap((x) => x.rows);
    t.same(joined, whole.tables.find((x) => x.table === 'payments.deposits')!.rows, 'the pages joined are every row once, in order');
    t.equal(joined.length, 3001);

    const request = ok<DataRequest>(await file(maria, { type: 'access' }));
    t.equal(request.status, 'answered', 'the access request is answered');
    const text = await fileTextOf(maria, request.id);
    t.ok(Buffer.byteLength(text) > 1_048_576, `a file of ${Buffer.byteLength(text)} bytes, larger than one message`);
    t.equal(createHash('sha256').update(text).digest('hex'), request.answer!.file!.sha256, 'read whole, chunk by chunk');
    const deposits = JSON.parse(text)
      .categories.find((c: any) => c.category === 'money')
      .tables.find((x: any) => x.table === 'payments.deposits').rows;
    t.equal(deposits.length, 3001, 'with every deposit');
    t.equal(deposits.filter((d: any) => d.payer_name === 'Maria 🎰 Teste').length, 3000, 'a character outside the BMP never split nor repeated between chunks');
    t.equal(
      errorOf(
        await call('players.dataRequests.download', { scope, params: { playerId: maria, requestId: request.id }, query: { cursor: String(text.length + 1) } }),
      )?.code,
      'VALIDATION_ERROR',
      'a cursor past the end is refused',
    );
  });

  await t.test('portability: the same machine-readable file', async (t) => {
    const request = ok<DataRequest>(await file(maria, { type: 'portability' }));
    t.equal(request.status, 'answered');
    t.equal((await fileOf(maria, request.id)).format, 'bo.personal-data/1', 'JSON of a named format');
  });

  await t.test('correction: the registration changed the way the PATCH does, each field with before and after', async (t) => {
    const request = ok<DataRequest>(await file(maria, { type: 'correction', corrections: { email: 'maria.nova@example.com', phone: '+5511911112222' } }));
    t.match(request, {
      status: 'answered',
      answer: {
        corrected: [
          { field: 'email', before: 'maria@example.com', after: 'maria.nova@example.com' },
          { field: 'phone', after: '+5511911112222' },
        ],
      },
    });
    const now = ok<any>(await call('players.get', { scope, params: { playerId: maria } }));
    t.equal(now.email, 'maria.nova@example.com', 'the player reads the corrected e-mail');
    t.equal(errorOf(await file(maria, { type: 'correction' }))?.code, 'VALIDATION_ERROR', 'a correction without fields is refused');
    t.equal(errorOf(await file(maria, { type: 'access', corrections: { email: 'x@example.com' } }))?.code, 'VALIDATION_ERROR', 'fields only with a correction');
    t.equal(errorOf(await file(maria, { type: 'correction', corrections: { cpf: '52998224725' } }))?.code, 'VALIDATION_ERROR', 'the CPF never changes');
    t.equal(
      errorOf(await call('players.dataRequests.get', { scope: operatorScope('other'), params: { playerId: maria, requestId: request.id } }))?.code,
      'PLAYER_NOT_FOUND',
      'another brand never reads it',
    );
  });

  await t.test('deletion: the consent and the old connection data go, the rest refused with its duty', async (t) => {
    const request = ok<DataRequest>(await file(maria, { type: 'deletion' }));
    t.equal(request.status, 'partly_refused');
    t.same(request.answer!.anonymised, ['marketing', 'connection'], 'what only consent keeps, and connection data past six months');
    const kept = Object.fromEntries(request.answer!.kept!.map((k) => [k.category, k]));
    t.match(kept.money, { duty: 'Lei 9.613/1998, art. 10, I, II and §2', keptUntil: null }, 'money kept five years after the account closes: it is open');
    t.ok(kept.aml && kept.identity && kept.play, 'identity, play and AML kept');
    t.match(
      kept.connection,
      { duty: 'Lei 12.965/2014, art. 15', keptUntil: /^\d{4}-\d{2}-\d{2}$/ },
      "the terms acceptance's IP, younger than six months, kept until its months end",
    );
    const now = ok<any>(await call('players.get', { scope, params: { playerId: maria } }));
    t.match(now.marketing, { consent: false, allowed: false }, 'the marketing consent withdrawn');
    t.match(now, { signupIp: '198.51.100.7', registration: { complete: true } }, 'the sign-up IP kept with the registration: it stays complete');
    t.equal(await cpfOf(maria), mariaCpf, 'the CPF kept');
  });

  await t.test('a service that does not answer: received, overdue after 15 days, answered when it is back', async (t) => {
    await stack.stop('wallet');
    const request = ok<DataRequest>(await file(maria, { type: 'access' }));
    t.equal(request.status, 'received', 'received: the wallet did not answer');
    setRuleClockOffset(16 * DAY);
    const overdue = ok<{ data: any[] }>(await call('players.admin.dataRequests', { scope: adminScope, query: { overdue: true } }));
    t.match(overdue.data, [{ id: request.id, overdue: true, operatorId: scope.operatorId }], 'listed as overdue for our team');
    await stack.start(walletService);
    await waitFor(
      async () => ok<DataRequest>(await call('players.dataRequests.get', { scope, params: { playerId: maria, requestId: request.id } })).status === 'answered',
      {
        what: 'the privacy loop answers the request',
      },
    );
    t.same(
      ok<{ data: any[] }>(await call('players.admin.dataRequests', { scope: adminScope, query: { overdue: true } })).data,
      [],
      'nothing overdue once answered',
    );
    setRuleClockOffset(0);
  });

  await t.test("six months on: a terms acceptance's IP anonymised, the registration untouched and still complete", async (t) => {
    // A request the wallet cannot answer meanwhile waits for it, and holds up nothing else.
    await stack.stop('wallet');
    const waiting = ok<DataRequest>(await file(maria, { type: 'access' }));
    t.equal(waiting.status, 'received', 'an access request the wallet cannot answer');
    setRuleClockOffset(200 * DAY);
    await waitFor(async () => (await sql.query(`select 1 from players.terms_acceptances where player_id = ? and ip = ''`, [maria])).length === 1, {
      what: "the sweep anonymises the terms acceptance's IP",
    });
    t.pass('the sweep ran while the request waited');
    await stack.start(walletService);
    await waitFor(
      async () => ok<DataRequest>(await call('players.dataRequests.get', { scope, params: { playerId: maria, requestId: waiting.id } })).status === 'answered',
      {
        what: 'the waiting request answered once the wallet is back',
      },
    );
    const now = ok<any>(await call('players.get', { scope, params: { playerId: maria } }));
    t.match(
      now,
      { signupIp: '198.51.100.7', registration: { complete: true } },
      'the sign-up IP kept: br-spa requires it, so the player may still deposit and bet',
    );
    t.same(
      await sql.query('select version from players.terms_acceptances where player_id = ?', [maria]),
      [{ version: '2026.1' }],
      'the acceptance itself kept',
    );
    setRuleClockOffset(0);
  });

  await t.test('the retention sweep: five years after the account closed, every service, restartable, the ledger verifying', async (t) => {
    const before = await sql.query<{ amount: string }>('select amount::text from payments.deposits where player_id = ? order by created_at', [maria]);
    const entries = await sql.query<{ n: string }>(
      'select count(*) as n from wallet.ledger_entries e join wallet.accounts a on a.id = e.account_id where a.player_id = ?',
      [maria],
    );
    ok(await call('payments.withdrawals.cancel', { scope, key: key('cancel'), params: { withdrawalId: withdrawal.id }, body: {} }));
    await setStatus(call, maria, 'encerrado');
    setRuleClockOffset(5 * 366 * DAY);
    await waitFor(async () => (await sql.query('select 1 from players.players where id = ? and anonymised_at is not null', [maria])).length === 1, {
      what: 'the sweep anonymises the closed player',
    });
    const [row] = await sql.query<any>('select name, cpf, email, phone, birth_date, address, signup_ip, marketing_consent from players.players where id = ?', [
      maria,
    ]);
    t.same(
      row,
      { name: 'Anonimizado', cpf: '00000000000', email: '', phone: null, birth_date: null, address: null, signup_ip: null, marketing_consent: false },
      'the registration anonymised',
    );
    t.same(
      await sql.query('select payer_cpf, payer_name from payments.deposits where player_id = ?', [maria]),
      before.map(() => ({ payer_cpf: null, payer_name: null })),
      "the deposits' payer anonymised",
    );
    t.same(
      await sql.query<{ amount: string }>('select amount::text from payments.deposits where player_id = ? order by created_at', [maria]),
      before,
      'every amount kept',
    );
    t.same(
      await sql.query<{ n: string }>('select count(*) as n from wallet.ledger_entries e join wallet.accounts a on a.id = e.account_id where a.player_id = ?', [
        maria,
      ]),
      entries,
      'every ledger entry kept',
    );
    await assertLedgerSound(t, stack);
    const again = await Promise.all(
      PERSONAL_DATA_SERVICES.map((service) =>
        call<{ rows: Record<string, number> }>(personalDataMessages(service).anonymise.subject, {
          scope: internalScope('players'),
          body: { playerId: maria, categories: ['identity', 'contact', 'kyc', 'eligibility', 'money', 'aml', 'connection', 'marketing'] },
        }),
      ),
    );
    t.same(
      again.flatMap((r) => Object.values(ok(r).rows)).filter((n) => n > 0),
      [],
      'a second pass changes nothing: restartable',
    );
    const text = JSON.stringify(
      await Promise.all(
        PERSONAL_DATA_SERVICES.map(async (service) =>
          ok(await call(personalDataMessages(service).export.subject, { scope: internalScope('players'), body: { playerId: maria } })),
        ),
      ),
    );
    const where = (needle: string) =>
      JSON.parse(text).flatMap((e: any) => e.tables.filter((x: any) => JSON.stringify(x.rows).includes(needle)).map((x: any) => x.table));
    t.same(where(mariaCpf), [], 'the CPF is nowhere in what any service holds about the player');
    t.same(where('maria.nova@example.com'), [], 'nor the e-mail');
  });
});
