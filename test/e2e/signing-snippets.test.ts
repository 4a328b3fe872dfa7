// Every snippet of the served /signing-snippets.json runs unmodified against the real system:
// each signer signs real requests (a GET, a percent-encoded query, a non-ASCII body, an empty-body
// POST) that the gateway accepts; each verifier accepts a real delivery (with either scheme's
// headers alone too) and the published test vector (with its clock), and the rotation vector given
// the new secret alone, the previous alone, or a list; it rejects the vector at the current clock, a
// tampered body, another secret, and the X- headers alone given only the new secret.
// Node, Python and bash always run; PHP, Ruby and Go run when their toolchain is installed
// (apt: php-cli, ruby, golang-go) and are skipped, visibly, otherwise.
import t, { type Test } from 'tap';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { API_VERSION } from '@bo/contracts';
import { waitFor } from '@bo/service-kit/testing';
import { startStack, uniq } from './support/stack.ts';

interface SignTask {
  method: string;
  path: string;
  body: string;
  timestamp?: string;
}
interface VerifyTask {
  secrets: string[];
  headers: Record<string, string>;
  bodyB64: string;
  tolerance: number;
  now: number | null;
}
interface Task {
  key: string;
  secret: string;
  sign: SignTask[];
  verify: VerifyTask[];
}
interface Result {
  sign: { ts: string; sig: string }[];
  verify: boolean[];
}

const has = (bin: string) => spawnSync(bin, ['--version'], { stdio: 'ignore' }).status === 0 || spawnSync(bin, ['version'], { stdio: 'ignore' }).status === 0;

/** Async on purpose: the webhook receiver lives in this process and must keep answering. */
function run(cmd: string, args: string[], cwd: string, input: string, env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env: { ...process.env, ...env }, timeout: 120_000 });
    let out = '',
      err = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`${cmd} ${args.join(' ')} failed (${code}): ${err}\n${out}`))));
    child.stdin.end(input);
  });
}

const PY_DRIVER = `import sys, json, base64
from sign import signed_headers
from verify_webhook import verify_webhook
task = json.load(sys.stdin)
out = {"sign": [], "verify": []}
for s in task["sign"]:
    h = signed_headers(task["key"], task["secret"], s["method"], s["path"], s["body"].encode("utf-8"), s.get("timestamp"))
    out["sign"].append({"ts": h["X-Timestamp"], "sig": h["X-Signature"]})
for v in task["verify"]:
    kw = {"tolerance": v["tolerance"]}
    if v["now"] is not None:
        kw["now"] = v["now"]
    out["verify"].append(verify_webhook(v["secrets"], v["headers"], base64.b64decode(v["bodyB64"]), **kw))
print(json.dumps(out))
`;

const PHP_DRIVER = `<?php
require __DIR__ . '/sign.php';
require __DIR__ . '/verify_webhook.php';
$task = json_decode(file_get_contents('php://stdin'), true);
$out = ['sign' => [], 'verify' => []];
foreach ($task['sign'] as $s) {
  $h = [];
  foreach (signed_headers($task['key'], $task['secret'], $s['method'], $s['path'], $s['body'], $s['timestamp'] ?? null) as $line) { [$k, $v] = explode(': ', $line, 2); $h[$k] = $v; }
  $out['sign'][] = ['ts' => $h['X-Timestamp'], 'sig' => $h['X-Signature']];
}
foreach ($task['verify'] as $v) {
  $out['verify'][] = verify_webhook($v['secrets'], $v['headers'], base64_decode($v['bodyB64']), $v['tolerance'], $v['now']);
}
echo json_encode($out);
`;

const RUBY_DRIVER = `require 'json'
require 'base64'
require_relative 'sign'
require_relative 'verify_webhook'
task = JSON.parse($stdin.read)
out = { 'sign' => [], 'verify' => [] }
task['sign'].each do |s|
  h = signed_headers(task['key'], task['secret'], s['method'], s['path'], s['body'], s['timestamp'])
  out['sign'] << { 'ts' => h['X-Timestamp'], 'sig' => h['X-Signature'] }
end
task['verify'].each do |v|
  opts = { tolerance: v['tolerance'] }
  opts[:now] = v['now'] unless v['now'].nil?
  out['verify'] << verify_webhook(v['secrets'], v['headers'], Base64.decode64(v['bodyB64']), **opts)
end
puts JSON.generate(out)
`;

const GO_DRIVER = `package main

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"os"
	"strconv"
	"time"

	"example.com/driver/bosign"
)

type task struct {
	Key, Secret, Whsec string
	Sign               []struct{ Method, Path, Body, Timestamp string }
	Verify             []struct {
		Secrets   []string
		Headers   map[string]string
		BodyB64   string
		Tolerance int64
		Now       *int64
	}
}

func main() {
	var t task
	if err := json.NewDecoder(os.Stdin).Decode(&t); err != nil {
		panic(err)
	}
	out := struct {
		Sign   []map[string]string \`json:"sign"\`
		Verify []bool               \`json:"verify"\`
	}{Sign: []map[string]string{}, Verify: []bool{}}
	for _, s := range t.Sign {
		now := time.Time{}
		if s.Timestamp != "" {
			sec, _ := strconv.ParseInt(s.Timestamp, 10, 64)
			now = time.Unix(sec, 0)
		}
		ts, sig := bosign.Sign(t.Secret, s.Method, s.Path, []byte(s.Body), now)
		out.Sign = append(out.Sign, map[string]string{"ts": ts, "sig": sig})
	}
	for _, v := range t.Verify {
		h := http.Header{}
		for k, val := range v.Headers {
			h.Set(k, val)
		}
		body, _ := base64.StdEncoding.DecodeString(v.BodyB64)
		now := time.Now()
		if v.Now != nil {
			now = time.Unix(*v.Now, 0)
		}
		out.Verify = append(out.Verify, bosign.Verify(v.Secrets, h, body, time.Duration(v.Tolerance)*time.Second, now))
	}
	json.NewEncoder(os.Stdout).Encode(out)
}
`;

t.test('every signing snippet runs unmodified against the real system', async (t) => {
  const stack = await startStack();
  t.teardown(() => stack.close());
  const op = await stack.createOperator('Snippet Bets');
  const cred = op.sandbox;

  // A receiver that keeps each delivery's raw bytes and headers.
  const deliveries: { headers: Record<string, string>; raw: Buffer }[] = [];
  const receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      deliveries.push({ headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])), raw: Buffer.concat(chunks) });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  t.teardown(() => new Promise<void>((r) => receiver.close(() => r())));
  const hookUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks`;
  t.equal((await stack.admin('PUT', `/admin/operators/${op.operator.id}/webhooks/sandbox`, { url: hookUrl })).status, 200);
  // The URL reaches the webhooks service as an endpoint event (docs/webhooks.md): wait for it before the snippets.
  t.equal((await stack.firstTestWebhook(op.sandboxClient)).status, 200);
  await waitFor(async () => deliveries.length > 0, { timeoutMs: 20_000, intervalMs: 20, what: 'the first test delivery' });

  const fetchJson = async (p: string) => (await fetch(`${stack.publicUrl}/api/v1${p}`)).json() as Promise<any>;
  const snippets = await fetchJson('/signing-snippets.json');
  const vectors = await fetchJson('/test-vectors.json');
  const vector = vectors.webhooks[0];
  t.same(Object.keys(snippets.requestSigning).sort(), ['bash', 'go', 'node', 'php', 'python', 'ruby']);
  t.same(Object.keys(snippets.webhookVerification).sort(), ['bash', 'go', 'node', 'php', 'python', 'ruby']);
  const rotation = vectors.webhookRotation;

  const work = mkdtempSync(path.join(tmpdir(), 'snippets-'));
  t.teardown(() => rmSync(work, { recursive: true, force: true }));

  const signTasks = (lang: string): SignTask[] => {
    const body = JSON.stringify({
      externalId: `joão-${lang}-${uniq('x')}`,
      name: 'João Müller',
      email: 'joao@example.com',
      cpf: '111.444.777-35',
      birthDate: '1985-02-28',
    });
    return [
      { method: 'GET', path: '/api/v1/me', body: '' },
      { method: 'POST', path: '/api/v1/players', body },
      { method: 'GET', path: `/api/v1/players?externalId=${encodeURIComponent(JSON.parse(body).externalId)}`, body: '' },
      { method: 'POST', path: '/api/v1/webhooks/test', body: '' },
    ];
  };
  const send = async (s: SignTask, ts: string, sig: string) => {
    const headers: Record<string, string> = { 'X-Operator-Key': cred.key, 'X-Timestamp': ts, 'X-Signature': sig };
    // Only the idempotent operation takes a key: a signature is bound to one key (SIGNATURE_REUSED), and
    // two languages send the same signed POST /webhooks/test when their runs fall in the same second.
    if (s.path === '/api/v1/players') headers['Idempotency-Key'] = `snip-${uniq('k')}`;
    if (s.body) headers['Content-Type'] = 'application/json';
    const res = await fetch(`${stack.publicUrl}${s.path}`, { method: s.method, headers, body: s.body || undefined });
    return { status: res.status, body: (await res.json()) as any };
  };
  const b64 = (text: string | Buffer) => Buffer.from(text).toString('base64');
  const only = (headers: Record<string, string>, x: boolean) =>
    Object.fromEntries(Object.entries(headers).filter(([k]) => k.toLowerCase().startsWith('x-webhook-') === x));
  const OTHER_SECRET = 'whsec_dW5yZWxhdGVkLXNlY3JldC0wMTIzNDU2Nzg5';
  const verifyTasks = (delivery: { headers: Record<string, string>; raw: Buffer }): VerifyTask[] => {
    const vectorHeaders = { 'X-Webhook-Id': vector.id, 'X-Webhook-Timestamp': vector.timestamp, 'X-Webhook-Signature': vector.signature };
    const real = (headers: Record<string, string>, raw = delivery.raw) => ({
      secrets: [cred.webhookSecret],
      headers,
      bodyB64: b64(raw),
      tolerance: 300,
      now: null,
    });
    const rotated = (secrets: string[], headers: Record<string, string> = rotation.headers) => ({
      secrets,
      headers,
      bodyB64: b64(rotation.body),
      tolerance: 300,
      now: Number(rotation.timestamp),
    });
    return [
      real(delivery.headers),
      { secrets: [vector.secret], headers: vectorHeaders, bodyB64: b64(vector.body), tolerance: 300, now: Number(vector.timestamp) + 60 },
      { secrets: [vector.secret], headers: vectorHeaders, bodyB64: b64(vector.body), tolerance: 300, now: null },
      real(delivery.headers, Buffer.concat([delivery.raw, Buffer.from(' ')])),
      real(only(delivery.headers, true)),
      real(only(delivery.headers, false)),
      rotated([rotation.newSecret]),
      rotated([rotation.previousSecret]),
      rotated([OTHER_SECRET, rotation.newSecret]),
      rotated([OTHER_SECRET]),
      rotated([rotation.newSecret], only(rotation.headers, true)),
    ];
  };
  const VERIFIED = [true, true, false, false, true, true, true, true, true, false, false];

  /** Signs with the language's snippet, sends the requests, then verifies the delivery they caused. */
  const exercise = async (t: Test, lang: string, runTask: (task: Task) => Result | Promise<Result>) => {
    const sign = signTasks(lang);
    const before = deliveries.length;
    const signed = (await runTask({ key: cred.key, secret: cred.secret, sign, verify: [] })).sign;
    // The published request vectors (percent-encoded query, empty-body POST, non-ASCII body included).
    const reproduced = (
      await runTask({
        key: vectors.requests[0].key,
        secret: vectors.requests[0].secret,
        sign: vectors.requests.map((v: any) => ({ method: v.method, path: v.path, body: v.body, timestamp: v.timestamp })),
        verify: [],
      })
    ).sign;
    t.same(
      reproduced.map((r) => r.sig),
      vectors.requests.map((v: any) => v.signature),
      `${lang}: reproduces all ${vectors.requests.length} request vectors`,
    );
    const results = [];
    for (const [i, s] of sign.entries()) results.push(await send(s, signed[i]!.ts, signed[i]!.sig));
    t.equal(results[0]!.status, 200, `${lang}: GET /me`);
    t.equal(results[1]!.status, 201, `${lang}: POST with a non-ASCII body`);
    t.equal(results[1]!.body.name, 'João Müller');
    t.equal(results[2]!.status, 200, `${lang}: GET with a percent-encoded query`);
    t.equal(results[2]!.body.data?.[0]?.id, results[1]!.body.id, `${lang}: finds the player by its non-ASCII externalId`);
    t.equal(results[3]!.status, 200, `${lang}: POST without a body`);
    t.equal(results[3]!.body.delivered, true);
    await waitFor(async () => deliveries.length > before, { timeoutMs: 20_000, intervalMs: 20, what: 'the test delivery' });
    return deliveries[before];
  };
  const checkVerify = (t: Test, lang: string, verified: boolean[]) =>
    t.same(
      verified,
      VERIFIED,
      `${lang}: accepts the real delivery (and each scheme's headers alone), the vector at its clock, the rotation vector with the new secret, the previous or a list; rejects the vector now, a tampered body, another secret, the X- headers alone with the new secret`,
    );

  t.test('node', async (t) => {
    writeFileSync(path.join(work, 'sign.mjs'), snippets.requestSigning.node);
    writeFileSync(path.join(work, 'verify-webhook.mjs'), snippets.webhookVerification.node);
    const { signedHeaders } = await import(pathToFileURL(path.join(work, 'sign.mjs')).href);
    const { verifyWebhook } = await import(pathToFileURL(path.join(work, 'verify-webhook.mjs')).href);
    const runTask = (task: Task): Result => ({
      sign: task.sign.map((s) => {
        const h = signedHeaders(task.key, task.secret, s.method, s.path, s.body, s.timestamp);
        return { ts: h['X-Timestamp'], sig: h['X-Signature'] };
      }),
      verify: task.verify.map((v) =>
        verifyWebhook(v.secrets, v.headers, Buffer.from(v.bodyB64, 'base64'), { toleranceSeconds: v.tolerance, ...(v.now === null ? {} : { now: v.now }) }),
      ),
    });
    const delivery = await exercise(t, 'node', runTask);
    checkVerify(t, 'node', runTask({ key: '', secret: '', sign: [], verify: verifyTasks(delivery!) }).verify);
    // Also a fetch Headers object with mixed-case names.
    t.equal(verifyWebhook(cred.webhookSecret, new Headers(delivery!.headers), delivery!.raw), true, 'node: takes a fetch Headers and one secret');
  });

  t.test('python', async (t) => {
    const dir = path.join(work, 'py');
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'sign.py'), snippets.requestSigning.python);
    writeFileSync(path.join(dir, 'verify_webhook.py'), snippets.webhookVerification.python);
    writeFileSync(path.join(dir, 'driver.py'), PY_DRIVER);
    const runTask = async (task: Task): Promise<Result> => JSON.parse(await run('python3', ['driver.py'], dir, JSON.stringify(task)));
    const delivery = await exercise(t, 'python', runTask);
    // Header names in another case than delivered: the verifier is case-insensitive.
    const upper = (v: VerifyTask) => ({ ...v, headers: Object.fromEntries(Object.entries(v.headers).map(([k, x]) => [k.toUpperCase(), x])) });
    checkVerify(t, 'python', (await runTask({ key: '', secret: '', sign: [], verify: verifyTasks(delivery!).map(upper) })).verify);
  });

  t.test('bash + openssl + curl', async (t) => {
    const file = path.join(work, 'sign.sh');
    writeFileSync(file, snippets.requestSigning.bash);
    const sh = async (env: Record<string, string>) =>
      JSON.parse(await run('bash', [file], work, '', { BASE: stack.publicUrl, KEY: cred.key, SECRET: cred.secret, ...env }));
    const [me, created, found, hook] = signTasks('bash').map((s) => ({ METHOD: s.method, P: s.path, BODY: s.body }));
    const before = deliveries.length;
    t.equal((await sh(me!)).apiVersion, API_VERSION, 'bash: GET /me with the default empty body');
    const player = await sh(created!);
    t.equal(player.name, 'João Müller', 'bash: POST with a non-ASCII body');
    t.equal((await sh(found!)).data?.[0]?.id, player.id, 'bash: GET with a percent-encoded query');
    const tested = await sh(hook!);
    t.equal(tested.delivered, true, 'bash: POST without a body');
    // Signature version 2 (issue #61): the Idempotency-Key is signed, so the same body-less call run twice at once
    // (the same second, as a script does) is taken both times, each with its own key.
    const twice = await Promise.all([sh(hook!), sh(hook!)]);
    t.same(
      twice.map((r) => r.delivered),
      [true, true],
      'bash: the same body-less POST twice at once, both taken',
    );
    await waitFor(async () => deliveries.length > before, { timeoutMs: 20_000, intervalMs: 20, what: 'the test delivery' });
    const verifier = path.join(work, 'verify-webhook.sh');
    writeFileSync(verifier, snippets.webhookVerification.bash);
    const verified: boolean[] = [];
    for (const [i, v] of verifyTasks(deliveries[before]!).entries()) {
      const bodyFile = path.join(work, `body-${i}`);
      writeFileSync(bodyFile, Buffer.from(v.bodyB64, 'base64'));
      const header = (name: string) => Object.entries(v.headers).find(([k]) => k.toLowerCase() === name)?.[1] ?? '';
      const env = {
        SECRETS: v.secrets.join(' '),
        TOLERANCE: String(v.tolerance),
        ...(v.now === null ? {} : { NOW: String(v.now) }),
        X_WEBHOOK_TIMESTAMP: header('x-webhook-timestamp'),
        X_WEBHOOK_SIGNATURE: header('x-webhook-signature'),
        WEBHOOK_ID: header('webhook-id'),
        WEBHOOK_TIMESTAMP: header('webhook-timestamp'),
        WEBHOOK_SIGNATURE: header('webhook-signature'),
      };
      verified.push(
        await run('bash', [verifier, bodyFile], work, '', env).then(
          () => true,
          () => false,
        ),
      );
    }
    checkVerify(t, 'bash', verified);
  });

  const optional = [
    { lang: 'php', bin: 'php', files: { 'sign.php': 'php', 'verify_webhook.php': 'php' }, driver: ['driver.php', PHP_DRIVER], cmd: ['php', ['driver.php']] },
    { lang: 'ruby', bin: 'ruby', files: { 'sign.rb': 'ruby', 'verify_webhook.rb': 'ruby' }, driver: ['driver.rb', RUBY_DRIVER], cmd: ['ruby', ['driver.rb']] },
    { lang: 'go', bin: 'go', files: { 'bosign/sign.go': 'go', 'bosign/verify.go': 'go' }, driver: ['main.go', GO_DRIVER], cmd: ['go', ['run', '.']] },
  ] as const;
  for (const o of optional) {
    t.test(
      o.lang,
      { skip: has(o.bin) ? false : `${o.bin} is not installed (apt-get install ${o.lang === 'php' ? 'php-cli' : o.lang === 'go' ? 'golang-go' : 'ruby'})` },
      async (t) => {
        const dir = path.join(work, o.lang);
        mkdirSync(path.join(dir, 'bosign'), { recursive: true });
        const [signFile, verifyFile] = Object.keys(o.files);
        writeFileSync(path.join(dir, signFile!), snippets.requestSigning[o.lang]);
        writeFileSync(path.join(dir, verifyFile!), snippets.webhookVerification[o.lang]);
        writeFileSync(path.join(dir, o.driver[0]), o.driver[1]);
        if (o.lang === 'go') writeFileSync(path.join(dir, 'go.mod'), 'module example.com/driver\n\ngo 1.19\n');
        const env = { GOCACHE: path.join(work, 'gocache'), GOPATH: path.join(work, 'gopath'), GOFLAGS: '-mod=mod', GOTOOLCHAIN: 'local', GOPROXY: 'off' };
        const runTask = async (task: Task): Promise<Result> => JSON.parse(await run(o.cmd[0], [...o.cmd[1]], dir, JSON.stringify(task), env));
        const delivery = await exercise(t, o.lang, runTask);
        checkVerify(t, o.lang, (await runTask({ key: '', secret: '', sign: [], verify: verifyTasks(delivery!) })).verify);
      },
    );
  }
});
