// The operations the gateway forwards: webhooks.test (one attempt now, never retried, 409 without
// a URL), the admin delivery log and redelivery.
import t from 'tap';
import { webhookAdminOperations, webhookOperations, type AuditRecorded, type DeliveryLogItem, type WebhookTestResult } from '@bo/contracts';
import { waitFor } from '@bo/service-kit/testing';
import { adminScope, call, newWebhookSecret, operatorScope, publishEvent, startReceiver, startStack, upsertEndpoint, type Stack } from './helpers.ts';

const TEST = webhookOperations.testWebhook.subject;
const LOG = webhookAdminOperations.adminListDeliveries.subject;
const REDELIVER = webhookAdminOperations.adminRedeliver.subject;

async function configure(stack: Stack, operatorId: string, environment: 'sandbox' | 'production', url: string | undefined, secret: string) {
  await upsertEndpoint(stack, { operatorId, environment, brandId: `brd_${operatorId}`, secret, ...(url ? { url } : {}) });
}

t.test('webhooks.test makes one signed attempt now and reports it', async (t) => {
  const stack = await startStack(t);
  const secret = newWebhookSecret();
  const rx = await startReceiver(secret, (n) => (n === 1 ? 200 : 500));
  t.teardown(() => rx.close());
  await configure(stack, 'op_t', 'sandbox', rx.url, secret);

  const ok = await call<WebhookTestResult>(stack.svc.nc, stack.prefix, TEST, operatorScope('op_t', 'sandbox'));
  t.equal(ok.ok, true);
  if (!ok.ok) return;
  t.equal(ok.status, 200);
  t.match(ok.body, { eventId: /^evt_/, url: rx.url, delivered: true, statusCode: 200, error: null, durationMs: Number });
  t.equal(rx.requests.length, 1, 'the receiver got it before the reply');
  const got = rx.requests[0];
  t.equal(got!.webhookId, ok.body.eventId);
  t.ok(got!.contractSignatureOk && got!.standardSignatureOk, 'signed');
  t.match(JSON.parse(got!.raw.toString()), { id: ok.body.eventId, type: 'webhook.test', environment: 'sandbox', data: { message: String } });

  const failed = await call<WebhookTestResult>(stack.svc.nc, stack.prefix, TEST, operatorScope('op_t', 'sandbox'));
  t.match(failed.ok && failed.body, { delivered: false, statusCode: 500, error: 'HTTP 500' });
  // Not retried: nothing more arrives and its delivery is closed after one attempt.
  await new Promise((r) => setTimeout(r, 300));
  t.equal(rx.requests.length, 2);
  const rows = await stack.svc.sql.query<{ status: string; attempts: number; kind: string }>(
    'select status, attempts, kind from webhooks.deliveries where event_id = ?',
    [failed.ok ? failed.body.eventId : ''],
  );
  t.same(rows, [{ status: 'failed', attempts: 1, kind: 'test' }]);
  const log = await call<{ data: DeliveryLogItem[] }>(stack.svc.nc, stack.prefix, LOG, adminScope, { query: { operatorId: 'op_t' } });
  t.same(
    log.ok && log.body.data.map((l) => [l.attempt, l.statusCode, l.outcome]),
    [
      [1, 500, 'failed'],
      [1, 200, 'delivered'],
    ],
    'both recorded, newest first',
  );
});

t.test('webhooks.test to an unreachable URL answers delivered: false with the reason', async (t) => {
  const stack = await startStack(t);
  const secret = newWebhookSecret();
  const rx = await startReceiver(secret);
  const deadUrl = rx.url;
  await rx.close();
  await configure(stack, 'op_dead', 'sandbox', deadUrl, secret);
  const r = await call<WebhookTestResult>(stack.svc.nc, stack.prefix, TEST, operatorScope('op_dead', 'sandbox'));
  t.match(r.ok && r.body, { delivered: false, statusCode: null, error: 'connection refused', url: deadUrl });
});

t.test('webhooks.test is 409 WEBHOOK_NOT_CONFIGURED without a URL for the scope', async (t) => {
  const stack = await startStack(t);
  const secret = newWebhookSecret();
  await configure(stack, 'op_nourl', 'sandbox', undefined, secret);
  await configure(stack, 'op_sbx', 'sandbox', 'http://127.0.0.1:9/hook', secret);
  for (const [scope, why] of [
    [operatorScope('op_nourl', 'sandbox'), 'secret but no URL'],
    [operatorScope('op_unknown', 'sandbox'), 'unknown operator'],
    [operatorScope('op_sbx', 'production'), 'URL only for the other environment'],
    [operatorScope('op_sbx', 'sandbox', 'brd_other'), 'another brand'],
  ] as const) {
    const r = await call(stack.svc.nc, stack.prefix, TEST, scope);
    t.equal(!r.ok && r.error.code, 'WEBHOOK_NOT_CONFIGURED', why);
  }
  const asAdmin = await call(stack.svc.nc, stack.prefix, TEST, adminScope);
  t.equal(!asAdmin.ok && asAdmin.error.code, 'UNAUTHORIZED', 'operator scope required');
});

t.test('admin log by event and operator; redeliver schedules a fresh delivery', async (t) => {
  const stack = await startStack(t);
  const secret = newWebhookSecret();
  const rx = await startReceiver(secret);
  t.teardown(() => rx.close());
  await configure(stack, 'op_a', 'sandbox', rx.url, secret);
  const { event, raw } = await publishEvent(stack.svc.nc, stack.prefix, { operatorId: 'op_a', environment: 'sandbox' }, 'kyc.status_changed', {
    playerId: 'plr_a',
    externalId: 'a',
    previousStatus: 'em_analise',
    status: 'aprovado',
  });
  await rx.waitForRequests(1);
  await waitFor(
    async () => {
      const r = await call<{ data: DeliveryLogItem[] }>(stack.svc.nc, stack.prefix, LOG, adminScope, { query: { eventId: event.id } });
      return r.ok && r.body.data[0]?.outcome === 'delivered';
    },
    { what: 'attempt recorded' },
  );

  const re = await call<{ eventId: string; scheduled: boolean; deliveryId: string }>(stack.svc.nc, stack.prefix, REDELIVER, adminScope, {
    params: { eventId: event.id },
  });
  t.equal(re.ok, true);
  if (!re.ok) return;
  t.match(re.body, { eventId: event.id, scheduled: true, deliveryId: /^dlv_/ });
  // Its audit row, written into the outbox in the delivery's transaction (service-kit audit-outbox.ts).
  const audits = await stack.svc.sql.query<{ data: AuditRecorded }>(
    `select payload::jsonb -> 'data' as data from webhooks.outbox where subject_type = 'audit.recorded' and payload::jsonb -> 'data' ->> 'target' = ?`,
    [`webhook_event:${event.id}`],
  );
  const [audit, ...more] = audits.map((r) => r.data);
  t.match(
    audit,
    { action: 'adminRedeliver', actor: 'ops@example.test', before: { deliveries: [{ status: 'delivered', attempts: 1 }] } },
    "audited in the delivery's transaction",
  );
  t.equal((audit?.after as { deliveries: unknown[] } | undefined)?.deliveries.length, 2);
  t.equal(more.length, 0, 'once');
  await rx.waitForRequests(2);
  t.equal(rx.requests[1]!.webhookId, event.id, 'same event id');
  t.equal(rx.requests[1]!.raw.toString(), raw, 'same body bytes');
  t.ok(rx.requests[1]!.contractSignatureOk);

  const log = await waitFor(
    async () => {
      const r = await call<{ data: DeliveryLogItem[] }>(stack.svc.nc, stack.prefix, LOG, adminScope, { query: { eventId: event.id } });
      return r.ok && r.body.data.length === 2 && r.body.data.every((l) => l.outcome === 'delivered') && r.body.data;
    },
    { what: 'redelivery recorded' },
  );
  t.same(
    log.map((l) => l.deliveryId === re.body.deliveryId),
    [true, false],
    'newest first: the redelivery, then the original',
  );
  for (const l of log) t.match(l, { eventId: event.id, attempt: 1, url: rx.url, statusCode: 200, error: null, at: /Z$/, durationMs: Number });

  const byOperator = await call<{ data: DeliveryLogItem[] }>(stack.svc.nc, stack.prefix, LOG, adminScope, { query: { operatorId: 'op_a' } });
  t.equal(byOperator.ok && byOperator.body.data.length, 2);
  const other = await call<{ data: DeliveryLogItem[] }>(stack.svc.nc, stack.prefix, LOG, adminScope, { query: { operatorId: 'op_b' } });
  t.same(other.ok && other.body.data, []);

  const missing = await call(stack.svc.nc, stack.prefix, REDELIVER, adminScope, { params: { eventId: 'evt_missing' } });
  t.equal(!missing.ok && missing.error.code, 'NOT_FOUND');
  const asOperator = await call(stack.svc.nc, stack.prefix, REDELIVER, operatorScope('op_a', 'sandbox'), { params: { eventId: event.id } });
  t.equal(!asOperator.ok && asOperator.error.code, 'UNAUTHORIZED', 'admin scope required');
  const logAsOperator = await call(stack.svc.nc, stack.prefix, LOG, operatorScope('op_a', 'sandbox'), { query: {} });
  t.equal(!logAsOperator.ok && logAsOperator.error.code, 'UNAUTHORIZED');
});
