// What a handler answers (serve.ts) and what a stored answer is given back as (idempotency/replay.ts): in a
// file of its own so neither of the two imports the other.
export interface HandlerResult<R = unknown> {
  status?: number;
  body: R;
  /** A stored answer to the request's key, given again. */
  replayed?: true;
}
