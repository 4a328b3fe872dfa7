// What the team sees of deliveries: a failed attempt is logged at warn, an event that used up its
// attempts at error, and the metrics (attempt outcomes, queue depth) are on the internal port.
import t from 'tap';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { waitFor } from '@bo/service-kit/testing';
import { newWebhookSecret, publishEvent, startReceiver, startStack, upsertEndpoint } from './helpers.ts';

t.test('failed attempts are logged and counted', async (t) => {
  const lines: any[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const l of chunk.toString().split('\n')) if (l) lines.push(JSON.parse(l));
      done();
    },
  });
  // Eight quick attempts against a receiver that always answers 503.
  const stack = await startStack(t, { METRICS_PORT: 0 }, 'whobs', { log: pino({ name: 'webhooks', level: 'info' }, sink) });
  const secret = newWebhookSecret();
  const rx = await startReceiver(secret, () => 503);
  t.teardown(() => rx.close());
  await upsertEndpoint(stack, { operatorId: 'op_obs', environment: 'sandbox', brandId: 'brd_op_obs', secret });
  await upsertEndpoint(stack, { operatorId: 'op_obs', environment: 'sandbox', brandId: 'brd_op_obs', url: rx.url });
  const { event } = await publishEvent(stack.svc.nc, stack.prefix, { operatorId: 'op_obs', environment: 'sandbox' }, 'kyc.status_changed', {
    playerId: 'plr_1',
    externalId: null,
    previousStatus: 'nao_iniciado',
    status: 'em_analise',
  });

  const exhausted = await waitFor(async () => lines.find((l) => l.msg === 'webhook delivery failed after its last attempt' && l.eventId === event.id), {
    what: 'the last attempt logged',
  });
  t.match(exhausted, { level: 50, eventId: event.id, attempt: 8, maxAttempts: 8, statusCode: 503 }, 'error level once the attempts are used up');
  const retried = lines.filter((l) => l.msg === 'webhook attempt failed; will retry' && l.eventId === event.id);
  t.same(
    retried.map((l) => l.attempt),
    [1, 2, 3, 4, 5, 6, 7],
  );
  t.match(retried[0], { level: 40, attempt: 1, statusCode: 503 }, 'warn level for a failed attempt with more to come');
  t.type(retried[0].retryInMs, 'number');

  const text = await (await fetch(`http://127.0.0.1:${stack.svc.metricsPort}/metrics`)).text();
  t.match(text, /bo_webhook_attempts_total\{outcome="retrying",service="webhooks"\} 7/);
  t.match(text, /bo_webhook_attempts_total\{outcome="exhausted",service="webhooks"\} 1/);
  t.match(text, /bo_webhook_queue_depth\{state="pending",service="webhooks"\} 0/, 'nothing left waiting');
  t.match(text, /bo_webhook_oldest_due_age_seconds\{service="webhooks"\} 0\n/, 'and no delivery lag');
  t.match(text, /bo_rpc_duration_seconds_count\{service="webhooks",subject="webhooks.endpoints.upsert",outcome="ok"\} 2/);
});
