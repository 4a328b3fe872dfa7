// The reconciler's work is counted on the payments service's metrics: a deposit left `confirming`
// (as a crash after the intent leaves it) is finished by the reconciler and counted as such.
import t from 'tap';
import pg from 'pg';
import { waitFor } from '@bo/service-kit/testing';
import { startPaymentsStack, operatorScope, ok } from './support/stack.ts';

t.test('reconciler metrics', async (t) => {
  const stack = await startPaymentsStack(t, 'reconmetrics');
  const { money } = stack;
  const brand = operatorScope('a');
  const player = await money.player(brand);
  const dep = ok(await money.createDeposit(brand, player, { amount: '12.00' }));
  const sql = new pg.Client({ connectionString: stack.databaseUrl });
  await sql.connect();
  t.teardown(() => sql.end());
  // What a crash right after the confirm intent leaves behind.
  await sql.query(`update payments.deposits set status = 'confirming', touched_at = now() - interval '1 hour' where id = $1`, [dep.id]);
  await waitFor(async () => (await money.depositStatus(dep.id)) === 'confirmed', { what: 'the reconciler to finish the deposit' });
  t.equal((await money.wallet(brand, player)).available, '12.00', 'credited once');
  const text = await stack.services.get('payments')!.metrics.metrics();
  t.match(text, /bo_reconciler_rows_total\{kind="deposit",result="finished",service="payments"\} 1/);
});
