// The served OpenAPI document (and the provider API's, /provider/v1/openapi.json) passes `redocly lint`
// (recommended rules) and `spectral lint` (spectral:oas, the default ruleset) with 0 errors and 0 warnings, and says what the contract
// says: public routes listed, required bodies, examples everywhere (each valid against the
// schema the gateway validates with), response headers, error codes as enums, open responses.
import t from 'tap';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { OPERATION_EXAMPLES, publicOperations, type Operation } from '@bo/contracts';
import { startHarness } from './support/harness.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const bin = (name: string) => path.join(ROOT, 'node_modules/.bin', name);

function run(file: string, args: string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [file, ...args], {
      cwd,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
    });
    let stdout = '',
      stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

t.test('the served OpenAPI document lints clean and matches the contract', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const base = `${h.gateways[0]!.publicUrl}/api/v1`;
  const text = await (await fetch(`${base}/openapi.json`)).text();
  const doc = JSON.parse(text);
  const dir = mkdtempSync(path.join(tmpdir(), 'openapi-lint-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(path.join(dir, 'openapi.json'), text);

  t.test('redocly lint: 0 errors, 0 warnings', async (t) => {
    const r = await run(bin('redocly'), ['lint', 'openapi.json', '--format=json'], dir);
    const report = JSON.parse(r.stdout.slice(r.stdout.indexOf('{')));
    t.same(
      report.problems.map((p: any) => `${p.ruleId}: ${p.message} @ ${p.location?.[0]?.pointer}`),
      [],
      'no problems',
    );
    t.same({ errors: report.totals.errors, warnings: report.totals.warnings }, { errors: 0, warnings: 0 });
  });

  t.test('spectral lint (spectral:oas): 0 errors, 0 warnings', async (t) => {
    writeFileSync(path.join(dir, '.spectral.yaml'), 'extends: ["spectral:oas"]\n');
    const r = await run(
      bin('spectral'),
      ['lint', 'openapi.json', '--format', 'json', '--output', 'spectral.json', '--ruleset', '.spectral.yaml', '--fail-severity', 'hint'],
      dir,
    );
    const results = JSON.parse(readFileSync(path.join(dir, 'spectral.json'), 'utf8'));
    t.same(
      results.map((p: any) => `${p.code}: ${p.message} @ ${p.path.join('.')}`),
      [],
      'no results of any severity',
    );
    t.equal(r.code, 0);
  });

  // The provider wallet API's own document (docs/providers.md), served beside its routes: the same linters, the same bar.
  t.test('the provider API document (/provider/v1/openapi.json): redocly and spectral, 0 problems', async (t) => {
    const pdir = path.join(dir, 'provider');
    mkdirSync(pdir);
    const served = await fetch(`${h.gateways[0]!.publicUrl}/provider/v1/openapi.json`);
    t.equal(served.status, 200);
    writeFileSync(path.join(pdir, 'openapi.json'), await served.text());
    const r = await run(bin('redocly'), ['lint', 'openapi.json', '--format=json'], pdir);
    const report = JSON.parse(r.stdout.slice(r.stdout.indexOf('{')));
    t.same(
      report.problems.map((p: any) => `${p.ruleId}: ${p.message} @ ${p.location?.[0]?.pointer}`),
      [],
      'redocly: no problems',
    );
    writeFileSync(path.join(pdir, '.spectral.yaml'), 'extends: ["spectral:oas"]\n');
    const sp = await run(
      bin('spectral'),
      ['lint', 'openapi.json', '--format', 'json', '--output', 'spectral.json', '--ruleset', '.spectral.yaml', '--fail-severity', 'hint'],
      pdir,
    );
    t.same(
      JSON.parse(readFileSync(path.join(pdir, 'spectral.json'), 'utf8')).map((p: any) => `${p.code}: ${p.message} @ ${p.path.join('.')}`),
      [],
      'spectral: no results of any severity',
    );
    t.equal(sp.code, 0);
  });

  t.test('public routes, descriptions, tags', async (t) => {
    for (const p of ['/openapi.json', '/changelog', '/postman.json', '/signing-snippets.json', '/test-vectors.json', '/docs']) {
      t.same(doc.paths[p]?.get?.security, [], `${p} is listed, unauthenticated`);
    }
    const tags = new Set(doc.tags.map((x: any) => x.name));
    const ops = Object.values(doc.paths).flatMap((p: any) => Object.values(p)) as any[];
    t.equal(ops.filter((o) => !o.description || !o.tags.every((tag: string) => tags.has(tag))).length, 0, 'every operation has a description and defined tags');
  });

  t.test('bodies, examples, headers, error enums, open responses', async (t) => {
    const ops = Object.values(publicOperations) as Operation[];
    for (const op of ops) {
      const o = doc.paths[op.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')][op.method.toLowerCase()];
      const ex = OPERATION_EXAMPLES[op.id];
      // A download's example is the file itself (its chunks stay between the gateway and the service), never its cursor.
      if (op.download)
        t.ok(
          typeof ex!.response === 'object' && !('chunk' in (ex!.response as object)) && !o.parameters.some((p: any) => p.name === 'cursor'),
          `${op.id}: the file's example, no cursor`,
        );
      else t.ok(Value.Check(op.response, ex!.response), `${op.id}: the response example is valid`);
      if (op.body) {
        t.ok(Value.Check(op.body, ex!.body), `${op.id}: the request example is valid`);
        t.ok(o.requestBody.content['application/json'].example, `${op.id}: request example shown`);
      }
      const success = o.responses[op.status];
      t.ok(
        success.content['application/json'].example && success.headers['X-Request-Id'] && success.headers['RateLimit-Remaining'],
        `${op.id}: success example and headers`,
      );
      t.equal(Boolean(success.headers['Idempotent-Replayed']), op.method !== 'GET', `${op.id}: Idempotent-Replayed on mutations`);
      for (const status of ['401', '429', '503'])
        t.ok(o.responses[status]?.content['application/json'].schema.properties.error.properties.code.enum.length, `${op.id}: ${status} lists its codes`);
      t.ok(o.responses['429'].headers['Retry-After'], `${op.id}: 429 carries Retry-After`);
      t.ok(o.responses['413'] && o.responses['415'], `${op.id}: 413 and 415`);
    }
    const required = Object.fromEntries(
      ops.filter((op) => op.body).map((op) => [op.id, doc.paths[op.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')][op.method.toLowerCase()].requestBody.required]),
    );
    t.same(
      required,
      {
        createPlayer: true,
        updatePlayer: true,
        setMarketingConsent: true,
        fileDataRequest: true,
        publishTermsVersion: true,
        acceptTerms: true,
        recordCommunication: true,
        setLimit: true,
        pausePlayer: true,
        selfExclude: true,
        submitKyc: true,
        sandboxKycDecision: true,
        createDeposit: true,
        confirmDeposit: false,
        failDeposit: false,
        createWithdrawal: true,
        cancelWithdrawal: false,
        sandboxWithdrawalDecision: true,
        sandboxAddImpediment: true,
        sandboxAddScreeningEntry: true,
        sandboxAddPixKey: true,
        sandboxSetHarmMarkers: true,
        createGameSession: true,
        endGameSession: false,
        endPlayerGameSessions: false,
      },
      'bodies with required fields are required; confirm, fail, cancel and the end of game sessions may be omitted',
    );
    t.notMatch(text, /"additionalProperties":false/, 'no closed objects');
    t.notMatch(text, /"format":"(cpf|calendar-date|adult-birth-date)"/, 'no custom formats');
    t.match(doc.components.schemas.CreatePlayer.properties.cpf, { pattern: String, description: /CPF/ });
    t.match(doc.components.schemas.CreatePlayer.properties.birthDate, { format: 'date', pattern: String });
    const hook = doc.webhooks['deposit.confirmed'].post;
    t.same(
      hook.parameters.map((p: any) => p.name),
      ['X-Webhook-Id', 'X-Webhook-Timestamp', 'X-Webhook-Signature', 'webhook-id', 'webhook-timestamp', 'webhook-signature'],
      'Standard Webhooks headers too',
    );
  });
});
