// The gateway's outbox holds its events (endpoint changes) until they are published, then for
// OUTBOX_RETENTION_SECONDS; its cleanup loop deletes older published rows (the kit's retention.ts).
import t from 'tap';
import { waitFor } from '@bo/service-kit/testing';
import { startHarness } from './support/harness.ts';

t.test('published gateway outbox rows are deleted once past their retention', async (t) => {
  const h = await startHarness({ RETENTION_INTERVAL_MS: '100' });
  t.teardown(() => h.close());
  const db = h.gateways[0]!.orm.em.fork();
  const rowsOf = async (operatorId: string) =>
    db.execute<{ published: boolean }[]>(`select published_at is not null as published from gateway.outbox where operator_id = ?`, [operatorId]);

  const op = await h.createOperator({ name: 'Outbox Keeper' });
  const young = await h.createOperator({ name: 'Outbox Young' });
  await waitFor(async () => (await rowsOf(op.operator.id)).length === 2 && (await rowsOf(op.operator.id)).every((r) => r.published), {
    what: 'the endpoint events published',
  });
  await db.execute(`update gateway.outbox set created_at = now() - interval '2 days' where operator_id = ?`, [op.operator.id]);
  await waitFor(async () => (await rowsOf(op.operator.id)).length === 0, { what: 'the old published rows deleted' });
  t.equal((await rowsOf(young.operator.id)).length, 2, 'rows within the retention stay');
});
