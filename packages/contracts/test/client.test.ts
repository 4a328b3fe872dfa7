// OperatorClient signs afresh a request it signed itself that comes back 401 SIGNATURE_REUSED (the
// same version-1 bytes sent in one second under another key), and sends a caller's own timestamp
// or signature as given, so tests of the refusal still see it.
import t from 'tap';
import { OperatorClient } from '../src/client.ts';
import { signRequest } from '../src/signing.ts';

interface Sent {
  timestamp: string;
  signature: string;
  key: string | undefined;
}

/** A fetch that answers each call with the next status (401 is SIGNATURE_REUSED) and records what was signed. */
function scripted(statuses: number[]): { fetchImpl: typeof fetch; sent: Sent[] } {
  const sent: Sent[] = [];
  const fetchImpl = (async (_url: string, init: RequestInit) => {
    const h = init.headers as Record<string, string>;
    sent.push({ timestamp: h['x-timestamp'] ?? '', signature: h['x-signature'] ?? '', key: h['idempotency-key'] });
    const status = statuses[sent.length - 1] ?? 500;
    const body = status === 401 ? { error: { code: 'SIGNATURE_REUSED', message: 'sign the request afresh' } } : { id: 'dep_1' };
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;
  return { fetchImpl, sent };
}

const options = { baseUrl: 'http://api.test/api/v1', key: 'pk_test_1', secret: 'sk_test_1' };
const body = { amount: '10.00', currency: 'BRL' };

t.test('refused as a reused signature: signed afresh with a later timestamp, same key, and answered', async (t) => {
  const { fetchImpl, sent } = scripted([401, 201]);
  const res = await new OperatorClient({ ...options, fetchImpl }).post('/players/plr_1/deposits', body, { 'idempotency-key': 'dep-key-0001' });
  t.equal(res.status, 201, 'the second send is the answer');
  t.equal(sent.length, 2);
  const [first, second] = sent as [Sent, Sent];
  t.ok(Number(second.timestamp) > Number(first.timestamp), 'the second send has a later X-Timestamp');
  t.equal(second.signature, signRequest(options.secret, 'POST', '/api/v1/players/plr_1/deposits', second.timestamp, JSON.stringify(body)), 'signed for it');
  t.same(
    sent.map((s) => s.key),
    ['dep-key-0001', 'dep-key-0001'],
    'under the same Idempotency-Key',
  );
});

t.test('still refused after three sends: the refusal is the answer', async (t) => {
  const { fetchImpl, sent } = scripted([401, 401, 401, 201]);
  const res = await new OperatorClient({ ...options, fetchImpl }).post('/players/plr_1/deposits', body, { 'idempotency-key': 'dep-key-0002' });
  t.equal(res.status, 401);
  t.equal(res.body.error.code, 'SIGNATURE_REUSED');
  t.equal(sent.length, 3);
});

t.test("a caller's own timestamp or signature is sent once, as given", async (t) => {
  const givens: Record<string, string>[] = [{ 'x-timestamp': '1700000000' }, { 'x-signature': 'ab'.repeat(32) }];
  for (const given of givens) {
    const { fetchImpl, sent } = scripted([401, 201]);
    const res = await new OperatorClient({ ...options, fetchImpl }).post('/players/plr_1/deposits', body, { ...given, 'idempotency-key': 'dep-key-0003' });
    t.equal(res.status, 401, `${Object.keys(given)[0]}: the refusal comes back`);
    t.equal(sent.length, 1, `${Object.keys(given)[0]}: sent once`);
  }
});

t.test('another 401 is not sent again', async (t) => {
  const sent: number[] = [];
  const fetchImpl = (async () => {
    sent.push(1);
    return new Response(JSON.stringify({ error: { code: 'INVALID_SIGNATURE' } }), { status: 401 });
  }) as unknown as typeof fetch;
  const res = await new OperatorClient({ ...options, fetchImpl }).get('/players/plr_1');
  t.equal(res.status, 401);
  t.equal(sent.length, 1);
});
