// The provider wallet API's documents against the real processes, as a provider's engineer uses
// them (docs/providers.md): our team registers a provider, its sandbox key, a game, and offers it to
// an operator with the admin CLI (`npm run admin -- providers …`); a session launched from the operator's site hands the provider a session token; then
// newman runs the served /provider/v1/postman.json with 0 failures, every answer of the run is
// documented in the served /provider/v1/openapi.json and matches it, and each request signer of
// /provider/v1/signing-snippets.json (node, python, bash) reproduces the published test vectors and
// signs a real call that the gateway accepts. Then the rest of the CLI's provider commands: list,
// show, update, a rotation with no overlap (the old key refused at once), revoke, games, operators,
// disable and enable, open rounds.
import t from 'tap';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { signRequest } from '@bo/contracts';
import { waitFor } from '@bo/service-kit/testing';
import { ADMIN_TOKEN, startStack, uniq } from './support/stack.ts';

const CLI = path.resolve(import.meta.dirname, '../../scripts/admin-cli.ts');

const require = createRequire(import.meta.url);
const Ajv2020 = require('ajv/dist/2020') as new (opts: Record<string, unknown>) => any;
const addFormats = require('ajv-formats') as (ajv: unknown) => void;
const newman = require('newman') as { run(opts: Record<string, unknown>, cb: (err: Error | null, summary: any) => void): void };

const key = () => ({ 'idempotency-key': `pp-${Math.random().toString(36).slice(2, 12)}` });

function run(cmd: string, args: string[], cwd: string, input: string, env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env: { ...process.env, ...env }, timeout: 120_000 });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`${cmd} failed (${code}): ${err}\n${out}`))));
    child.stdin.end(input);
  });
}

const PY_DRIVER = `import sys, json
from sign import signed_headers
task = json.load(sys.stdin)
out = []
for s in task["sign"]:
    h = signed_headers(task["key"], task["secret"], s["method"], s["path"], s["body"].encode("utf-8"), s.get("timestamp"))
    out.append({"ts": h["X-Timestamp"], "sig": h["X-Signature"], "key": h["X-Provider-Key"]})
print(json.dumps(out))
`;

t.test('a provider integrates from the served documents alone', async (t) => {
  const stack = await startStack();
  t.teardown(() => stack.close());

  // The provider's launch endpoint: keeps what we send (the session token) and answers its game page.
  const launches: any[] = [];
  const launcher = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => {
      raw += c;
    });
    req.on('end', () => {
      launches.push(JSON.parse(raw));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ url: 'https://games.example.com/play/1' }));
    });
  });
  await new Promise<void>((r) => launcher.listen(0, '127.0.0.1', r));
  t.teardown(() => new Promise<void>((r) => launcher.close(() => r())));
  const launchUrl = `http://127.0.0.1:${(launcher.address() as { port: number }).port}`;

  /** `npm run admin -- …`: its exit code and printed JSON. */
  const cli = async (...args: string[]) => {
    const out = await run(process.execPath, [CLI, ...args], path.dirname(CLI), '', { ADMIN_URL: stack.adminUrl, ADMIN_TOKEN, ADMIN_ACTOR: 'ops' }).then(
      (text) => ({ code: 0, text }),
      (e: Error) => ({ code: 1, text: e.message.slice(e.message.indexOf('\n') + 1) }),
    );
    return { code: out.code, body: JSON.parse(out.text) as any };
  };

  // Our team's side, with the CLI: the provider, its sandbox key, a game, offered to the operator.
  const op = await stack.createOperator('Provider Portal Bets');
  const created = await cli('providers', 'create', '--name', uniq('Portal Aggregator'), '--kind', 'casino', '--launch-url', launchUrl);
  t.match(created, { code: 0, body: { id: /^prv_/, kind: 'casino', status: 'enabled', launchUrl } });
  const providerId = created.body.id;
  const issued = await cli('providers', 'keys', 'issue', providerId, '--environment', 'sandbox');
  t.match(issued, { code: 0, body: { key: /^pk_test_/, secret: /^psk_test_/, credential: { environment: 'sandbox', status: 'active' } } });
  const game = await cli('providers', 'games', 'put', providerId, 'sweet-fruits', '--name', 'Sweet Fruits', '--category', 'slots');
  t.match(game, { code: 0, body: { id: /^gm_p_/, gameCode: 'sweet-fruits', enabled: true } });
  t.match(await cli('providers', 'enable-operator', providerId, op.operator.id), { code: 0, body: { operatorIds: [op.operator.id] } });

  // The operator's side: a funded player with KYC approved opens a session of the provider's game.
  const c = op.sandboxClient;
  const player = await c.post(
    '/players',
    { externalId: uniq('pp'), name: 'Ana Souza', email: 'ana@example.com', cpf: '529.982.247-25', birthDate: '1990-05-17' },
    key(),
  );
  t.equal(player.status, 201);
  const playerId = player.body.id;
  await c.post(`/players/${playerId}/kyc/submissions`, { documentType: 'rg', reference: 's3://docs/1' }, key());
  t.equal((await c.post(`/sandbox/players/${playerId}/kyc/decision`, { status: 'aprovado' })).status, 200);
  const deposit = await c.post(`/players/${playerId}/deposits`, { amount: '50.00', currency: 'BRL', method: 'pix', externalReference: uniq('psp') }, key());
  t.equal((await c.post(`/deposits/${deposit.body.id}/confirm`, {}, key())).status, 200);
  // A 503 (the wallet slower than the gateway's RPC timeout on a busy machine) is retried, as the API
  // says; each try launches again, and the last launch is the session answered 201.
  const session = await waitFor(
    async () => {
      const r = await c.post(`/players/${playerId}/game-sessions`, { gameId: game.body.id });
      return r.status === 503 ? undefined : r;
    },
    { timeoutMs: 60_000, what: 'a game session of the provider game' },
  );
  t.equal(session.status, 201, JSON.stringify(session.body));
  const token = launches.at(-1)?.token as string;
  t.match(token, /^pst_/, 'the launch carried the session token');

  const base = `${stack.publicUrl}/provider/v1`;
  const getJson = async (p: string) => (await fetch(`${base}${p}`)).json() as Promise<any>;
  const doc = await getJson('/openapi.json');
  const collection = await getJson('/postman.json');
  const snippets = await getJson('/signing-snippets.json');
  const vectors = await getJson('/test-vectors.json');

  t.test('newman runs the served collection with 0 failures, every answer as the served document says', async (t) => {
    const envVar = [
      { key: 'baseUrl', value: base },
      { key: 'providerKey', value: issued.body.key },
      { key: 'providerSecret', value: issued.body.secret },
      { key: 'sessionToken', value: token },
      { key: 'gameCode', value: 'sweet-fruits' },
    ];
    const summary = await new Promise<any>((resolve, reject) =>
      newman.run({ collection, envVar, reporters: [], timeoutRequest: 30_000 }, (err, s) => (err ? reject(err) : resolve(s))),
    );
    const failures = summary.run.failures.map((f: any) => `${f.source?.name}: ${f.error?.test ?? ''} ${f.error?.message}`);
    t.same(failures, [], 'no failed request or test');
    const total = collection.item[0].item.length + collection.item[1].item.length;
    t.equal(summary.run.stats.requests.total, total, 'every request ran once');
    t.ok(summary.run.stats.assertions.total >= total * 2, 'every answer is tested');

    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ $id: 'openapi', components: doc.components });
    const resolveRefs = (node: unknown): unknown => JSON.parse(JSON.stringify(node).replaceAll('"#/components/', '"openapi#/components/'));
    let validated = 0;
    const offDocument = summary.run.executions.flatMap((e: any) => {
      const method = e.request.method.toLowerCase();
      const pathname = new URL(e.request.url.toString()).pathname.replace(/^\/provider\/v1/, '');
      // A path with parameters (issue #59's reads: /transactions/{transactionId}) matches its template.
      const template =
        pathname in doc.paths ? pathname : Object.keys(doc.paths).find((p) => new RegExp(`^${p.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(pathname));
      const response = template ? doc.paths[template]?.[method]?.responses[String(e.response.code)] : undefined;
      if (!response) return [`${e.item.name}: ${method} ${pathname} ${e.response.code} is not documented`];
      const media = response.content?.['application/json'];
      if (!media) return [];
      validated++;
      const validate = ajv.compile(resolveRefs(media.schema));
      return validate(JSON.parse(e.response.text())) ? [] : [`${e.item.name}: ${ajv.errorsText(validate.errors)}`];
    });
    t.same(offDocument, [], 'every answer of the run is documented and matches the document');
    t.equal(validated, total - 1, 'every JSON answer was validated (all but the HTML page)');
  });

  t.test('each request signer reproduces the test vectors and signs a real call', async (t) => {
    const work = mkdtempSync(path.join(tmpdir(), 'provider-snippets-'));
    t.teardown(() => rmSync(work, { recursive: true, force: true }));
    const body = JSON.stringify({ token });
    const expected = vectors.requests.map((v: any) => v.signature);
    const tasks = vectors.requests.map((v: any) => ({ method: v.method, path: v.path, body: v.body, timestamp: v.timestamp }));
    const call = async (ts: string, sig: string, k = issued.body.key) =>
      fetch(`${base}/balance`, {
        method: 'POST',
        headers: { 'X-Provider-Key': k, 'X-Timestamp': ts, 'X-Signature': sig, 'Content-Type': 'application/json' },
        body,
      });

    writeFileSync(path.join(work, 'sign.mjs'), snippets.requestSigning.node);
    const { signedHeaders } = await import(pathToFileURL(path.join(work, 'sign.mjs')).href);
    t.same(
      tasks.map((s: any) => signedHeaders(vectors.requests[0].key, vectors.requests[0].secret, s.method, s.path, s.body, s.timestamp)['X-Signature']),
      expected,
      'node: the vectors',
    );
    const h = signedHeaders(issued.body.key, issued.body.secret, 'POST', '/provider/v1/balance', body);
    t.equal(h['X-Provider-Key'], issued.body.key);
    const nodeRes = await call(h['X-Timestamp'], h['X-Signature']);
    t.equal(nodeRes.status, 200, 'node: a real call');
    t.match(await nodeRes.json(), { playerId, currency: 'BRL' });

    writeFileSync(path.join(work, 'sign.py'), snippets.requestSigning.python);
    writeFileSync(path.join(work, 'driver.py'), PY_DRIVER);
    const py = async (k: string, s: string, sign: unknown[]) =>
      JSON.parse(await run('python3', ['driver.py'], work, JSON.stringify({ key: k, secret: s, sign })));
    t.same(
      (await py(vectors.requests[0].key, vectors.requests[0].secret, tasks)).map((r: any) => r.sig),
      expected,
      'python: the vectors',
    );
    const [signed] = await py(issued.body.key, issued.body.secret, [{ method: 'POST', path: '/provider/v1/balance', body }]);
    t.equal((await call(signed.ts, signed.sig)).status, 200, 'python: a real call');

    writeFileSync(path.join(work, 'sign.sh'), snippets.requestSigning.bash);
    const answer = JSON.parse(
      await run('bash', ['sign.sh'], work, '', { BASE: stack.publicUrl, KEY: issued.body.key, SECRET: issued.body.secret, BODY: body }),
    );
    t.match(answer, { playerId, currency: 'BRL' }, 'bash: POST /provider/v1/balance by default');

    // And what the gateway refuses: another secret, an unknown key.
    t.equal((await call(h['X-Timestamp'], expected[0])).status, 401, 'a signature of other bytes is refused');
    const unknown = await call(h['X-Timestamp'], h['X-Signature'], 'pk_test_Unknown0000000000000000');
    t.match(await unknown.json(), { error: { code: 'INVALID_CREDENTIALS' } });
  });

  t.test("the CLI's other provider commands", async (t) => {
    const balance = async (k: { key: string; secret: string }) => {
      const body = JSON.stringify({ token });
      const ts = String(Math.floor(Date.now() / 1000));
      const res = await fetch(`${base}/balance`, {
        method: 'POST',
        headers: {
          'X-Provider-Key': k.key,
          'X-Timestamp': ts,
          'X-Signature': signRequest(k.secret, 'POST', '/provider/v1/balance', ts, body),
          'Content-Type': 'application/json',
        },
        body,
      });
      return res.status === 200 ? 'ok' : ((await res.json()) as any).error.code;
    };
    t.ok(
      (await cli('providers', 'list')).body.data.some((p: any) => p.id === providerId),
      'list',
    );
    t.match(await cli('providers', 'show', providerId), { code: 0, body: { id: providerId, launchTimeoutMs: 3000 } });
    t.match(await cli('providers', 'show', 'prv_none'), { code: 1, body: { error: { code: 'PROVIDER_NOT_FOUND' } } }, 'an error answer exits 1');
    t.match(
      await cli('providers', 'update', providerId, '--launch-timeout-ms', '2000', '--open-round-limit-minutes', '120', '--allowed-ips', '127.0.0.1,10.0.0.0/8'),
      { code: 0, body: { launchTimeoutMs: 2000, openRoundLimitMinutes: 120, allowedIps: ['127.0.0.1', '10.0.0.0/8'] } },
    );
    t.match(await cli('providers', 'update', providerId, '--allowed-ips', 'none'), { body: { allowedIps: [] } });

    // A rotation with no overlap: the new key works, the one it replaced is refused at once.
    const first = { key: issued.body.key, secret: issued.body.secret };
    const rotated = await cli('providers', 'keys', 'issue', providerId, '--environment', 'sandbox', '--overlap-minutes', '0');
    t.equal(rotated.code, 0);
    // Every gateway drops the provider's cached keys when told (NATS): waited for, not slept.
    const refused = (k: { key: string; secret: string }) =>
      waitFor(async () => (await balance(k)) === 'INVALID_CREDENTIALS', { timeoutMs: 10_000, what: 'the key refused' });
    t.ok(await refused(first), 'the replaced key is refused at once');
    t.equal(await balance(rotated.body), 'ok', 'the new key works');
    const keys = (await cli('providers', 'keys', 'list', providerId)).body.data;
    t.same(keys.map((k: any) => k.status).sort(), ['active', 'expired'], 'the replaced key has expired');
    t.notOk(JSON.stringify(keys).includes(rotated.body.secret), 'never a secret');
    t.match(await cli('providers', 'keys', 'revoke', providerId, rotated.body.credential.id), { code: 0, body: { status: 'revoked' } });
    t.ok(await refused(rotated.body), 'a revoked key is refused at once');

    t.match(await cli('providers', 'games', 'put', providerId, 'sweet-fruits', '--name', 'Sweet Fruits', '--category', 'slots', '--disabled'), {
      body: { gameCode: 'sweet-fruits', enabled: false },
    });
    t.same(
      (await cli('providers', 'games', 'list', providerId)).body.data.map((g: any) => [g.gameCode, g.enabled]),
      [['sweet-fruits', false]],
    );
    t.match(await cli('providers', 'disable-operator', providerId, op.operator.id), { body: { operatorIds: [] } });
    t.match(await cli('providers', 'disable', providerId), { body: { status: 'disabled' } });
    t.match(await cli('providers', 'enable', providerId), { body: { status: 'enabled' } });
    t.match(await cli('providers', 'open-rounds', providerId), { code: 0, body: { data: [] } }, 'no round left open past its limit');
    const audited = await waitFor(
      async () => {
        const audit = await stack.admin('GET', `/admin/audit?target=${encodeURIComponent(`provider:${providerId}`)}`);
        return audit.body.data.length >= 12 && audit.body.data;
      },
      { timeoutMs: 20_000, what: "the provider's changes in the audit log" },
    );
    t.ok(
      audited.every((a: any) => a.actor === 'stand-in:ops' || a.actor === 'admin'),
      'each by its actor',
    );
  });
});
