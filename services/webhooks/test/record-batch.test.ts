// Attempt records in batches (delivery/record-batcher.ts, recordAttemptResults): records that
// finish together share one statement and leave each delivery, attempt and slot as a record of its
// own would; a record whose lease was lost writes nothing of its own; a batch that fails is written
// again one record at a time, so one bad record costs the others nothing.
import t from 'tap';
import type { SqlRunner } from '@bo/service-kit';
import type { ClaimedAttempt } from '../src/store/delivery-queue.ts';
import { ingestEvent } from '../src/store/event-intake.ts';
import { createRecordBatcher } from '../src/delivery/record-batcher.ts';
import type { AttemptResult, NextStep } from '../src/domain/retry-schedule.ts';
import { configure, count, eventFor, newWebhookSecret, ownSql, startStack, type Stack } from './helpers.ts';

const intakeOpts = { maxAttempts: 8, startNow: true, perEndpoint: 10, leaseMs: 60_000 };
const LIVE_SLOTS = `select count(*) n from webhooks.endpoint_slots where operator_id = ? and lease_until > now()`;

/** The runner the batcher writes through, counting its statements. */
function counting(sql: SqlRunner): { sql: SqlRunner; statements: () => number } {
  let n = 0;
  return {
    sql: {
      query(text, params) {
        n++;
        return sql.query(text, params);
      },
    },
    statements: () => n,
  };
}

async function started(t: Parameters<typeof ownSql>[0], stack: Stack, operatorId: string, n: number): Promise<ClaimedAttempt[]> {
  const sql = ownSql(t, stack);
  const out: ClaimedAttempt[] = [];
  for (let i = 0; i < n; i++) {
    const r = await ingestEvent(sql, eventFor(operatorId), intakeOpts);
    if (r.stored !== 'started') throw new Error(`intake did not start the attempt: ${r.stored}`);
    out.push(r.attempt);
  }
  return out;
}

async function rowsOf(stack: Stack, deliveryId: string) {
  const sql = stack.svc.sql;
  const [d] = await sql.query<{ status: string; lease_token: string | null; last_status_code: number | null; last_error: string | null; due: boolean | null }>(
    `select status, lease_token, last_status_code, last_error, next_attempt_at > now() + interval '30 seconds' as due
     from webhooks.deliveries where id = ?`,
    [deliveryId],
  );
  const attempts = await sql.query<{ outcome: string; status_code: number | null; error: string | null; duration_ms: number | null }>(
    'select outcome, status_code, error, duration_ms from webhooks.attempts where delivery_id = ? order by attempt',
    [deliveryId],
  );
  return { delivery: d, attempts };
}

const ok: AttemptResult = { delivered: true, statusCode: 204, error: null, durationMs: 7 };
const refused: AttemptResult = { delivered: false, statusCode: 500, error: 'HTTP 500', durationMs: 12 };

t.test('records that finish together: one statement, each delivery, attempt and slot as its own record leaves them', async (t) => {
  const stack = await startStack(t, { WEBHOOK_POLL_MS: 600_000 });
  await configure(stack, 'op_rb', 'http://127.0.0.1:9/hook', newWebhookSecret());
  const [a, b, c, d] = await started(t, stack, 'op_rb', 4);
  t.equal(await count(stack, LIVE_SLOTS, ['op_rb']), 4, 'four attempts hold four slots');

  const runner = counting(ownSql(t, stack));
  const batcher = createRecordBatcher({ sql: runner.sql, windowMs: 50, maxBatch: 64 });
  const steps: Array<[ClaimedAttempt, AttemptResult, NextStep]> = [
    [a!, ok, { status: 'delivered' }],
    [b!, ok, { status: 'delivered' }],
    [c!, refused, { status: 'pending', delayMs: 60_000 }],
    [d!, refused, { status: 'failed' }],
  ];
  const kept = await Promise.all(steps.map(([claimed, result, next]) => batcher.record({ claimed, result, next })));
  t.same(
    kept.map((k) => k.kept),
    [true, true, true, true],
    'every lease was still ours',
  );
  t.equal(runner.statements(), 1, 'one statement for the four records');

  t.equal(await count(stack, LIVE_SLOTS, ['op_rb']), 0, 'every slot freed');
  t.same(await rowsOf(stack, a!.deliveryId), {
    delivery: { status: 'delivered', lease_token: null, last_status_code: 204, last_error: null, due: null },
    attempts: [{ outcome: 'delivered', status_code: 204, error: null, duration_ms: 7 }],
  });
  t.equal((await rowsOf(stack, b!.deliveryId)).delivery?.status, 'delivered');
  t.same(
    await rowsOf(stack, c!.deliveryId),
    {
      delivery: { status: 'pending', lease_token: null, last_status_code: 500, last_error: 'HTTP 500', due: true },
      attempts: [{ outcome: 'failed', status_code: 500, error: 'HTTP 500', duration_ms: 12 }],
    },
    'a retry is due after its delay, without a lease',
  );
  t.same(
    await rowsOf(stack, d!.deliveryId),
    {
      delivery: { status: 'failed', lease_token: null, last_status_code: 500, last_error: 'HTTP 500', due: null },
      attempts: [{ outcome: 'failed', status_code: 500, error: 'HTTP 500', duration_ms: 12 }],
    },
    'the last attempt fails the delivery',
  );
});

t.test('a record whose lease was lost writes nothing of its own; the others of its batch are written', async (t) => {
  const stack = await startStack(t, { WEBHOOK_POLL_MS: 600_000 });
  await configure(stack, 'op_rl', 'http://127.0.0.1:9/hook', newWebhookSecret());
  const [mine, lost] = await started(t, stack, 'op_rl', 2);
  const batcher = createRecordBatcher({ sql: ownSql(t, stack), windowMs: 50, maxBatch: 64 });
  // Another worker took the delivery over: its lease token is no longer the one this worker holds.
  const stale = { ...lost!, leaseToken: 'a-lease-taken-over' };
  const kept = await Promise.all([
    batcher.record({ claimed: mine!, result: ok, next: { status: 'delivered' } }),
    batcher.record({ claimed: stale, result: ok, next: { status: 'delivered' } }),
  ]);
  t.same(
    kept.map((k) => k.kept),
    [true, false],
  );
  t.equal((await rowsOf(stack, mine!.deliveryId)).delivery?.status, 'delivered');
  const other = await rowsOf(stack, lost!.deliveryId);
  t.same([other.delivery?.status, other.delivery?.lease_token], ['pending', lost!.leaseToken], "the other worker's lease stands");
  t.same(other.attempts, [{ outcome: 'in_flight', status_code: null, error: null, duration_ms: null }], 'its attempt is untouched');
  t.equal(await count(stack, LIVE_SLOTS, ['op_rl']), 1, "its slot is still held under the other worker's lease");
});

t.test('a batch that fails is written again one record at a time: only the bad record is lost', async (t) => {
  const stack = await startStack(t, { WEBHOOK_POLL_MS: 600_000 });
  await configure(stack, 'op_rf', 'http://127.0.0.1:9/hook', newWebhookSecret());
  const [a, bad, c] = await started(t, stack, 'op_rf', 3);
  const runner = counting(ownSql(t, stack));
  const batcher = createRecordBatcher({ sql: runner.sql, windowMs: 50, maxBatch: 64 });
  // Postgres text cannot hold a NUL: the batch's statement fails as a whole.
  const unwritable: AttemptResult = { delivered: false, statusCode: null, error: 'bad\u0000error', durationMs: 1 };
  const outcomes = await Promise.allSettled([
    batcher.record({ claimed: a!, result: ok, next: { status: 'delivered' } }),
    batcher.record({ claimed: bad!, result: unwritable, next: { status: 'pending', delayMs: 1000 } }),
    batcher.record({ claimed: c!, result: ok, next: { status: 'delivered' } }),
  ]);
  t.same(
    outcomes.map((o) => o.status),
    ['fulfilled', 'rejected', 'fulfilled'],
  );
  t.equal(runner.statements(), 4, 'the failed batch, then one statement per record');
  t.equal((await rowsOf(stack, a!.deliveryId)).delivery?.status, 'delivered');
  t.equal((await rowsOf(stack, c!.deliveryId)).delivery?.status, 'delivered');
  const left = await rowsOf(stack, bad!.deliveryId);
  t.same(
    [left.delivery?.status, left.delivery?.lease_token],
    ['pending', bad!.leaseToken],
    'the bad record wrote nothing: its lease will lapse and the attempt be retried',
  );
});
