// The one signing module: requests (canonical string, HMAC, constant-time verification, the
// timestamp window) and webhooks (the contract's X-Webhook-Signature, Standard Webhooks).
import t from 'tap';
import { createHmac, createSecretKey } from 'node:crypto';
import {
  canonicalString,
  EMPTY_BODY_SHA256,
  signRequest,
  signStandardWebhook,
  signWebhook,
  timestampInRange,
  verifyRequestSignature,
  webhookHeaders,
} from '../src/signing.ts';

t.test('request signature: HMAC over METHOD, raw path, timestamp and body digest; verified in constant time', async (t) => {
  const secret = 'sk_test_example';
  const body = Buffer.from('{"amount":"10.00"}');
  t.equal(canonicalString('post', '/api/v1/players?x=%20', '1700000000', undefined), `POST\n/api/v1/players?x=%20\n1700000000\n${EMPTY_BODY_SHA256}`);
  const sig = signRequest(secret, 'POST', '/api/v1/players', '1700000000', body);
  t.equal(
    sig,
    createHmac('sha256', secret)
      .update(canonicalString('POST', '/api/v1/players', '1700000000', body))
      .digest('hex'),
  );
  const key = createSecretKey(Buffer.from(secret, 'utf8'));
  t.ok(verifyRequestSignature(key, 'POST', '/api/v1/players', '1700000000', body, sig), 'verifies');
  t.ok(verifyRequestSignature(key, 'POST', '/api/v1/players', '1700000000', body, sig.toUpperCase()), 'hex case-insensitively');
  t.notOk(verifyRequestSignature(key, 'POST', '/api/v1/players', '1700000001', body, sig), 'another timestamp');
  t.notOk(verifyRequestSignature(key, 'POST', '/api/v1/players', '1700000000', Buffer.from('{}'), sig), 'another body');
  t.notOk(verifyRequestSignature(key, 'POST', '/api/v1/players', '1700000000', body, sig.slice(2)), 'malformed');
  t.notOk(verifyRequestSignature(key, 'POST', '/api/v1/players', '1700000000', body, undefined), 'missing');
});

t.test('X-Timestamp: integer epoch seconds within 300 s either way', async (t) => {
  const now = 1_700_000_000_000;
  t.ok(timestampInRange('1700000300', now));
  t.ok(timestampInRange('1699999700', now));
  t.notOk(timestampInRange('1700000301', now));
  t.notOk(timestampInRange('1699999699', now));
  t.notOk(timestampInRange('1700000000.5', now));
  t.notOk(timestampInRange(undefined, now));
});

t.test('Standard Webhooks signature matches the specification test vector', async (t) => {
  t.equal(
    signStandardWebhook('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, Buffer.from('{"test": 2432232314}')),
    'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
  );
});

t.test('X-Webhook-Signature: hex HMAC-SHA256 keyed with the whole whsec_ string over timestamp.body', async (t) => {
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  const body = Buffer.from('{"id":"evt_1","data":{"name":"São Paulo"}}');
  const expected = createHmac('sha256', secret)
    .update(`1700000000.${body.toString('utf8')}`)
    .digest('hex');
  t.equal(signWebhook(secret, 1700000000, body), expected);
  t.match(expected, /^[0-9a-f]{64}$/);
  t.not(signWebhook(secret, 1700000001, body), expected, 'the timestamp is signed');
  const h = webhookHeaders(secret, 'evt_1', 1700000000, body);
  t.same(
    {
      id: h['x-webhook-id'],
      ts: h['x-webhook-timestamp'],
      sig: h['x-webhook-signature'],
      sid: h['webhook-id'],
      sts: h['webhook-timestamp'],
      ct: h['content-type'],
    },
    { id: 'evt_1', ts: '1700000000', sig: expected, sid: 'evt_1', sts: '1700000000', ct: 'application/json' },
  );
  t.equal(h['webhook-signature'], signStandardWebhook(secret, 'evt_1', 1700000000, body));
});
