// A handler that stores its own answer (runOnce, storeResponse) must be declared effect-way
// (`handle(op, fn, { answers: 'effect' })`): under the kit's claim it would answer 409
// IDEMPOTENCY_IN_PROGRESS to itself. The kit refuses it at its first call, key or no key, as a
// programming error (idempotency/declared.ts, `assertEffectWay`). No database: a transactor that records.
import t from 'tap';
import type { OperationRequest, RequestContext } from '@bo/contracts';
import { handle, runOnce, storeResponse, type HandleOptions, type SqlRunner, type Transactor } from '../src/index.ts';

const statements: string[] = [];
const runner: SqlRunner = {
  query: async (text) => {
    statements.push(text);
    return [];
  },
};
const transactor: Transactor<SqlRunner> = { transaction: (fn) => fn(runner), runner: (tx) => tx ?? runner };

const ctx = (idempotencyKey?: string): RequestContext => ({
  requestId: 'req_1',
  ...(idempotencyKey ? { idempotencyKey, idempotencyFingerprint: 'fp' } : {}),
  scope: { kind: 'operator', operatorId: 'op_1', brandId: 'brd_1', environment: 'sandbox', currency: 'BRL' },
});
const request = (key?: string): OperationRequest => ({ ctx: ctx(key), params: {}, query: {}, body: {} });
const SUBJECT = 'things.create';

/** A handler storing its answer with runOnce, under the request's key, declared as `opts` says. */
function runOnceHandler(opts?: HandleOptions) {
  return handle(
    { subject: SUBJECT },
    async (req) =>
      runOnce(transactor, 'things', req.ctx.idempotencyKey ? { scope: 'op_1:sandbox', key: req.ctx.idempotencyKey } : undefined, SUBJECT, async () => ({
        status: 201,
        body: { ok: true },
      })),
    opts,
  )[SUBJECT]!;
}

/** A handler storing `ref`'s answer with storeResponse in its own transaction. */
function storeHandler(ref: { scope: string; key: string }, opts?: HandleOptions) {
  return handle(
    { subject: SUBJECT },
    async () => {
      await storeResponse(runner, 'things', ref, SUBJECT, 200, { ok: true });
      return { body: { ok: true } };
    },
    opts,
  )[SUBJECT]!;
}

const misdeclared = /things\.create: the handler calls runOnce.*declared \{ answers: 'kit' \}.*answers: 'effect'/;

t.test('runOnce in a handler not declared effect-way is a programming error at its first call', async (t) => {
  statements.length = 0;
  await t.rejects(runOnceHandler()(request('key-1')), misdeclared, 'with a key');
  await t.rejects(runOnceHandler()(request()), misdeclared, 'without a key: any test that calls the handler shows it');
  await t.rejects(runOnceHandler({ answers: 'kit' })(request('key-1')), misdeclared, 'declared kit-way in so many words');
  await t.rejects(runOnceHandler({ answers: 'none' })(request('key-1')), /declared \{ answers: 'none' \}/);
  t.same(statements, [], 'refused before any statement');
});

t.test('runOnce in a handler declared effect-way runs, and outside any handler too', async (t) => {
  t.same(await runOnceHandler({ answers: 'effect' })(request('key-1')), { status: 201, body: { ok: true } });
  t.same(await runOnceHandler({ answers: 'effect' })(request()), { status: 201, body: { ok: true } });
  const direct = await runOnce(transactor, 'things', { scope: 'op_1:sandbox', key: 'k' }, SUBJECT, async () => ({ body: 1 }));
  t.same(direct, { body: 1 }, 'a loop or a flow outside a handler declares nothing');
});

t.test("storeResponse under the request's own key needs the effect-way declaration; another request's key does not", async (t) => {
  const own = { scope: 'op_1:sandbox', key: 'key-1' };
  await t.rejects(storeHandler(own)(request('key-1')), /things\.create: the handler calls storeResponse/);
  t.same(await storeHandler(own, { answers: 'effect' })(request('key-1')), { body: { ok: true } });
  // A move finishing another request's withdrawal stores that request's answer (payments' closeout).
  t.same(await storeHandler({ scope: 'closeout', key: 'ply_1' })(request()), { body: { ok: true } });
  t.same(await storeHandler({ scope: 'op_1:sandbox', key: 'key-2' })(request('key-1')), { body: { ok: true } });
});
