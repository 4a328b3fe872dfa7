// Who keeps a handler's answer, as declared beside it (`handle(op, fn, { answers })`), in reach of
// the functions that store answers in an effect's transaction: a misdeclared handler is refused.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { RequestContext } from '@bo/contracts';
import { requestKeyOf, type RequestKey } from './keys.ts';

/**
 * Who keeps the answer to a request with an Idempotency-Key (declared beside the handler,
 * `handle(op, fn, { answers })`): `kit` (the default) claims the key and stores the handler's
 * answer around it (AnswerStore.once); `effect` means the handler stores it in its effect's own
 * transaction (`runOnce`, `storeResponse`) and the kit keeps only its refusals; `none` for the
 * kit's own messages.
 */
export type AnswersWay = 'kit' | 'effect' | 'none';

/** The declaration of the handler running (set by `handle` around it), with the request it serves. */
interface Declared {
  subject: string;
  answers: AnswersWay;
  ctx: RequestContext | undefined;
}

const declared = new AsyncLocalStorage<Declared>();

/** Runs a handler with its declaration in reach of `runOnce` and `storeResponse` (serve.ts, `handle`). */
export function withAnswersDeclared<T>(subject: string, answers: AnswersWay, ctx: RequestContext | undefined, fn: () => T): T {
  return declared.run({ subject, answers, ctx }, fn);
}

/**
 * A handler that stores its own answer must be declared effect-way: under the kit's claim its own
 * insert meets the claim's row and it answers 409 IDEMPOTENCY_IN_PROGRESS to itself (runOnce), or
 * its answer is not kept with its effect (storeResponse). A programming error, thrown at its first
 * call whether the request has a key or not, so that any test that calls the handler shows it.
 * `ref`: only a store under the running request's own key counts (a move may store the answer of
 * the request that started it).
 */
export function assertEffectWay(what: string, ref?: RequestKey): void {
  const d = declared.getStore();
  if (!d || d.answers === 'effect') return;
  if (ref) {
    const own = d.ctx ? requestKeyOf(d.ctx) : undefined;
    if (!own || own.scope !== ref.scope || own.key !== ref.key) return;
  }
  throw new Error(
    `${d.subject}: the handler calls ${what}, which stores its answer in its own transaction, but is declared { answers: '${d.answers}' }: declare it handle(op, fn, { answers: 'effect' })`,
  );
}
