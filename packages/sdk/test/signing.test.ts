// The SDK's signing (node:crypto, no contracts import) produces exactly what @bo/contracts and
// the published request test vectors produce.
import t from 'tap';
import { bodyDigest, canonicalString, canonicalStringV2, signRequest as contractSign, signRequestV2 as contractSignV2 } from '@bo/contracts';
import { buildTestVectors } from '@bo/portal';
import { EMPTY_BODY_SHA256, bodySha256, canonicalRequestString, canonicalRequestStringV2, signRequest, signRequestV2 } from '../src/index.ts';

const SECRET = 'sk_test_SigningSecret000000000000000000000000';
const SECRET_OF_VECTORS = 'sk_test_VectorSecretDoNotUseInProduction000000000000';

t.test('matches @bo/contracts on GET, query, empty-body POST, JSON and non-ASCII bodies', async (t) => {
  const cases: [string, string, string, string | Buffer | undefined][] = [
    ['GET', '/api/v1/me', '1763719200', undefined],
    ['get', '/api/v1/players?externalId=user%2042', '1763719200', ''],
    ['POST', '/api/v1/deposits/dep_1/confirm', '1763719261', ''],
    ['POST', '/api/v1/players', '1763719260', '{"name":"João Conceição ção 🎲"}'],
    ['POST', '/api/v1/players', '1763719260', Buffer.from('{"name":"Zoë"}')],
  ];
  const ours = cases.map(([m, p, ts, b]) => ({ canonical: canonicalRequestString(m, p, ts, b), digest: bodySha256(b), sig: signRequest(SECRET, m, p, ts, b) }));
  const theirs = cases.map(([m, p, ts, b]) => ({ canonical: canonicalString(m, p, ts, b), digest: bodyDigest(b), sig: contractSign(SECRET, m, p, ts, b) }));
  t.same(ours, theirs);
  t.equal(EMPTY_BODY_SHA256, 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
});

t.test('reproduces every published request test vector', async (t) => {
  const { requests } = buildTestVectors('/api/v1');
  t.same(
    requests.map((v) => ({
      bodySha256: bodySha256(v.body),
      canonicalString: canonicalRequestString(v.method, v.path, v.timestamp, v.body),
      signature: signRequest(v.secret, v.method, v.path, v.timestamp, v.body),
    })),
    requests.map((v) => ({ bodySha256: v.bodySha256, canonicalString: v.canonicalString, signature: v.signature })),
    `${requests.length} request vectors`,
  );
});

t.test('version 2 (the Idempotency-Key signed too): matches @bo/contracts and every published vector', async (t) => {
  const { requestsV2 } = buildTestVectors('/api/v1');
  t.same(
    requestsV2.map((v) => ({
      canonicalString: canonicalRequestStringV2(v.method, v.path, v.timestamp, v.body, v.idempotencyKey),
      signature: signRequestV2(v.secret, v.method, v.path, v.timestamp, v.body, v.idempotencyKey),
    })),
    requestsV2.map((v) => ({
      canonicalString: canonicalStringV2(v.method, v.path, v.timestamp, v.body, v.idempotencyKey),
      signature: contractSignV2(SECRET_OF_VECTORS, v.method, v.path, v.timestamp, v.body, v.idempotencyKey),
    })),
    `${requestsV2.length} version 2 vectors`,
  );
  t.same(
    requestsV2.map((v) => signRequestV2(v.secret, v.method, v.path, v.timestamp, v.body, v.idempotencyKey)),
    requestsV2.map((v) => v.signature),
    'as published',
  );
  const [a, b] = requestsV2;
  t.not(a!.signature, b!.signature, 'the same body-less POST in the same second with two keys: two signatures');
  t.not(
    signRequestV2(SECRET, 'POST', '/api/v1/players', '1', '', 'k1'),
    signRequest(SECRET, 'POST', '/api/v1/players', '1', ''),
    'never a version 1 signature',
  );
});
