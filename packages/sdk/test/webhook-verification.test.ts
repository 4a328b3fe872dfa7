// Webhook verification for both schemes: the published test vectors, tolerance and clock, header
// shapes and case, string and Buffer bodies, tampering, secret rotation, and a real HTTP delivery.
import t from 'tap';
import http from 'node:http';
import { signStandardWebhook, signWebhook, webhookHeaders } from '@bo/contracts';
import { buildTestVectors } from '@bo/portal';
import { BackOffice, WebhookVerificationError, verifyWebhook, type VerifiedWebhook } from '../src/index.ts';

const [vector] = buildTestVectors('/api/v1').webhooks;
const atVector = () => Number(vector!.timestamp) * 1000;
const xHeaders = { 'X-Webhook-Id': vector!.id, 'X-Webhook-Timestamp': vector!.timestamp, 'X-Webhook-Signature': vector!.signature };
const stdHeaders = { 'webhook-id': vector!.id, 'webhook-timestamp': vector!.timestamp, 'webhook-signature': vector!.standardWebhooksSignature };

const reasonOf = (fn: () => unknown): string => {
  try {
    fn();
    return 'accepted';
  } catch (e) {
    return e instanceof WebhookVerificationError ? e.reason : `threw ${(e as Error).name}`;
  }
};

t.test('the published vector verifies with both schemes, given its clock', async (t) => {
  const x = verifyWebhook(vector!.body, xHeaders, { secret: vector!.secret, now: atVector });
  t.match(x, {
    id: vector!.id,
    timestamp: Number(vector!.timestamp),
    scheme: 'x-webhook',
    event: { id: vector!.id, type: 'deposit.confirmed', environment: 'sandbox' },
  });
  const s = verifyWebhook(Buffer.from(vector!.body), stdHeaders, { secret: vector!.secret, now: atVector });
  t.match(s, { id: vector!.id, scheme: 'standard-webhooks', event: { type: 'deposit.confirmed', data: { id: 'dep_1' } } });
});

t.test('tolerance and clock', async (t) => {
  t.equal(
    reasonOf(() => verifyWebhook(vector!.body, xHeaders, { secret: vector!.secret })),
    'timestamp_out_of_tolerance',
    'the old vector is refused on the real clock',
  );
  t.equal(
    reasonOf(() => verifyWebhook(vector!.body, xHeaders, { secret: vector!.secret, toleranceSeconds: Number.POSITIVE_INFINITY })),
    'accepted',
    'or accepted with an unlimited tolerance',
  );
  const results = [-301, -300, 300, 301].map((offset) =>
    reasonOf(() => verifyWebhook(vector!.body, stdHeaders, { secret: vector!.secret, now: () => atVector() + offset * 1000 })),
  );
  t.same(results, ['timestamp_out_of_tolerance', 'accepted', 'accepted', 'timestamp_out_of_tolerance'], '300 s either way by default');
  t.equal(
    reasonOf(() => verifyWebhook(vector!.body, xHeaders, { secret: vector!.secret, now: () => atVector() + 11_000, toleranceSeconds: 10 })),
    'timestamp_out_of_tolerance',
    'a tighter tolerance',
  );
  t.equal(
    reasonOf(() => verifyWebhook(vector!.body, { ...xHeaders, 'X-Webhook-Timestamp': '17637192OO' }, { secret: vector!.secret, now: atVector })),
    'invalid_timestamp',
  );
});

t.test('header names in any case and any header shape', async (t) => {
  const shapes = {
    upper: { 'X-WEBHOOK-ID': vector!.id, 'X-WEBHOOK-TIMESTAMP': vector!.timestamp, 'X-WEBHOOK-SIGNATURE': vector!.signature },
    lower: Object.fromEntries(Object.entries(xHeaders).map(([k, v]) => [k.toLowerCase(), v])),
    arrays: Object.fromEntries(Object.entries(xHeaders).map(([k, v]) => [k, [v]])),
    fetchHeaders: new Headers(xHeaders),
    stdMixedCase: { 'Webhook-Id': vector!.id, 'WEBHOOK-TIMESTAMP': vector!.timestamp, 'Webhook-Signature': vector!.standardWebhooksSignature },
    stdFetchHeaders: new Headers(stdHeaders),
  };
  const results = Object.fromEntries(
    Object.entries(shapes).map(([name, h]) => [name, reasonOf(() => verifyWebhook(vector!.body, h, { secret: vector!.secret, now: atVector }))]),
  );
  t.same(results, Object.fromEntries(Object.keys(shapes).map((k) => [k, 'accepted'])));
});

t.test('tampering, wrong secrets and missing headers are refused', async (t) => {
  const tampered = vector!.body.replace('dep_1', 'dep_2');
  const verdicts = {
    tamperedX: reasonOf(() => verifyWebhook(tampered, xHeaders, { secret: vector!.secret, now: atVector })),
    tamperedStd: reasonOf(() => verifyWebhook(tampered, stdHeaders, { secret: vector!.secret, now: atVector })),
    reserialisedX: reasonOf(() => verifyWebhook(JSON.stringify(JSON.parse(vector!.body), null, 1), xHeaders, { secret: vector!.secret, now: atVector })),
    wrongSecretX: reasonOf(() => verifyWebhook(vector!.body, xHeaders, { secret: 'whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', now: atVector })),
    wrongSecretStd: reasonOf(() => verifyWebhook(vector!.body, stdHeaders, { secret: 'whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', now: atVector })),
    otherIdStd: reasonOf(() => verifyWebhook(vector!.body, { ...stdHeaders, 'webhook-id': 'evt_other' }, { secret: vector!.secret, now: atVector })),
    shortHex: reasonOf(() =>
      verifyWebhook(vector!.body, { ...xHeaders, 'X-Webhook-Signature': vector!.signature.slice(0, 62) }, { secret: vector!.secret, now: atVector }),
    ),
    upperHex: reasonOf(() =>
      verifyWebhook(vector!.body, { ...xHeaders, 'X-Webhook-Signature': vector!.signature.toUpperCase() }, { secret: vector!.secret, now: atVector }),
    ),
    v2Only: reasonOf(() =>
      verifyWebhook(
        vector!.body,
        { ...stdHeaders, 'webhook-signature': vector!.standardWebhooksSignature.replace('v1,', 'v2,') },
        { secret: vector!.secret, now: atVector },
      ),
    ),
    noHeaders: reasonOf(() => verifyWebhook(vector!.body, {}, { secret: vector!.secret, now: atVector })),
    forcedStdWithOnlyX: reasonOf(() => verifyWebhook(vector!.body, xHeaders, { secret: vector!.secret, now: atVector, scheme: 'standard-webhooks' })),
    parsedObject: reasonOf(() => verifyWebhook(JSON.parse(vector!.body) as unknown as string, xHeaders, { secret: vector!.secret, now: atVector })),
  };
  t.same(verdicts, {
    tamperedX: 'invalid_signature',
    tamperedStd: 'invalid_signature',
    reserialisedX: 'invalid_signature',
    wrongSecretX: 'invalid_signature',
    wrongSecretStd: 'invalid_signature',
    otherIdStd: 'invalid_signature',
    shortHex: 'invalid_signature',
    upperHex: 'accepted',
    v2Only: 'invalid_signature',
    noHeaders: 'missing_headers',
    forcedStdWithOnlyX: 'missing_headers',
    parsedObject: 'threw TypeError',
  });
});

t.test('auto picks the authoritative X-Webhook-Signature when both are present; rotation accepts any secret', async (t) => {
  const both = { ...xHeaders, ...stdHeaders, 'webhook-signature': 'v1,AAAA' };
  t.equal(verifyWebhook(vector!.body, both, { secret: vector!.secret, now: atVector }).scheme, 'x-webhook');
  const old = 'whsec_b2xkLXNlY3JldC1vbGQtc2VjcmV0LW9sZC1zZWNyZXQ=';
  const rotatedStd = {
    ...stdHeaders,
    'webhook-signature': `${signStandardWebhook(old, vector!.id, vector!.timestamp, vector!.body)} ${vector!.standardWebhooksSignature}`,
  };
  t.equal(
    verifyWebhook(vector!.body, rotatedStd, { secret: vector!.secret, now: atVector }).scheme,
    'standard-webhooks',
    'several v1 signatures: one matching is enough',
  );
  t.equal(verifyWebhook(vector!.body, xHeaders, { secret: [old, vector!.secret], now: atVector }).id, vector!.id, 'several secrets: one matching is enough');
  t.equal(
    reasonOf(() => verifyWebhook(vector!.body, xHeaders, { secret: [old], now: atVector })),
    'invalid_signature',
  );
});

t.test("during a secret rotation's overlap the default accepts the new secret alone, through webhook-signature", async (t) => {
  // The headers the service sends in the overlap (contracts' webhookHeaders): webhook-signature is
  // `v1,<new> v1,<previous>`, X-Webhook-Signature stays on the previous secret.
  const previous = 'whsec_b2xkLXNlY3JldC1vbGQtc2VjcmV0LW9sZC1zZWNyZXQ=';
  const next = vector!.secret;
  const wrong = 'whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
  const overlap = webhookHeaders(next, vector!.id, Number(vector!.timestamp), Buffer.from(vector!.body), previous);
  const verdict = (secret: string | string[], more: Partial<Parameters<typeof verifyWebhook>[2]> = {}, headers: Record<string, string> = overlap) => {
    try {
      return verifyWebhook(vector!.body, headers, { secret, now: atVector, ...more }).scheme;
    } catch (e) {
      return e instanceof WebhookVerificationError ? e.reason : `threw ${(e as Error).name}`;
    }
  };
  t.same(
    {
      newOnly: verdict(next),
      previousOnly: verdict(previous),
      both: verdict([next, previous]),
      wrong: verdict(wrong),
      newOnlyForcedXWebhook: verdict(next, { scheme: 'x-webhook' }),
      newOnlyForcedStandard: verdict(next, { scheme: 'standard-webhooks' }),
      newOnlyStale: verdict(next, { now: () => atVector() + 301_000 }),
      newOnlyTamperedStandard: verdict(
        next,
        {},
        { ...overlap, 'webhook-signature': overlap['webhook-signature']!.replace(/^v1,(.)/, (_, c) => (c === 'A' ? 'v1,B' : 'v1,A')) },
      ),
      newOnlyWithoutStandard: verdict(next, {}, { ...overlap, 'webhook-signature': '' }),
    },
    {
      newOnly: 'standard-webhooks',
      previousOnly: 'x-webhook',
      both: 'x-webhook',
      wrong: 'invalid_signature',
      newOnlyForcedXWebhook: 'invalid_signature',
      newOnlyForcedStandard: 'standard-webhooks',
      newOnlyStale: 'timestamp_out_of_tolerance',
      newOnlyTamperedStandard: 'invalid_signature',
      newOnlyWithoutStandard: 'invalid_signature',
    },
  );
  const partialX = { 'X-Webhook-Signature': vector!.signature, ...stdHeaders };
  t.equal(verdict(next, {}, partialX), 'standard-webhooks', 'an incomplete X-Webhook set does not hide complete Standard Webhooks headers');
});

t.test('a real delivery over HTTP, verified from IncomingHttpHeaders and the raw Buffer', async (t) => {
  const secret = 'whsec_dGVzdC1zZWNyZXQtZm9yLXRoZS1zZGstMzItYnl0ZXM=';
  const sdk = new BackOffice({ baseUrl: 'http://127.0.0.1:1/api/v1', key: 'bk_test_x', secret: 'sk_test_x', webhookSecret: secret });
  const verified: VerifiedWebhook[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        verified.push(sdk.webhooks.verify(Buffer.concat(chunks), req.headers));
        res.writeHead(204).end();
      } catch {
        res.writeHead(401).end();
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(
    () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  );
  const { port } = server.address() as { port: number };
  const body = JSON.stringify({
    id: 'evt_1',
    type: 'webhook.test',
    createdAt: new Date().toISOString(),
    environment: 'sandbox',
    data: { message: 'olá, ação ✓' },
  });
  const ts = String(Math.floor(Date.now() / 1000));
  const res = await fetch(`http://127.0.0.1:${port}/hooks`, {
    method: 'POST',
    body,
    headers: {
      'content-type': 'application/json',
      'X-Webhook-Id': 'evt_1',
      'X-Webhook-Timestamp': ts,
      'X-Webhook-Signature': signWebhook(secret, ts, body),
      'webhook-id': 'evt_1',
      'webhook-timestamp': ts,
      'webhook-signature': signStandardWebhook(secret, 'evt_1', ts, body),
    },
  });
  t.equal(res.status, 204);
  const event = verified[0]!.event;
  t.equal(event.type === 'webhook.test' ? event.data.message : undefined, 'olá, ação ✓', 'non-ASCII body verified over its bytes');
});
