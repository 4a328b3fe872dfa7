// Property-based fuzzing driven by the operation table, against the whole system as real
// processes: every public and admin operation gets malformed path values, query values, bodies and
// headers (properly signed, so they pass authentication and reach parsing, validation and the
// services behind). Whatever arrives, the answer is never a 5xx and every error is in the envelope
// with a request id. Fixed seed and run count: the same requests and the same number of assertions
// on every run, within a fixed budget. Then every operation, without randomness: a path, a query or
// a body that is not UTF-8 is a 422 naming its part.
import t from 'tap';
import fc from 'fast-check';
import { adminOperations, publicOperations, signRequest, type Operation } from '@bo/contracts';
import { ADMIN_TOKEN, startStack } from './support/stack.ts';
import { activatedPerson } from './support/people.ts';

const SEED = 20261122;
const RUNS_PER_OPERATION = 30;

/** Text the edge must survive: NUL, unpaired surrogates, control characters, percent signs, long runs. */
const nastyString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('\u0000', 'a\u0000b', '\ud800', '\udc00x', '%', '%zz', '../../etc', 'x'.repeat(300), '', ' ', '1.5', '-1', '1e309', 'null', '{}', '💸'),
);
const jsonish: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    nastyString,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(nastyString, tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** A path segment as it would appear on the wire: percent-encoded UTF-8, sometimes raw garbage. */
function encodeSegment(s: string): string {
  return [...Buffer.from(s, 'utf8')]
    .map((b) => (/[A-Za-z0-9_.~-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).padStart(2, '0')}`))
    .join('');
}
/** Percent-encodings that are not UTF-8: bad escapes, bytes that are no UTF-8, an encoded surrogate, a cut or overlong sequence. */
const BAD_ENCODINGS = ['%zz', '%', 'a%2', '%ff%fe', '%ED%A0%80', '%E2%82', '%C0%AF'] as const;
const pathValue = fc.oneof(nastyString.map(encodeSegment), fc.constantFrom(...BAD_ENCODINGS, '%00', 'a%2Fb'));
const queryValue = fc.oneof(nastyString.map(encodeSegment), fc.constantFrom(...BAD_ENCODINGS));

/** JSON bodies whose bytes are not UTF-8 (a Latin-1 é, lone bytes, an encoded surrogate, an overlong "/"). */
const NOT_UTF8_BODIES = [[0xe9], [0xff], [0xfe, 0xff], [0xed, 0xa0, 0x80], [0xc0, 0xaf], [0xe2, 0x82]].map((bytes) =>
  Buffer.concat([Buffer.from('{"name":"x'), Buffer.from(bytes), Buffer.from('","amount":"1.00"}')]),
);

const bodyText = fc.oneof(
  jsonish.map((v) => JSON.stringify(v) ?? ''),
  fc
    .dictionary(
      fc.constantFrom('name', 'amount', 'currency', 'status', 'decision', 'documentType', 'externalId', 'ips', 'url', 'perMinute', 'gameId'),
      jsonish,
      { maxKeys: 5 },
    )
    .map((v) => JSON.stringify(v)),
  fc.constantFrom('', '{', '[]', '"x"', `{"a":${'['.repeat(3000)}${']'.repeat(3000)}}`, '\u0000', '{"amount":1e999}'),
  fc.constantFrom(...NOT_UTF8_BODIES),
);
const contentType = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/x-www-form-urlencoded',
  undefined,
  'application/problem+json',
  'APPLICATION/JSON',
);
const idempotencyKey = fc.oneof(
  fc.constant(undefined),
  fc.string({ maxLength: 200 }).filter((s) => /^[\x21-\x7e]*$/.test(s)),
  fc.uuid(),
);

t.test('fuzzing every operation', async (t) => {
  const stack = await startStack({ RPC_TIMEOUT_MS: '10000' });
  t.teardown(() => stack.close());
  const op = await stack.createOperator('Fuzzed');
  t.equal(
    (await stack.admin('PUT', `/admin/operators/${op.operator.id}/rate-limit`, { perMinute: 1_000_000 })).status,
    200,
    'the limiter does not hide what is fuzzed',
  );
  const gw = { publicUrl: stack.publicUrl, adminUrl: stack.adminUrl };
  // A person's own tokens are hers alone (issue #56): those operations are fuzzed as an activated
  // person, making one from her console session, reading and revoking with her own token.
  const person = await activatedPerson(stack.adminUrl, { authorization: `Bearer ${ADMIN_TOKEN}` }, { email: 'fuzz-admin@example.com', role: 'admin' });
  const OWN_SESSION = new Set(['adminCreateOwnToken']);
  const OWN_TOKEN = new Set(['adminListOwnTokens', 'adminRevokeOwnToken']);

  const send = async (
    admin: boolean,
    o: Operation,
    pathValues: string[],
    qs: string,
    body: string | Buffer,
    type: string | undefined,
    key: string | undefined,
  ) => {
    let i = 0;
    const path = o.path.replace(/:[A-Za-z]+/g, () => pathValues[i++] ?? 'x');
    const rawPath = `${admin ? '' : '/api/v1'}${path}${qs ? `?${qs}` : ''}`;
    const headers: Record<string, string> = {};
    if (type !== undefined) headers['content-type'] = type;
    if (key !== undefined) headers['idempotency-key'] = key;
    if (admin && OWN_SESSION.has(o.id)) Object.assign(headers, { cookie: person.cookie, 'x-csrf-token': person.csrfToken });
    else if (admin) headers.authorization = `Bearer ${OWN_TOKEN.has(o.id) ? person.token : ADMIN_TOKEN}`;
    else {
      const ts = String(Math.floor(Date.now() / 1000));
      Object.assign(headers, {
        'x-operator-key': op.sandbox.key,
        'x-timestamp': ts,
        'x-signature': signRequest(op.sandbox.secret, o.method, rawPath, ts, body),
      });
    }
    const sendBody = o.method !== 'GET' && body.length > 0;
    const res = await fetch(`${admin ? gw.adminUrl : gw.publicUrl}${rawPath}`, { method: o.method, headers, body: sendBody ? body : undefined }).catch(
      (err: Error) => ({ status: 0, headers: new Headers(), text: async () => String(err) }),
    );
    const text = await res.text();
    let parsed: any;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: res.status, text, parsed, requestId: res.headers.get('x-request-id') };
  };

  const all: Array<[boolean, Operation]> = [
    ...Object.values(publicOperations as Record<string, Operation>).map((o) => [false, o] as [boolean, Operation]),
    ...Object.values(adminOperations as Record<string, Operation>).map((o) => [true, o] as [boolean, Operation]),
  ];
  for (const [admin, o] of all) {
    const params = (o.path.match(/:[A-Za-z]+/g) ?? []).length;
    const queryKeys = Object.keys((o.query as { properties?: object } | undefined)?.properties ?? {});
    const problems: string[] = [];
    await fc.assert(
      fc.asyncProperty(
        fc.array(pathValue, { minLength: params, maxLength: params }),
        fc.array(fc.tuple(queryKeys.length ? fc.oneof(fc.constantFrom(...queryKeys), nastyString) : nastyString, queryValue), { maxLength: 3 }),
        bodyText,
        contentType,
        idempotencyKey,
        async (pathValues, query, body, type, key) => {
          const qs = query.map(([k, v]) => `${encodeSegment(k)}=${v}`).join('&');
          const r = await send(admin, o, pathValues, qs, body, type, key);
          const fine =
            r.status > 0 && r.status < 500 && (r.status < 400 || (typeof r.parsed?.error?.code === 'string' && r.parsed.error.requestId === r.requestId));
          if (!fine && problems.length < 5)
            problems.push(
              `${o.method} ${o.path} ${JSON.stringify({ pathValues, qs, body: body.toString('latin1').slice(0, 120), type, key })} → ${r.status} ${r.text.slice(0, 200)}`,
            );
          return true;
        },
      ),
      { seed: SEED, numRuns: RUNS_PER_OPERATION },
    );
    t.same(problems, [], `${admin ? 'admin' : 'public'} ${o.method} ${o.path}: no 5xx, every error in the envelope`);
  }

  // Every operation, deterministically: a path, a query or a body that is not UTF-8 is refused with
  // 422 naming its part (a path before anything else, a query and a body where validation runs).
  const refused = (r: Awaited<ReturnType<typeof send>>, part: string) =>
    r.status === 422 && r.parsed?.error?.code === 'VALIDATION_ERROR' && r.parsed.error.details?.in === part && r.parsed.error.requestId === r.requestId;
  // Parameters with a shape get a valid value (a limit's type and period, a CPF).
  const ENUM_PARAMS: Record<string, string> = {
    ':environment': 'sandbox',
    ':type': 'loss',
    ':period': 'day',
    ':cpf': '52998224725',
    ':date': '2026-01-15',
    ':month': '2026-01',
  };
  const validPath = (o: Operation) => (o.path.match(/:[A-Za-z]+/g) ?? []).map((p) => ENUM_PARAMS[p] ?? 'x');
  let n = 0;
  const freshKey = () => `fuzz-encoding-${++n}`;
  const notRefused = { path: [] as string[], query: [] as string[], body: [] as string[] };
  for (const [admin, o] of all) {
    const name = `${admin ? 'admin' : 'public'} ${o.method} ${o.path}`;
    const pathValues = validPath(o);
    for (const [i, bad] of BAD_ENCODINGS.entries()) {
      if (pathValues.length) {
        const r = await send(admin, o, [bad, ...pathValues.slice(1)], '', '', undefined, freshKey());
        if (!refused(r, 'path')) notRefused.path.push(`${name} ${bad} → ${r.status} ${r.text.slice(0, 160)}`);
      }
      // The query is checked after the body's schema: probed where the body cannot be in the way.
      if (!o.body) {
        const r = await send(admin, o, pathValues, `probe=${bad}`, '', undefined, freshKey());
        if (!refused(r, 'query')) notRefused.query.push(`${name} ?probe=${bad} → ${r.status} ${r.text.slice(0, 160)}`);
      } else {
        // Each probe's bytes are its own: the same signed bytes with another key would be SIGNATURE_REUSED.
        const body = Buffer.concat([Buffer.from(`{"probe":${n},`), NOT_UTF8_BODIES[i % NOT_UTF8_BODIES.length]!.subarray(1)]);
        const r = await send(admin, o, pathValues, '', body, 'application/json', freshKey());
        if (!refused(r, 'body')) notRefused.body.push(`${name} → ${r.status} ${r.text.slice(0, 160)}`);
      }
    }
  }
  t.same(notRefused.path, [], 'every operation refuses a path that is not validly percent-encoded UTF-8 (422, in path)');
  t.same(notRefused.query, [], 'every operation without a body refuses such a query (422, in query)');
  t.same(notRefused.body, [], 'every operation with a body refuses a body that is not UTF-8 (422, in body)');
});
