// `START_DATA_DIR=/tmp/x npm run api -- GET /me` signs with the demo operator `npm start` wrote to
// that folder (an absolute START_DATA_DIR used to be read under the repository instead: "No
// credentials"). A local HTTP server stands in for the gateway and records what arrives.
import t from 'tap';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');

function runApi(args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  const { OPERATOR_KEY: _k, OPERATOR_SECRET: _s, START_DATA_DIR: _d, ...inherited } = process.env;
  const child = spawn(process.execPath, [path.join(ROOT, 'scripts/api-cli.ts'), ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...inherited, ...env },
  });
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  child.stderr.on('data', (d) => {
    out += d;
  });
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, out })));
}

t.test('npm run api reads the demo operator from START_DATA_DIR', async (t) => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bo-api-cli-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const demo = {
    operator: { id: 'op_demo' },
    sandbox: { key: 'bk_test_fromStartDataDir00000000000000', secret: 'sk_test_secret' },
    production: { key: 'bk_live_fromStartDataDir00000000000000', secret: 'sk_live_secret' },
  };
  writeFileSync(path.join(dataDir, 'demo-operator.json'), JSON.stringify(demo));
  const seen: Array<{ url?: string; key?: string }> = [];
  const gateway = http.createServer((req, res) => {
    seen.push({ url: req.url, key: req.headers['x-operator-key'] as string | undefined });
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ operator: { id: 'op_demo' } }));
  });
  await new Promise<void>((r) => gateway.listen(0, '127.0.0.1', r));
  t.teardown(() => new Promise<void>((r) => gateway.close(() => r())));
  const API_URL = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}/api/v1`;

  const r = await runApi(['GET', '/me'], { START_DATA_DIR: dataDir, API_URL });
  t.equal(r.code, 0, 'signed and answered');
  t.notMatch(r.out, /No credentials/);
  t.same(seen, [{ url: '/api/v1/me', key: demo.sandbox.key }], "with the demo operator's sandbox key from that folder");

  const missing = await runApi(['GET', '/me'], { START_DATA_DIR: path.join(dataDir, 'empty'), API_URL });
  t.equal(missing.code, 2, 'a folder without the demo operator: no credentials');
  t.match(missing.out, `No credentials: set OPERATOR_KEY and OPERATOR_SECRET, or run \`npm start\` once (it writes`);
  t.match(missing.out, path.relative(ROOT, path.join(dataDir, 'empty', 'demo-operator.json')), 'naming the file it looked for');
});

t.test('npm run -s api -- cpf prints a fresh valid CPF (the README journey registers one per run)', async (t) => {
  const { isValidCpf } = await import('@bo/contracts');
  const [a, b] = [await runApi(['cpf'], {}), await runApi(['cpf'], {})];
  t.same([a.code, b.code], [0, 0]);
  t.match(a.out, /^\d{11}\n$/, 'eleven digits, nothing else');
  t.ok(isValidCpf(a.out.trim()) && isValidCpf(b.out.trim()), 'valid check digits');
  t.not(a.out, b.out, 'a new one each time');
});
