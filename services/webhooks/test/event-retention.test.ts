// The event log is kept WEBHOOK_EVENT_RETENTION_DAYS (30 by default): the service's retention loop
// deletes an older event with its deliveries and attempts, unless a delivery of it is still
// pending; younger events stay. Event ids carry their creation time (UUIDv7), which is what the
// deletion walks.
import t from 'tap';
import { randomBytes } from 'node:crypto';
import { webhookOperations, type WebhookEventSummary } from '@bo/contracts';
import { waitFor } from '@bo/service-kit/testing';
import { firstEventIdAt } from '../src/store/event-retention.ts';
import { call, configure, count, depositData, newWebhookSecret, operatorScope, publishEvent, startReceiver, startStack } from './helpers.ts';

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);
/** An event id as one created `days` ago would have (its UUIDv7 time), unique. */
const idFrom = (days: number) => `${firstEventIdAt(daysAgo(days))}${randomBytes(10).toString('hex')}`;

t.test('event ids sort by creation time', async (t) => {
  t.ok(firstEventIdAt(daysAgo(31)) < firstEventIdAt(daysAgo(30)));
  t.ok(idFrom(31) < firstEventIdAt(daysAgo(30)), 'an id from 31 days ago is below the 30-day cutoff');
  t.ok(idFrom(29) > firstEventIdAt(daysAgo(30)), 'one from 29 days ago is above it');
});

t.test('events past their retention go with their deliveries and attempts, unless one is pending', async (t) => {
  // Retries an hour apart: a failed first attempt leaves its delivery pending for the whole test.
  const stack = await startStack(t, { RETENTION_INTERVAL_MS: 50, WEBHOOK_RETRY_SCHEDULE_MS: '3600000,3600000,3600000,3600000,3600000,3600000,3600000' });
  const okSecret = newWebhookSecret();
  const failingSecret = newWebhookSecret();
  const ok = await startReceiver(okSecret);
  const failing = await startReceiver(failingSecret, () => 500);
  t.teardown(() => ok.close());
  t.teardown(() => failing.close());
  await configure(stack, 'op_keep', ok.url, okSecret);
  await configure(stack, 'op_fail', failing.url, failingSecret);
  const rowsOf = async (id: string) => ({
    events: await count(stack, 'select count(*) n from webhooks.events where id = ?', [id]),
    deliveries: await count(stack, 'select count(*) n from webhooks.deliveries where event_id = ?', [id]),
    attempts: await count(stack, 'select count(*) n from webhooks.attempts where event_id = ?', [id]),
  });

  const young = (
    await publishEvent(stack.svc.nc, stack.prefix, { operatorId: 'op_keep', environment: 'sandbox' }, 'deposit.confirmed', depositData('dep_young'))
  ).event;
  const oldPending = (
    await publishEvent(stack.svc.nc, stack.prefix, { operatorId: 'op_fail', environment: 'sandbox' }, 'deposit.confirmed', depositData('dep_pending'), {
      id: idFrom(40),
    })
  ).event;
  await waitFor(async () => (await rowsOf(young.id)).attempts === 1 && (await rowsOf(oldPending.id)).attempts === 1, { what: 'first attempts recorded' });
  // Published after the others: by the time it is gone, the loop has looked at them too.
  const old = (
    await publishEvent(stack.svc.nc, stack.prefix, { operatorId: 'op_keep', environment: 'sandbox' }, 'deposit.confirmed', depositData('dep_old'), {
      id: idFrom(40),
    })
  ).event;
  await waitFor(async () => ok.requests.some((r) => r.raw.toString().includes(old.id)), { what: 'the old event delivered' });
  await waitFor(async () => (await rowsOf(old.id)).events === 0, { what: 'the old delivered event deleted' });

  t.same(await rowsOf(old.id), { events: 0, deliveries: 0, attempts: 0 }, 'the old event went with its delivery and attempt');
  t.same(await rowsOf(oldPending.id), { events: 1, deliveries: 1, attempts: 1 }, 'an old event whose delivery is still pending stays');
  t.same(await rowsOf(young.id), { events: 1, deliveries: 1, attempts: 1 }, 'a young event stays');
  const listed = await call<{ data: WebhookEventSummary[] }>(
    stack.svc.nc,
    stack.prefix,
    webhookOperations.listWebhookEvents.subject,
    operatorScope('op_keep', 'sandbox'),
    {
      query: {},
    },
  );
  t.same(listed.ok && listed.body.data.map((e) => e.id), [young.id], 'the operator lists only the event within its retention');
});
