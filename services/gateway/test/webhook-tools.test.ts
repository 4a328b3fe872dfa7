// API 1.2.0 through the gateway, with the real webhooks service: an operator lists its events and
// their attempts and redelivers one, never seeing another operator's or environment's; our team
// rotates a webhook secret and, for the overlap, deliveries verify with the old and the new secret.
import t from 'tap';
import { signStandardWebhook, signWebhook } from '@bo/contracts';
import { startServiceWith, type RunningService } from '@bo/service-kit';
import { testNatsUrl, waitFor } from '@bo/service-kit/testing';
import { webhooksService } from '@bo/webhooks';
import { startHarness } from './support/harness.ts';
import { startReceiver, type ReceivedDelivery as Received } from './support/webhook-receiver.ts';

/** Checked with the contract's signing functions, independently of the delivery code path. */
const verifies = (r: Received, secret: string, scheme: 'x-webhook' | 'standard') => {
  if (scheme === 'x-webhook') return r.headers['x-webhook-signature'] === signWebhook(secret, String(r.headers['x-webhook-timestamp']), r.raw);
  const expected = signStandardWebhook(secret, String(r.headers['webhook-id']), String(r.headers['webhook-timestamp']), r.raw);
  return String(r.headers['webhook-signature']).split(' ').includes(expected);
};

t.test('operator webhook tools and secret rotation', async (t) => {
  const h = await startHarness({ RPC_TIMEOUT_MS: '20000' });
  t.teardown(() => h.close());
  const webhooks: RunningService = await startServiceWith(webhooksService, {
    DATABASE_URL: h.db.url,
    NATS_URL: testNatsUrl(),
    NATS_PREFIX: h.prefix,
    LOG_LEVEL: 'warn',
  });
  t.teardown(() => webhooks.stop());
  const receiver = await startReceiver(t);
  const a = await h.createOperator({ name: 'Alpha' });
  const b = await h.createOperator({ name: 'Beta' });
  for (const op of [a, b]) {
    const set = await h.admin('PUT', `/admin/operators/${op.operator.id}/webhooks/sandbox`, { url: receiver.url });
    t.equal(set.status, 200, 'sandbox URL set');
  }

  const tested = await a.sandboxClient.post('/webhooks/test', undefined);
  t.equal(tested.status, 200);
  t.equal(tested.body.delivered, true, JSON.stringify(tested.body));
  const eventId = tested.body.eventId as string;

  const listed = await a.sandboxClient.get('/webhooks/events');
  t.equal(listed.status, 200);
  t.same(
    listed.body.data.map((e: { id: string; type: string; deliveryStatus: string }) => [e.id, e.type, e.deliveryStatus]),
    [[eventId, 'webhook.test', 'delivered']],
  );
  t.same((await b.sandboxClient.get('/webhooks/events')).body.data, [], 'another operator sees none of it');
  t.same((await a.productionClient.get('/webhooks/events')).body.data, [], 'nor does the production key of the same operator');
  t.equal((await b.sandboxClient.get(`/webhooks/events/${eventId}/attempts`)).body.error.code, 'WEBHOOK_EVENT_NOT_FOUND');
  const log = await a.sandboxClient.get(`/webhooks/events/${eventId}/attempts`);
  t.match(log.body.data, [{ attempt: 1, url: receiver.url, outcome: 'delivered', statusCode: 204 }]);

  const noKey = await a.sandboxClient.post(`/webhooks/events/${eventId}/redeliver`, undefined);
  t.equal(noKey.status, 400, 'redelivery needs an Idempotency-Key');
  const other = await b.sandboxClient.post(`/webhooks/events/${eventId}/redeliver`, undefined, { 'idempotency-key': 'redeliver-1' });
  t.equal(other.status, 404, `another operator cannot redeliver it: ${JSON.stringify(other.body)}`);
  const again = await a.sandboxClient.post(`/webhooks/events/${eventId}/redeliver`, undefined, { 'idempotency-key': 'redeliver-1' });
  t.equal(again.status, 202);
  t.match(again.body, { eventId, deliveryStatus: 'pending' });
  const replay = await a.sandboxClient.post(`/webhooks/events/${eventId}/redeliver`, undefined, { 'idempotency-key': 'redeliver-1' });
  t.same([replay.status, replay.body.deliveryId, replay.headers.get('idempotent-replayed')], [202, again.body.deliveryId, 'true']);
  await waitFor(async () => receiver.requests.filter((r) => r.headers['x-webhook-id'] === eventId).length === 2, { what: 'the redelivery' });

  // Rotation: the new secret is shown once; for the overlap both secrets sign.
  const rotated = await h.admin('POST', `/admin/operators/${a.operator.id}/webhooks/sandbox/rotate-secret`, { overlapSeconds: 3600 });
  t.equal(rotated.status, 200, JSON.stringify(rotated.body));
  const newSecret = rotated.body.webhookSecret as string;
  t.match(newSecret, /^whsec_/);
  t.not(newSecret, a.sandbox.webhookSecret);
  t.ok(Date.parse(rotated.body.previousSecretExpiresAt) > Date.now() + 3_000_000, 'the overlap ends in an hour');
  const before = receiver.requests.length;
  t.equal((await a.sandboxClient.post('/webhooks/test', undefined)).body.delivered, true);
  const during = receiver.requests[before]!;
  t.equal(String(during.headers['webhook-signature']).split(' ').length, 2, 'two v1 signatures during the overlap');
  t.ok(verifies(during, newSecret, 'standard') && verifies(during, a.sandbox.webhookSecret, 'standard'), 'standard signature verifies with either secret');
  t.ok(verifies(during, a.sandbox.webhookSecret, 'x-webhook'), 'X-Webhook-Signature still verifies with the previous secret');

  const audit = await h.admin('GET', `/admin/audit?target=operator:${a.operator.id}`);
  const row = audit.body.data.find((r: { action: string }) => r.action === 'adminRotateWebhookSecret');
  t.ok(row, 'the rotation is audited');
  t.notOk(JSON.stringify(row).includes('whsec_') || JSON.stringify(row).includes('v1.'), 'the audit row holds no secret');

  const immediate = await h.admin('POST', `/admin/operators/${a.operator.id}/webhooks/sandbox/rotate-secret`, { overlapSeconds: 0 });
  t.equal(immediate.body.previousSecretExpiresAt, null, 'no overlap asked, none given');
  const third = immediate.body.webhookSecret as string;
  const mark = receiver.requests.length;
  t.equal((await a.sandboxClient.post('/webhooks/test', undefined)).body.delivered, true);
  const after = receiver.requests[mark]!;
  t.equal(String(after.headers['webhook-signature']).split(' ').length, 1);
  t.ok(verifies(after, third, 'x-webhook') && verifies(after, third, 'standard'), 'only the newest secret signs');
  t.notOk(verifies(after, newSecret, 'standard'), 'the replaced secret no longer verifies');
  t.equal((await h.admin('POST', `/admin/operators/op_missing/webhooks/sandbox/rotate-secret`, {})).status, 404);
});
