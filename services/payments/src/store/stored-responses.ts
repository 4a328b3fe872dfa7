// Payments' stored responses are the service kit's one idempotency helper (idempotency.ts) bound
// to this service's schema; the flows also store responses for keys remembered on rows.
import * as kit from '@bo/service-kit';
import type { HandlerResult, RequestKey, RunOnceOptions, Sql, SqlRunner } from '@bo/service-kit';

export { errorResponse, keyFromRow, replay, requestKeyOf, type RequestKey } from '@bo/service-kit';

const SCHEMA = 'payments';

export const findStored = (sql: SqlRunner, ref: RequestKey | undefined, operation: string): Promise<HandlerResult | undefined> =>
  kit.findStored(sql, SCHEMA, ref, operation);

export const storeResponse = (tx: SqlRunner, ref: RequestKey | undefined, operation: string, status: number, body: unknown): Promise<void> =>
  kit.storeResponse(tx, SCHEMA, ref, operation, status, body);

export const runOnce = (
  sql: Sql,
  ref: RequestKey | undefined,
  operation: string,
  effect: (tx: SqlRunner) => Promise<HandlerResult>,
  opts?: RunOnceOptions,
): Promise<HandlerResult> => kit.runOnce(kit.sqlTransactor(sql), SCHEMA, ref, operation, effect, opts);
