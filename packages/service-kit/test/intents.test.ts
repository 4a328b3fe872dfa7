// The intent of a move that spans transactions (idempotency/intents.ts, `recordIntent`), read and
// recorded on the owning row's own key columns, with real Postgres: the step's `from` status marks
// the intent; the same key finishes it; the same key with another fingerprint is a conflict;
// another key finds our stored answer when a copy of our request finished it; otherwise the step's
// refusal. And `answersIn(schema)`: the same functions bound to one schema.
import t from 'tap';
import pg from 'pg';
import { AppError } from '@bo/contracts';
import {
  answersIn,
  processedRequestsClaimsSql,
  processedRequestsFingerprintSql,
  processedRequestsKeepTextSql,
  processedRequestsTableSql,
  recordIntent,
  sqlOnPool,
  type IntentRow,
  type IntentStep,
  type RequestKey,
} from '../src/index.ts';
import { createTestDatabase } from '../src/testing.ts';

const SCHEMA = 'intents';
const OTHER = 'intents_other';
const OP = 'things.confirm';

t.test('recordIntent', async (t) => {
  const db = await createTestDatabase('intents');
  const pool = new pg.Pool({ connectionString: db.url, max: 2 });
  // The drop below forces off whatever is still connected (a client a failed step left checked out
  // included): its FATAL 57P01 then reaches the client, as MikroORM's pool takes it, not the test.
  pool.on('connect', (client) => client.on('error', () => undefined));
  pool.on('error', () => undefined);
  t.teardown(async () => {
    await pool.end();
    await db.drop();
  });
  const sql = sqlOnPool(pool);
  await sql.query(`create schema ${SCHEMA}`);
  for (const schema of [SCHEMA, OTHER]) {
    if (schema === OTHER) await sql.query(`create schema ${OTHER}`);
    for (const ddl of [processedRequestsTableSql, processedRequestsKeepTextSql, processedRequestsFingerprintSql, processedRequestsClaimsSql]) {
      await sql.query(ddl(schema));
    }
  }

  const ref: RequestKey = { scope: 'op1:live', key: 'k-1', fingerprint: 'fp-1', requestId: 'req_1' };
  let marks = 0;
  const step: IntentStep = {
    from: 'pending',
    to: 'confirming',
    mark: async () => {
      marks++;
    },
    refusal: 'DEPOSIT_NOT_PENDING',
  };
  const row = (status: string, key: Partial<RequestKey> | null): IntentRow => ({
    status,
    scope: key?.scope ?? null,
    key: key?.key ?? null,
    fingerprint: key?.fingerprint ?? null,
  });
  const codeOf = async (p: Promise<unknown>): Promise<string | undefined> => {
    try {
      await p;
      return undefined;
    } catch (e) {
      return e instanceof AppError ? e.code : String(e);
    }
  };

  t.test('the from status: the intent is marked, the move is this request to finish', async (t) => {
    marks = 0;
    t.equal(await recordIntent(sql, SCHEMA, ref, OP, row('pending', null), step), undefined);
    t.equal(marks, 1, 'marked once');
  });

  t.test('the same key on the row at the step: our earlier attempt, finished without marking again', async (t) => {
    marks = 0;
    t.equal(await recordIntent(sql, SCHEMA, ref, OP, row('confirming', ref), step), undefined);
    t.equal(marks, 0, 'not marked again');
    const noFingerprint = { scope: ref.scope, key: ref.key };
    t.equal(await recordIntent(sql, SCHEMA, noFingerprint, OP, row('confirming', ref), step), undefined, 'a request without a fingerprint finishes it too');
  });

  t.test('the same key with another fingerprint: IDEMPOTENCY_CONFLICT', async (t) => {
    marks = 0;
    t.equal(await codeOf(recordIntent(sql, SCHEMA, ref, OP, row('confirming', { ...ref, fingerprint: 'fp-other' }), step)), 'IDEMPOTENCY_CONFLICT');
    t.equal(marks, 0);
  });

  t.test("another key on the row, or the row past the step: the step's refusal while our key has no answer", async (t) => {
    t.equal(
      await codeOf(recordIntent(sql, SCHEMA, ref, OP, row('confirming', { scope: ref.scope, key: 'k-other', fingerprint: 'fp-9' }), step)),
      'DEPOSIT_NOT_PENDING',
    );
    t.equal(await codeOf(recordIntent(sql, SCHEMA, ref, OP, row('confirmed', ref), step)), 'DEPOSIT_NOT_PENDING', 'past the step, our key but nothing stored');
    t.equal(await codeOf(recordIntent(sql, SCHEMA, undefined, OP, row('confirmed', null), step)), 'DEPOSIT_NOT_PENDING', 'no key');
    t.equal(await codeOf(recordIntent(sql, SCHEMA, undefined, OP, row('confirming', null), step)), 'DEPOSIT_NOT_PENDING', 'no key, a row at the step');
    t.equal(marks, 0);
  });

  t.test('a copy with our key finished the move: its stored answer is ours, replayed', async (t) => {
    // The completion stored the answer under the key (another transaction), and the row moved on.
    await sql.query(
      `insert into ${SCHEMA}.processed_requests (scope, idempotency_key, fingerprint, request_id, operation, status, body) values (?, ?, ?, ?, ?, ?, ?)`,
      [ref.scope, ref.key, ref.fingerprint, ref.requestId, OP, 200, JSON.stringify({ id: 'd1', status: 'confirmed' })],
    );
    t.same(await recordIntent(sql, SCHEMA, ref, OP, row('confirmed', ref), step), { status: 200, body: { id: 'd1', status: 'confirmed' }, replayed: true });
    t.same(
      await recordIntent(sql, SCHEMA, ref, OP, row('confirmed', { scope: ref.scope, key: 'k-other' }), step),
      {
        status: 200,
        body: { id: 'd1', status: 'confirmed' },
        replayed: true,
      },
      'whoever holds the row now',
    );
    t.equal(
      await codeOf(recordIntent(sql, SCHEMA, ref, 'things.other', row('confirmed', null), step)),
      'IDEMPOTENCY_CONFLICT',
      'the key stored for another operation',
    );
    t.equal(
      await codeOf(recordIntent(sql, OTHER, ref, OP, row('confirmed', ref), step)),
      'DEPOSIT_NOT_PENDING',
      "another schema's table has no answer for the key",
    );
    t.equal(marks, 0);
  });

  t.test('a stored refusal under our key is thrown again as the replayed refusal', async (t) => {
    const refused: RequestKey = { scope: ref.scope, key: 'k-refused', fingerprint: 'fp-r', requestId: 'req_r' };
    await sql.query(
      `insert into ${SCHEMA}.processed_requests (scope, idempotency_key, fingerprint, request_id, operation, status, body) values (?, ?, ?, ?, ?, ?, ?)`,
      [refused.scope, refused.key, refused.fingerprint, refused.requestId, OP, 422, JSON.stringify({ error: { code: 'INSUFFICIENT_FUNDS', message: 'no' } })],
    );
    t.equal(await codeOf(recordIntent(sql, SCHEMA, refused, OP, row('failed', null), step)), 'INSUFFICIENT_FUNDS');
  });

  t.test('answersIn(schema): the same functions bound to the schema', async (t) => {
    const answers = answersIn(SCHEMA);
    t.equal(answers.schema, SCHEMA);
    const key: RequestKey = { scope: 'op1:live', key: 'k-bound', fingerprint: 'fp-b', requestId: 'req_b' };
    t.equal(await answers.findStored(sql, key, OP), undefined, 'nothing stored yet');
    const first = await answers.runOnce(sql, key, OP, async () => ({ status: 201, body: { n: 1 } }));
    t.same(first, { status: 201, body: { n: 1 } }, 'runOnce runs the effect and stores its answer');
    const again = await answers.runOnce(sql, key, OP, async () => ({ status: 201, body: { n: 2 } }));
    t.same(again, { status: 201, body: { n: 1 }, replayed: true }, 'and replays it');
    const stored: RequestKey = { ...key, key: 'k-stored' };
    await sql.transaction((tx) => answers.storeResponse(tx, stored, OP, 200, { ok: true }));
    t.same(await answers.findStored(sql, stored, OP), { status: 200, body: { ok: true }, replayed: true }, 'storeResponse then findStored');
    marks = 0;
    t.same(
      await answers.recordIntent(sql, stored, OP, row('confirmed', null), step),
      { status: 200, body: { ok: true }, replayed: true },
      'recordIntent in the schema',
    );
    t.equal(await answers.recordIntent(sql, stored, OP, row('pending', null), step), undefined);
    t.equal(marks, 1);
  });
});
