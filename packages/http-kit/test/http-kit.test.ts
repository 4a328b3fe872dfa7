// The HTTP rules on their own: what a JSON body must be (UTF-8, an object, at most 32 levels, clean
// text), the media type a body needs, and how a failure becomes the envelope's error (the gateway's
// tests play the same rules through its apps).
import t from 'tap';
import Fastify from 'fastify';
import { AppError, isAppError } from '@bo/contracts';
import { BODY_LIMIT_BYTES, envelope, keepRawBodies, logFailure, parseJsonObject, requireJsonMediaType, toAppError } from '../src/index.ts';

/** The AppError a call throws (or undefined); its issues as the envelope carries them. */
const issuesOf = (e: AppError | undefined) => (e?.details?.issues ?? []) as Array<{ path: string; message: string }>;

function thrown(fn: () => unknown): AppError | undefined {
  try {
    fn();
  } catch (e) {
    if (isAppError(e)) return e;
    throw e;
  }
  return undefined;
}

t.test('parseJsonObject: an object in UTF-8, or a 422 that names the body', async (t) => {
  t.same(parseJsonObject(undefined), {}, 'no body is {}');
  t.same(parseJsonObject(Buffer.from('  \n')), {}, 'whitespace is {}');
  t.same(parseJsonObject(Buffer.from('{"a":[1,{"b":"ç"}]}')), { a: [1, { b: 'ç' }] });
  const cases: Array<[string, Buffer, string]> = [
    ['invalid UTF-8', Buffer.from([0x7b, 0xff, 0x7d]), 'The body is not valid UTF-8.'],
    ['not JSON', Buffer.from('{not json'), 'The body is not valid JSON.'],
    ['an array', Buffer.from('[1]'), 'The body must be a JSON object.'],
    ['null', Buffer.from('null'), 'The body must be a JSON object.'],
    ['33 levels', Buffer.from(`${'{"a":'.repeat(33)}1${'}'.repeat(33)}`), 'The body must not nest deeper than 32 levels.'],
  ];
  for (const [what, raw, message] of cases) {
    const err = thrown(() => parseJsonObject(raw));
    t.same([err?.code, err?.status, err?.details?.in, issuesOf(err)[0]?.message], ['VALIDATION_ERROR', 422, 'body', message], what);
  }
  t.ok(parseJsonObject(Buffer.from(`${'{"a":'.repeat(31)}1${'}'.repeat(31)}`)), '32 levels pass');
  const badText = thrown(() => parseJsonObject(Buffer.from('{"name":"a\\u0000b","list":["\\ud800"]}')));
  t.same(
    issuesOf(badText).map((i) => i.path),
    ['/list/0', '/name'],
    'a NUL and an unpaired surrogate are refused where they are',
  );
});

t.test('parseJsonObject: a member named twice in one object is a 422 naming it (JSON.parse would keep the last)', async (t) => {
  const repeated: Array<[string, string]> = [
    ['{"amount":"1.00","currency":"BRL","amount":"900.00"}', '/amount'],
    ['{"payer":{"cpf":"52998224725","cpf":"11144477735"}}', '/payer/cpf'],
    ['{"items":[{"a":1},{"a":2,"b":{"c":3},"a":3}]}', '/items/1/a'],
    ['{"a":1,"\\u0061":2}', '/a'],
    ['{"a/b~c":1,"a/b~c":2}', '/a~1b~0c'],
    ['{"at":"12:00","note":"s3://x","at":"13:00"}', '/at'],
    ['{"a":1,"a":2,"b":"\\u003a"}', '/a'],
    ['{"x":"\\"}{,\\\\","x":"y"}', '/x'],
    ['{ "a" : 1 , "a" : 1 }', '/a'],
  ];
  for (const [text, path] of repeated) {
    const err = thrown(() => parseJsonObject(Buffer.from(text)));
    t.same(
      [err?.code, err?.details?.in, issuesOf(err)],
      ['VALIDATION_ERROR', 'body', [{ path, message: 'Named more than once in its object: each member must appear once.' }]],
      text,
    );
  }
  const once = [
    '{"a":{"x":1},"b":{"x":2}}',
    '{"list":[{"x":1},{"x":1}],"x":[1,1]}',
    '{"reference":"s3://docs/a:b","at":"2026-11-25T13:21:52Z","a:b":"c"}',
    '{"quote":"\\":\\",\\"q\\":","q":1}',
    '{"a":"\\u003a:","b":{}}',
    '{}',
  ];
  for (const text of once) t.same(parseJsonObject(Buffer.from(text)), JSON.parse(text), `each once: ${text}`);
});

t.test('keepRawBodies and requireJsonMediaType: bytes kept, a body must say it is JSON', async (t) => {
  const app = Fastify();
  t.teardown(() => app.close());
  keepRawBodies(app);
  app.setErrorHandler((err, req, reply) => {
    const e = toAppError(err);
    return reply.code(e.status).send(envelope(e.toBody(), req.id));
  });
  app.post('/echo', async (req) => {
    requireJsonMediaType(req);
    return { body: req.body ?? null, raw: req.rawBody?.toString('utf8') ?? null };
  });
  const post = (payload: string, type?: string) => app.inject({ method: 'POST', url: '/echo', payload, headers: type ? { 'content-type': type } : {} });

  t.same((await post('{"a": 1}', 'application/json; charset=utf-8')).json(), { body: null, raw: '{"a": 1}' }, 'the bytes as sent, nothing parsed');
  t.equal((await post('{}', 'application/problem+json')).statusCode, 200, 'a +json type is JSON');
  const text = await post('{}', 'text/plain');
  t.same([text.statusCode, text.json().error.code], [415, 'UNSUPPORTED_MEDIA_TYPE']);
  t.equal((await post('', 'text/plain')).statusCode, 200, 'no bytes need no type');
  const big = await post(`{"a":"${'x'.repeat(BODY_LIMIT_BYTES)}"}`, 'application/json');
  t.same([big.statusCode, big.json().error.code], [413, 'PAYLOAD_TOO_LARGE']);
});

t.test('toAppError and logFailure: every failure a contract error, the cause only in the log', async (t) => {
  const own = new AppError('PLAYER_NOT_FOUND');
  t.equal(toAppError(own), own, 'an AppError is kept');
  t.equal(toAppError(Object.assign(new Error('x'), { code: 'FST_ERR_NOT_FOUND' })).code, 'NOT_FOUND');
  t.same(toAppError(Object.assign(new Error('bad url'), { code: 'FST_ERR_BAD_URL' })).details, {
    in: 'path',
    issues: [{ path: '/', message: 'The path is not validly percent-encoded UTF-8.' }],
  });
  const down = toAppError(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }));
  t.same([down.code, down.headers], ['SERVICE_UNAVAILABLE', { 'retry-after': '1' }], 'an unreachable dependency is a 503 with Retry-After');
  t.notMatch(down.message, /ECONNREFUSED|5432/, 'without the cause');
  t.equal(toAppError(Object.assign(new Error('Bad'), { statusCode: 400 })).code, 'VALIDATION_ERROR');
  const unknown = toAppError(new TypeError('secret internals'));
  t.same([unknown.code, unknown.status], ['INTERNAL_ERROR', 500]);
  t.notMatch(unknown.message, /secret internals/);

  t.same(
    envelope({ code: 'NOT_FOUND', message: 'm' }, 'req_1'),
    { error: { code: 'NOT_FOUND', message: 'm', requestId: 'req_1' } },
    'no details key without details',
  );

  const logged: string[] = [];
  const req = {
    id: 'req_2',
    log: { error: (_o: unknown, m: string) => logged.push(`error ${m}`), warn: (_o: unknown, m: string) => logged.push(`warn ${m}`) },
  } as unknown as Parameters<typeof logFailure>[0];
  logFailure(req, new TypeError('x'), unknown);
  logFailure(req, new Error('down'), down);
  logFailure(req, own, own);
  t.same(logged, ['error unhandled error', 'warn dependency unavailable'], "a caller's error is not logged");
});
