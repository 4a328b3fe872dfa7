// SIGAP files on the admin API, through the real gateway (in-process, with the operators service
// for tokens and the audit log) and the real services, with SIGAP_PROVIDER=http against a stand-in
// SIGAP (a local HTTP server speaking the adapter's assumed wire format, sigap/wire.ts): a
// production brand's files go to it (base64 content with its SHA-256 and a bearer token), answered
// "in processing" and later accepted, rejected with its reasons, or not delivered (a 503: sent again
// by the next submission); a brand this service never saw goes to the simulator. Sending is
// compliance's and audited; finance reads; support does not. The team's CLI lists, sends and prints.
import t, { type Test } from 'tap';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { SigapDay, SigapFile } from '@bo/contracts';
import { startGateway, loadGatewayConfig } from '@bo/gateway';
import { operatorsService } from '@bo/operators';
import { testNatsUrl, waitFor } from '@bo/service-kit/testing';
import { startComplianceStack } from '../support/stack.ts';
import { deadlineOf } from '../../src/reports/sigap-files.ts';

const ADMIN_TOKEN = 'test-admin-token-sigap-files-0123456789';
const SIGAP_TOKEN = 'test-sigap-credential-0123456789';
const CLI = path.resolve(import.meta.dirname, '../../../../scripts/admin-cli.ts');

interface Received {
  method: string;
  url: string;
  authorization: string | undefined;
  body: any;
}

/** A stand-in SIGAP: 202 and a protocol, then accepted on asking; sports bets rejected; the first wallets file answered 503. */
async function standInSigap(t: Test) {
  const received: Received[] = [];
  let protocols = 0;
  let walletsRefused = false;
  const read = async (req: IncomingMessage) => {
    let text = '';
    for await (const c of req) text += c;
    return text ? JSON.parse(text) : undefined;
  };
  const server = createServer(async (req, res) => {
    const body = await read(req);
    received.push({ method: req.method!, url: req.url!, authorization: req.headers.authorization, body });
    const answer = (status: number, json: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(json));
    };
    if (req.method === 'POST' && req.url === '/arquivos') {
      if (body.tipoArquivo === 'wallets' && !walletsRefused) {
        walletsRefused = true;
        return answer(503, { erro: 'indisponível' });
      }
      if (body.tipoArquivo === 'sports_bets')
        return answer(200, {
          protocolo: `P-${++protocols}`,
          situacao: 'REJEITADO',
          fase: 'QUALIDADE',
          erros: [{ codigo: 'Q-ODDS', campo: 'odds', registro: 0, mensagem: 'odds fora do intervalo' }],
        });
      return answer(202, { protocolo: `P-${++protocols}`, situacao: 'EM_PROCESSAMENTO' });
    }
    const m = /^\/arquivos\/(P-\d+)$/.exec(req.url ?? '');
    if (req.method === 'GET' && m) return answer(200, { protocolo: m[1], situacao: 'ACEITO', recibo: `R-${m[1]}` });
    answer(404, {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

t.test('SIGAP files on the admin API, a stand-in SIGAP over HTTP, and the CLI', async (t) => {
  const sigap = await standInSigap(t);
  let shift = 0;
  const s = await startComplianceStack(t, 'amlsigapapi', {
    now: () => new Date(Date.now() + shift),
    config: { SIGAP_PROVIDER: 'http', SIGAP_URL: sigap.url, SIGAP_TOKEN, SIGAP_RETRIES: 0 },
  });
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
  const send = async (method: string, p: string, token = ADMIN_TOKEN, body?: unknown) => {
    const res = await fetch(`${gw.adminUrl}${p}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'x-admin-actor': 'ana', ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    return { status: res.status, text, body: text.startsWith('{') ? (JSON.parse(text) as any) : undefined };
  };

  const op = await s.brSpaOperator();
  const player = await s.player(op);
  await s.deposit(op, player, '25.00');
  await s.watched(player, 1);
  const date = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date());
  shift = 2 * 86_400_000;
  const base = `/admin/reports/sigap/files/${op.brandId}/${date}`;

  const made = await send('GET', base);
  t.equal(made.status, 200);
  t.same(
    (made.body as SigapDay).files.map((f) => [f.fileType, f.environment, f.status]),
    ['bettors', 'wallets', 'online_games', 'sports_bets', 'legal_destinations'].map((type) => [type, 'production', 'made']),
    'a production brand: its files made',
  );

  const first = await send('POST', `${base}/submit`);
  t.equal(first.status, 200, first.status === 200 ? 'sent' : first.text);
  const statuses = (day: SigapDay) => Object.fromEntries(day.files.map((f) => [f.fileType, [f.status, f.via, f.protocol, f.receipt]]));
  t.same(
    statuses(first.body),
    {
      bettors: ['pending', 'sigap', 'P-1', null],
      wallets: ['failed', 'sigap', null, null],
      online_games: ['pending', 'sigap', 'P-2', null],
      sports_bets: ['rejected', 'sigap', 'P-3', null],
      legal_destinations: ['pending', 'sigap', 'P-4', null],
    },
    "SIGAP's answers: in processing, not delivered, rejected",
  );
  const wallets = (first.body as SigapDay).files.find((f) => f.fileType === 'wallets')!;
  t.match(wallets, { lastError: 'HTTP 503', attempts: 1 });
  t.match(
    (first.body as SigapDay).files.find((f) => f.fileType === 'sports_bets'),
    {
      phase: 'quality',
      reasons: [{ code: 'Q-ODDS', field: 'odds', record: 0, message: 'odds fora do intervalo' }],
    },
  );

  // The wire: each file as base64 with its SHA-256, named, with the operator's credential.
  const posts = sigap.received.filter((r) => r.method === 'POST');
  t.equal(posts.length, 5, 'each file posted once');
  t.ok(
    sigap.received.every((r) => r.authorization === `Bearer ${SIGAP_TOKEN}`),
    'with the SIGAP credential',
  );
  const bettors = (first.body as SigapDay).files.find((f) => f.fileType === 'bettors')!;
  const posted = posts.find((r) => r.body.tipoArquivo === 'bettors')!.body;
  const content = (await send('GET', `${base}/${bettors.id}/download`)).text;
  t.match(posted, { dataReferencia: date, nomeArquivo: bettors.fileName, parte: 1, totalPartes: 1, hashSha256: bettors.checksum });
  t.equal(Buffer.from(posted.conteudo, 'base64').toString('utf8'), content, 'the content as kept');
  t.equal(createHash('sha256').update(content).digest('hex'), bettors.checksum);

  const second = await send('POST', `${base}/submit`);
  t.same(
    Object.fromEntries(Object.entries(statuses(second.body)).map(([k, v]) => [k, [v[0], v[3]]])),
    {
      bettors: ['accepted', 'R-P-1'],
      wallets: ['pending', null],
      online_games: ['accepted', 'R-P-2'],
      sports_bets: ['rejected', null],
      legal_destinations: ['accepted', 'R-P-4'],
    },
    'the pending ones asked about (accepted), the one not delivered sent again',
  );
  const third = await send('POST', `${base}/submit`);
  t.match(statuses(third.body).wallets, ['accepted', 'sigap', 'P-5', 'R-P-5'], 'and accepted once asked');
  t.equal(third.body.accepted, false, 'sports bets still rejected');

  // Each row comes through the compliance service's outbox (written once the sending is done).
  const dayAudit = (query = '') => send('GET', `/admin/audit?target=${encodeURIComponent(`sigap_day:${op.brandId}/${date}`)}${query}`);
  await waitFor(async () => (await dayAudit()).body.data.length >= 3, { what: "the submissions' audit rows", timeoutMs: 60_000 });
  const audit = await dayAudit();
  t.equal(audit.body.data.length, 3, 'each submission audited');
  t.match(audit.body.data[2], { actor: 'stand-in:ana', action: 'adminSubmitSigapDay', before: { accepted: false, files: [{ status: 'made' }] } });

  const resent = await send('POST', `${base}/resend`, ADMIN_TOKEN, { fileType: 'sports_bets', correction: 'odds of the stand-in rejection reviewed' });
  t.equal(resent.status, 200, resent.status === 200 ? 'resent' : resent.text);
  t.match(
    (resent.body as SigapDay).files.filter((f) => f.fileType === 'sports_bets').map((f) => [f.version, f.status, f.supersededAt === null]),
    [
      [2, 'rejected', true],
      [1, 'rejected', false],
    ],
    'a new version sent (the stand-in rejects sports bets whatever they say), the first kept',
  );
  await waitFor(async () => (await dayAudit('&action=adminResendSigapFile')).body.data.length >= 1, { what: "the resend's audit row", timeoutMs: 60_000 });
  const resendAudit = await dayAudit('&action=adminResendSigapFile');
  t.match(
    resendAudit.body.data,
    [{ after: { resent: 'sports_bets', correction: 'odds of the stand-in rejection reviewed' } }],
    'the resend audited with its correction',
  );
  t.match(await send('POST', `${base}/resend`, ADMIN_TOKEN, { fileType: 'wallets', correction: 'nothing' }), {
    status: 409,
    body: { error: { code: 'SIGAP_FILE_NOT_REJECTED', details: { status: 'accepted' } } },
  });

  // A brand that is none of ours (a name typed by hand, issue #61): nothing made, nothing sent.
  const unseen = await send('POST', `/admin/reports/sigap/files/brd_never_seen/${date}/submit`);
  t.match(unseen, { status: 404, body: { error: { code: 'BRAND_NOT_FOUND' } } }, 'a brand that is none of ours: refused');
  t.equal(sigap.received.filter((r) => r.method === 'POST').length, 7, 'nothing of it reached SIGAP');

  // Lateness (issue #61): the clock is two days on, past 06:00 of the day after `date` in the brand's zone.
  t.equal(third.body.timeliness, 'overdue', 'a day not accepted past its deadline: overdue');
  t.match(
    Object.fromEntries((third.body as SigapDay).files.filter((f) => !f.supersededAt).map((f) => [f.fileType, f.timeliness])),
    { bettors: 'late', wallets: 'late', sports_bets: 'overdue' },
    'each file: sent after the deadline and accepted (late), or not accepted (overdue)',
  );
  t.equal((third.body as SigapDay).deadline, deadlineOf(date, 'America/Sao_Paulo').toISOString(), "06:00 of the next day in the brand's zone");
  const overdue = await send('GET', `/admin/reports/sigap/files?brandId=${op.brandId}&timeliness=overdue`);
  t.same(
    (overdue.body.data as SigapFile[]).map((f) => f.fileType),
    ['sports_bets'],
    'the overdue filter: the current file not accepted (its replaced version is not listed)',
  );

  // Roles: finance reads, compliance sends, support neither.
  const token = async (role: string) => (await send('POST', '/admin/tokens', ADMIN_TOKEN, { name: `${role}-sigap`, role })).body.secret as string;
  const finance = await token('finance');
  const support = await token('support');
  t.equal((await send('GET', `/admin/reports/sigap/files?brandId=${op.brandId}`, finance)).status, 200, 'finance lists');
  t.equal((await send('GET', `${base}/${bettors.id}/download`, finance)).status, 200, 'and downloads');
  t.match(await send('POST', `${base}/submit`, finance), { status: 403, body: { error: { code: 'FORBIDDEN_ROLE' } } }, 'but does not send');
  t.equal((await send('GET', `/admin/reports/sigap/files?brandId=${op.brandId}`, support)).status, 403, 'support does not read');

  // The CLI.
  const cli = (...args: string[]) =>
    new Promise<{ status: number; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, [CLI, ...args], { env: { ...process.env, ADMIN_URL: gw.adminUrl, ADMIN_TOKEN } }, (err, stdout, stderr) =>
        resolve({ status: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
      );
    });
  const listed = await cli('reports', 'sigap-files', '--brand', op.brandId, '--status', 'rejected');
  t.equal(listed.status, 0, listed.stderr);
  t.same(
    JSON.parse(listed.stdout).data.map((f: SigapFile) => [f.fileType, f.version]),
    [
      ['sports_bets', 2],
      ['sports_bets', 1],
    ],
    'the CLI lists the rejected files',
  );
  const day = await cli('reports', 'sigap-submit', '--brand', op.brandId, '--date', date);
  t.equal(day.status, 0, day.stderr);
  t.match(JSON.parse(day.stdout), { brandId: op.brandId, date, accepted: false });
  const file = await cli('reports', 'sigap-file', '--brand', op.brandId, '--date', date, '--file', bettors.id);
  t.equal(file.status, 0, file.stderr);
  t.equal(file.stdout, content, 'and prints a file as sent');

  // A sandbox brand's day sent at 01:00 the next day (before its 06:00): accepted by the simulator,
  // on time; sent again, refused, with no audit row of a sending that did not happen (issue #61).
  const sbx = await s.brSpaOperator('sandbox');
  const sp = await s.player(sbx);
  await s.deposit(sbx, sp, '10.00');
  await s.watched(sp, 1);
  shift = deadlineOf(date).getTime() - 5 * 3_600_000 - Date.now();
  const sbxBase = `/admin/reports/sigap/files/${sbx.brandId}/${date}`;
  const onTime = await send('POST', `${sbxBase}/submit`);
  t.match(onTime.body, { accepted: true, timeliness: 'on_time' }, 'accepted, on time');
  t.ok(
    (onTime.body as SigapDay).files.every((f) => f.timeliness === 'on_time' && f.environment === 'sandbox'),
    'each file on time',
  );
  const sbxAudit = () => send('GET', `/admin/audit?target=${encodeURIComponent(`sigap_day:${sbx.brandId}/${date}`)}`);
  await waitFor(async () => (await sbxAudit()).body.data.length >= 1, { what: "the sending's audit row", timeoutMs: 60_000 });
  const again = await send('POST', `${sbxBase}/submit`);
  t.match(again, { status: 409, body: { error: { code: 'SIGAP_DAY_ACCEPTED', details: { timeliness: 'on_time' } } } }, 'an accepted day is not sent again');
  shift = 2 * 86_400_000;
  t.match((await send('GET', sbxBase)).body, { accepted: true, timeliness: 'on_time' }, 'still on time, read later');
  // A later audited change of this service: once its row is in the log, any row of the refused sending would be too (one outbox, in order).
  const rules = (await send('GET', `/admin/aml/brands/${sbx.brandId}/rules`)).body;
  t.equal((await send('PUT', `/admin/aml/brands/${sbx.brandId}/rules`, ADMIN_TOKEN, rules.thresholds)).status, 200);
  await waitFor(async () => (await send('GET', `/admin/audit?action=adminSetAmlRules`)).body.data.length >= 1, {
    what: 'the later audit row',
    timeoutMs: 60_000,
  });
  t.equal((await sbxAudit()).body.data.length, 1, 'one audit row: the refused sending wrote none');
  t.same(
    ((await send('GET', `/admin/reports/sigap/files?environment=sandbox&timeliness=on_time`)).body.data as SigapFile[]).map((f) => f.brandId),
    Array(5).fill(sbx.brandId),
    'the sandbox files on time, by environment',
  );
  t.equal((await send('GET', `/admin/reports/sigap/files?environment=production&brandId=${sbx.brandId}`)).body.data.length, 0, 'none of them in production');
});
