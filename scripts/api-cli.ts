// `npm run api -- METHOD PATH [BODY]`: one signed request to the public API, as an operator's
// server makes it. PATH is relative to /api/v1 (`/me`, `/players?externalId=p-1`); BODY is JSON
// text or @file.json. Credentials: OPERATOR_KEY / OPERATOR_SECRET, else the demo operator that
// `npm start` wrote to demo-operator.json in its data folder (START_DATA_DIR, default .data;
// sandbox; --live for production). Idempotent
// operations get a fresh Idempotency-Key unless --idempotency-key KEY is given (to retry).
// Prints the answer's status and key headers on stderr, its body (or --field NAME of it) on
// stdout; exits 1 on >= 400. `npm run -s api -- cpf` prints a fresh valid CPF (sandbox players:
// under br-spa a CPF registers once per brand).
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { OperatorClient, generateCpf, publicOperations, type Operation } from '@bo/contracts';
import { REPO_ROOT, startDataDir } from './start-data-dir.ts';

const usage =
  'usage: npm run api -- METHOD PATH [JSON|@file.json] [--live] [--idempotency-key KEY] [--field NAME]\n' +
  '       npm run -s api -- cpf      (prints a fresh valid CPF, for sandbox players)\n' +
  '  e.g. npm run api -- GET /me\n' +
  '       npm run api -- POST /players \'{"externalId":"p-1","name":"Ana Souza","email":"ana@example.com","cpf":"\'$(npm run -s api -- cpf)\'","birthDate":"1990-05-17"}\'';

const args = process.argv.slice(2);
if (args.length === 1 && args[0] === 'cpf') {
  console.log(generateCpf());
  process.exit(0);
}
const flag = (name: string) => {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const v = args[i + 1];
  args.splice(i, 2);
  return v ?? '';
};
const live = args.includes('--live');
if (live) args.splice(args.indexOf('--live'), 1);
const givenKey = flag('--idempotency-key');
const field = flag('--field');
const [methodArg, target, bodyArg] = args;
if (!methodArg || !target?.startsWith('/')) {
  console.error(usage);
  process.exit(2);
}
const method = methodArg.toUpperCase();

function credentials(): { key: string; secret: string } {
  if (process.env.OPERATOR_KEY && process.env.OPERATOR_SECRET) return { key: process.env.OPERATOR_KEY, secret: process.env.OPERATOR_SECRET };
  const file = path.join(startDataDir(), 'demo-operator.json');
  if (!existsSync(file)) {
    console.error(`No credentials: set OPERATOR_KEY and OPERATOR_SECRET, or run \`npm start\` once (it writes ${path.relative(REPO_ROOT, file)}).`);
    process.exit(2);
  }
  const demo = JSON.parse(readFileSync(file, 'utf8'));
  return live ? demo.production : demo.sandbox;
}

/** Whether METHOD PATH is an operation that takes an Idempotency-Key (from the contracts' table). */
function isIdempotent(m: string, p: string): boolean {
  const pathOnly = p.split('?')[0];
  return Object.values(publicOperations as Record<string, Operation>).some(
    (op) => op.method === m && op.idempotent && new RegExp(`^${op.path.replace(/:[A-Za-z]+/g, '[^/]+')}$`).test(pathOnly!),
  );
}

const body = bodyArg === undefined ? undefined : bodyArg.startsWith('@') ? readFileSync(bodyArg.slice(1), 'utf8') : bodyArg;
if (body !== undefined) {
  try {
    JSON.parse(body);
  } catch (e) {
    console.error(`The body is not JSON: ${(e as Error).message}`);
    process.exit(2);
  }
}
const baseUrl = process.env.API_URL ?? `${process.env.PUBLIC_BASE_URL ?? `http://127.0.0.1:${process.env.PORT ?? '3000'}`}/api/v1`;
const headers: Record<string, string> = {};
if (givenKey !== undefined || isIdempotent(method, target)) headers['idempotency-key'] = givenKey || randomUUID();

// Version 2: the Idempotency-Key is signed too, so two calls alike in one second are both taken (issue #61).
const client = new OperatorClient({ baseUrl, ...credentials(), signatureVersion: '2' });
const res = await client.request(method, target, body ?? (method === 'GET' ? undefined : ''), headers).catch((err: Error & { cause?: Error }) => {
  console.error(`Could not reach ${baseUrl}: ${err.cause?.message ?? err.message} (is \`npm start\` running?)`);
  process.exit(1);
});
const shown = ['x-request-id', 'idempotent-replayed', 'retry-after', 'location'].filter((h) => res.headers.get(h));
console.error(
  `${res.status}${headers['idempotency-key'] ? `  idempotency-key: ${headers['idempotency-key']}` : ''}${shown.map((h) => `  ${h}: ${res.headers.get(h)}`).join('')}`,
);
// --field id prints one value of the answer (dot path), for shell variables in scripts.
const value = field && res.status < 400 ? field.split('.').reduce<any>((v, k) => v?.[k], res.body) : res.body;
console.log(typeof value === 'string' ? value : JSON.stringify(value, null, 2));
process.exit(res.status >= 400 ? 1 : 0);
