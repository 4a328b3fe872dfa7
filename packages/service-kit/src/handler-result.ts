// What a handler answers (serve.ts) and what a stored answer is given back as (idempotency/replay.ts): in a
// file of its own so neither of the two imports the other.
import type { AuditTrail } from '@bo/contracts';

export interface HandlerResult<R = unknown> {
  status?: number;
  body: R;
  audit?: AuditTrail;
  /** A stored answer to the request's key, given again. */
  replayed?: true;
}
