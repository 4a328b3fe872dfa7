// The kept daily regulator files on the admin API, through the real gateway (in-process, with the
// operators service it asks about tokens) and the real services: listed with a cursor, checked,
// downloaded as one JSON file and as a CSV per part (streamed by the gateway chunk by chunk, with
// the file's name), for compliance and finance only; and the team's CLI lists and downloads them.
import t from 'tap';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { adminOperations, type DailyFileCheck, type DailyFileSummary } from '@bo/contracts';
import { startGateway, loadGatewayConfig } from '@bo/gateway';
import { operatorsService } from '@bo/operators';
import { testNatsUrl } from '@bo/service-kit/testing';
import { dayBefore } from '../../src/reports/brand-zone.ts';
import { startComplianceStack } from '../support/stack.ts';

const ADMIN_TOKEN = 'test-admin-token-daily-files-0123456789';
const CLI = path.resolve(import.meta.dirname, '../../../../scripts/admin-cli.ts');

t.test('daily files on the admin API and the CLI', async (t) => {
  let shift = 0;
  const s = await startComplianceStack(t, 'amlfilesapi', { now: () => new Date(Date.now() + shift) });
  await s.start(operatorsService);
  const gw = await startGateway(
    loadGatewayConfig({
      DATABASE_URL: s.databaseUrl,
      NATS_URL: testNatsUrl(),
      NATS_PREFIX: s.prefix,
      PORT: '0',
      ADMIN_PORT: '0',
      ADMIN_TOKEN,
      RPC_TIMEOUT_MS: '30000',
      LOG_LEVEL: 'warn',
    }),
  );
  t.teardown(() => gw.stop());
  const get = (p: string, token = ADMIN_TOKEN) => fetch(`${gw.adminUrl}${p}`, { headers: { authorization: `Bearer ${token}` } });
  const json = async (p: string, token?: string) => {
    const res = await get(p, token);
    return { status: res.status, body: (await res.json()) as any };
  };

  const op = await s.brSpaOperator();
  const player = await s.player(op);
  const dep = await s.deposit(op, player, '25.00');
  await s.watched(player, 1);
  // The brand's zone is its operator's (the default profile: São Paulo); its day of the deposit.
  const date = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date());
  shift = 2 * 86_400_000;
  const base = `/admin/reports/daily/files/${op.brandId}`;

  t.same((await json(`/admin/reports/daily/files?brandId=${op.brandId}`)).body, { data: [], nextCursor: null }, 'nothing kept yet');
  const checked = await json(`${base}/${date}`);
  t.equal(checked.status, 200);
  const file = checked.body as DailyFileCheck;
  t.match(file, { brandId: op.brandId, date, timeZone: 'America/Sao_Paulo', timeZoneSource: 'profile', ties: true, problems: [] }, 'made, kept and checked');
  t.match(file.counts, { bettors: 1, accounts: 1, deposits: 1, withdrawals: 0, rounds: 0 });
  t.equal(file.downloads.csv.deposits, `${base}/${date}/download?format=csv&part=deposits`);
  // A brand that is none of ours (a name typed by hand, issue #61): no file is made or kept.
  t.match(
    await json(`/admin/reports/daily/files/brd_never_seen/${date}`),
    { status: 404, body: { error: { code: 'BRAND_NOT_FOUND', details: { brandId: 'brd_never_seen' } } } },
    'a brand that is none of ours: refused',
  );
  const download = await get(`/admin/reports/daily/files/brd_never_seen/${date}/download`);
  t.match({ status: download.status, body: await download.json() }, { status: 404, body: { error: { code: 'BRAND_NOT_FOUND' } } }, 'nor downloaded');
  t.ok((adminOperations.adminDownloadDailyFile.errors as readonly string[] | undefined)?.includes('BRAND_NOT_FOUND'), 'a refusal its documented list names');
  t.match(
    await json(`/admin/reports/daily?brandId=Demo%20Operator&date=${date}&timeZone=America%2FSao_Paulo`),
    { status: 404, body: { error: { code: 'BRAND_NOT_FOUND' } } },
    'with a zone given too',
  );
  t.equal(
    Number((await s.db.query("select count(*) from compliance.daily_reports where brand_id in ('brd_never_seen', 'Demo Operator')")).rows[0].count),
    0,
    'nothing kept',
  );
  t.equal((await json(`/admin/reports/daily/files/brd_never_seen/0099-01-01`)).status, 422, 'a date before this century');
  const before = dayBefore(date);
  t.equal((await json(`${base}/${before}`)).status, 200, 'the day before, an empty file');

  const page1 = await json(`/admin/reports/daily/files?brandId=${op.brandId}&limit=1`);
  t.match(
    page1.body.data,
    [{ brandId: op.brandId, environment: 'production', date, ties: true, counts: { deposits: 1 }, madeAt: /Z$/, checkedAt: /Z$/ }],
    'newest day first, with its environment',
  );
  t.equal((await json(`/admin/reports/daily/files?brandId=${op.brandId}&environment=sandbox`)).body.data.length, 0, 'none of them in the sandbox');
  t.equal((await json(`/admin/reports/daily/files?brandId=${op.brandId}&environment=production`)).body.data.length, 2, 'both in production');
  const page2 = await json(`/admin/reports/daily/files?brandId=${op.brandId}&limit=1&cursor=${encodeURIComponent(page1.body.nextCursor)}`);
  t.match(page2.body, { data: [{ date: before, counts: { deposits: 0, accounts: 0 } }], nextCursor: null }, 'then the one before');
  t.same(
    (await json(`/admin/reports/daily/files?brandId=${op.brandId}&from=${date}&to=${date}`)).body.data.map((f: DailyFileSummary) => f.date),
    [date],
    'a range of days',
  );
  t.equal(
    (await json(`/admin/reports/daily/files?brandId=other&cursor=${encodeURIComponent(page1.body.nextCursor)}`)).status,
    422,
    'a cursor of another filter',
  );

  const whole = await get(file.downloads.json);
  t.equal(whole.status, 200);
  t.match(whole.headers.get('content-type'), /^application\/json/);
  t.equal(whole.headers.get('content-disposition'), `attachment; filename="daily-file_${op.brandId}_${date}.json"`);
  const doc = await whole.json();
  t.match(doc, { layout: 'bo-daily-file/1', brandId: op.brandId, date, ties: true, deposits: [{ depositId: dep.id, amount: '25.00', status: 'confirmed' }] });

  const csv = await get(file.downloads.csv.deposits!);
  t.match(csv.headers.get('content-type'), /^text\/csv/);
  t.equal(csv.headers.get('content-disposition'), `attachment; filename="daily-file_${op.brandId}_${date}_deposits.csv"`);
  const rows = (await csv.text()).split('\r\n');
  t.equal(rows.length, 3, 'the header, the deposit, the final CRLF');
  t.match(rows[1], new RegExp(`^${op.brandId},${date},${dep.id},${player},25\\.00,BRL,pix,`));
  const noPart = await json(`${base}/${date}/download?format=csv`);
  t.match(noPart, { status: 422, body: { error: { code: 'VALIDATION_ERROR', details: { issues: [{ path: '/part' }] } } } }, 'a CSV names its part');
  t.match(await json(`${base}/2999-01-01/download`), { status: 422, body: { error: { details: { issues: [{ path: '/date' }] } } } }, 'a day not over');

  const token = async (role: string) =>
    (await (
      await fetch(`${gw.adminUrl}/admin/tokens`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `${role}-bot`, role }),
      })
    ).json()) as { secret: string };
  const finance = (await token('finance')).secret;
  const support = (await token('support')).secret;
  t.equal((await json(`/admin/reports/daily/files?brandId=${op.brandId}`, finance)).status, 200, 'finance lists');
  t.equal((await get(file.downloads.json, finance)).status, 200, 'and downloads');
  t.match(
    await json(`/admin/reports/daily/files?brandId=${op.brandId}`, support),
    { status: 403, body: { error: { code: 'FORBIDDEN_ROLE' } } },
    'support does not',
  );
  t.equal((await json(file.downloads.json, support)).status, 403);

  // Asynchronously: the gateway answering it runs in this process.
  const cli = (...args: string[]) =>
    new Promise<{ status: number; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, [CLI, ...args], { env: { ...process.env, ADMIN_URL: gw.adminUrl, ADMIN_TOKEN } }, (err, stdout, stderr) =>
        resolve({ status: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
      );
    });
  const listed = await cli('reports', 'daily-files', '--brand', op.brandId);
  t.equal(listed.status, 0, listed.stderr);
  t.same(
    JSON.parse(listed.stdout).data.map((f: DailyFileSummary) => f.date),
    [date, before],
    'the CLI lists the kept files',
  );
  const deposits = await cli('reports', 'daily-file', '--brand', op.brandId, '--date', date, '--format', 'csv', '--part', 'deposits');
  t.equal(deposits.status, 0, deposits.stderr);
  t.equal(deposits.stdout.split('\r\n')[0]?.startsWith('brand_id,date,deposit_id,'), true, 'and prints a part as CSV');
  const wholeFile = await cli('reports', 'daily-file', '--brand', op.brandId, '--date', date);
  t.equal(wholeFile.status, 0, wholeFile.stderr);
  t.match(JSON.parse(wholeFile.stdout), { brandId: op.brandId, date, deposits: [{ depositId: dep.id }] }, 'or the whole file as JSON');
  const refused = await cli('reports', 'daily-file', '--brand', op.brandId, '--date', date, '--format', 'csv');
  t.equal(refused.status, 1, 'a CSV without its part is refused');
});
