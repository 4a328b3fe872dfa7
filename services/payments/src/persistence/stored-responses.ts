// Payments' stored responses are the service kit's one idempotency helper (idempotency.ts) bound
// to this service's schema; the flows also store responses for keys remembered on rows.
import type { EntityManager } from '@mikro-orm/postgresql';
import * as kit from '@bo/service-kit';
import type { HandlerResult, RequestKey, RunOnceOptions } from '@bo/service-kit';

export { errorResponse, keyFromRow, replay, requestKeyOf, type RequestKey } from '@bo/service-kit';

const SCHEMA = 'payments';

export const findStored = (em: EntityManager, ref: RequestKey | undefined, operation: string): Promise<HandlerResult | undefined> =>
  kit.findStored(em, SCHEMA, ref, operation);

export const storeResponse = (tx: EntityManager, ref: RequestKey | undefined, operation: string, status: number, body: unknown): Promise<void> =>
  kit.storeResponse(tx, SCHEMA, ref, operation, status, body);

export const runOnce = (
  em: EntityManager, ref: RequestKey | undefined, operation: string, effect: (tx: EntityManager) => Promise<HandlerResult>, opts?: RunOnceOptions,
): Promise<HandlerResult> => kit.runOnce(em, SCHEMA, ref, operation, effect, opts);
