// Fixed inputs and the signatures they must produce, computed with the same code the gateway
// verifies with, so an operator can check their own signing against them.
import { bodyDigest, canonicalString, canonicalStringV2, signRequest, signRequestV2, signStandardWebhook, signWebhook, webhookHeaders } from '@bo/contracts';

const SECRET = 'sk_test_VectorSecretDoNotUseInProduction000000000000';
const WEBHOOK_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
/** The secret a rotation replaced: still signing during the overlap. */
const PREVIOUS_WEBHOOK_SECRET = 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD';

export function buildTestVectors(apiPrefix: string) {
  const requests = [
    { method: 'GET', path: `${apiPrefix}/me`, timestamp: '1763719200', body: '' },
    { method: 'GET', path: `${apiPrefix}/players?externalId=user-42`, timestamp: '1763719200', body: '' },
    {
      method: 'POST',
      path: `${apiPrefix}/players`,
      timestamp: '1763719260',
      body: '{"externalId":"user-42","name":"Ana Souza","email":"ana@example.com","cpf":"52998224725","birthDate":"1990-05-17"}',
    },
    // The query is signed exactly as sent: percent-encoded, never decoded or re-encoded.
    { method: 'GET', path: `${apiPrefix}/players?externalId=jo%C3%A3o%20silva%2B1`, timestamp: '1763719320', body: '' },
    // A POST without a body signs the digest of the empty string, like a GET.
    { method: 'POST', path: `${apiPrefix}/webhooks/test`, timestamp: '1763719380', body: '' },
    // Non-ASCII text is hashed as its UTF-8 bytes.
    {
      method: 'POST',
      path: `${apiPrefix}/players`,
      timestamp: '1763719440',
      body: '{"externalId":"user-43","name":"João Müller","email":"joao@example.com","cpf":"11144477735","birthDate":"1985-02-28"}',
    },
  ].map((r) => ({
    ...r,
    secret: SECRET,
    bodyUtf8Bytes: Buffer.byteLength(r.body, 'utf8'),
    key: 'bk_test_VectorKey0000000000000000000',
    bodySha256: bodyDigest(r.body),
    canonicalString: canonicalString(r.method, r.path, r.timestamp, r.body),
    signature: signRequest(SECRET, r.method, r.path, r.timestamp, r.body),
  }));
  // Version 2 (X-Signature-Version: 2, issue #61): the Idempotency-Key signed too. Two of these are the
  // same body-less POST in the same second with two keys: two signatures, both accepted.
  const requestsV2 = [
    { method: 'POST', path: `${apiPrefix}/sandbox/players/plr_vector/next-day`, timestamp: '1763719500', body: '', idempotencyKey: 'k-2026-11-21-0001' },
    { method: 'POST', path: `${apiPrefix}/sandbox/players/plr_vector/next-day`, timestamp: '1763719500', body: '', idempotencyKey: 'k-2026-11-21-0002' },
    {
      method: 'POST',
      path: `${apiPrefix}/players`,
      timestamp: '1763719560',
      body: '{"externalId":"user-44","name":"Lia Prado","email":"lia@example.com","cpf":"39053344705","birthDate":"1992-07-09"}',
      idempotencyKey: 'create-user-44',
    },
    // A signed GET has no key: the last line is empty.
    { method: 'GET', path: `${apiPrefix}/me`, timestamp: '1763719620', body: '', idempotencyKey: '' },
  ].map((r) => ({
    ...r,
    signatureVersion: '2',
    secret: SECRET,
    key: 'bk_test_VectorKey0000000000000000000',
    bodySha256: bodyDigest(r.body),
    canonicalString: canonicalStringV2(r.method, r.path, r.timestamp, r.body, r.idempotencyKey),
    signature: signRequestV2(SECRET, r.method, r.path, r.timestamp, r.body, r.idempotencyKey),
  }));
  const whBody =
    '{"id":"evt_01934b7e8c8e7c3a9f2d1b0a99887766","type":"deposit.confirmed","createdAt":"2026-11-21T10:00:00.000Z","environment":"sandbox","data":{"id":"dep_1"}}';
  const webhooks = [
    {
      note: 'A recorded delivery: verify it with a clock set to its timestamp (now = 1763719200) or a large enough tolerance.',
      secret: WEBHOOK_SECRET,
      id: 'evt_01934b7e8c8e7c3a9f2d1b0a99887766',
      timestamp: '1763719200',
      body: whBody,
      signedContent: `1763719200.${whBody}`,
      signature: signWebhook(WEBHOOK_SECRET, '1763719200', whBody),
      standardWebhooksSignature: signStandardWebhook(WEBHOOK_SECRET, 'evt_01934b7e8c8e7c3a9f2d1b0a99887766', '1763719200', whBody),
    },
  ];
  // A delivery during a secret rotation's overlap, with the headers exactly as sent.
  const rotationId = 'evt_01934b7e8c8e7c3a9f2d1b0a99887767';
  const rotationBody = whBody.replace(webhooks[0]!.id, rotationId);
  const {
    'content-type': _type,
    'user-agent': _agent,
    ...rotationHeaders
  } = webhookHeaders(WEBHOOK_SECRET, rotationId, 1763719200, Buffer.from(rotationBody), PREVIOUS_WEBHOOK_SECRET);
  const webhookRotation = {
    note: "A delivery during a secret rotation's overlap (now = 1763719200): X-Webhook-Signature is signed with the previous secret, webhook-signature carries a v1 signature with each secret (the new first). A verifier given the new secret alone, the previous alone, or both accepts it; given another secret it rejects it.",
    newSecret: WEBHOOK_SECRET,
    previousSecret: PREVIOUS_WEBHOOK_SECRET,
    timestamp: '1763719200',
    body: rotationBody,
    headers: rotationHeaders,
  };
  return {
    description:
      'X-Signature = lowercase hex HMAC-SHA256(secret, METHOD \\n PATH?QUERY \\n X-Timestamp \\n sha256hex(body)); with X-Signature-Version: 2 (requestsV2), HMAC-SHA256(secret, "v2" \\n METHOD \\n PATH?QUERY \\n X-Timestamp \\n sha256hex(body) \\n Idempotency-Key or ""); X-Webhook-Signature = hex HMAC-SHA256(whsec secret string, timestamp + "." + raw body).',
    requests,
    requestsV2,
    webhooks,
    webhookRotation,
  };
}
