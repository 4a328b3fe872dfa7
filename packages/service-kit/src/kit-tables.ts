// The kit's own tables in a service's schema (its outbox and its stored answers), as the
// statements a service's migrations run: one name for each step those tables took, so that a
// service's migration list reads `kit.outbox`, `kit.runningRequests` … in the order it applied
// them, instead of importing each statement's builder.
import { outboxTableSql } from './outbox.ts';
import { processedRequestsClaimsSql, processedRequestsFingerprintSql, processedRequestsKeepTextSql, processedRequestsTableSql } from './idempotency/tables.ts';
import { processedRequestsExpiryIndexSql } from './retention.ts';

export interface KitTables {
  /** The transactional outbox (outbox.ts). */
  outbox: string;
  /** Stored answers, `processed_requests` (idempotency/tables.ts). */
  storedAnswers: string;
  /** Stored answers keep their JSON text as written. */
  storedAnswersAsText: string;
  /** The request's fingerprint and id beside its stored answer. */
  requestFingerprints: string;
  /** The index the key expiry walks, oldest first (retention.ts). */
  storedAnswersByAge: string;
  /** Rows for requests still running, with a lease (AnswerStore). */
  runningRequests: string;
}

export function kitTables(schema: string): KitTables {
  return {
    outbox: outboxTableSql(schema),
    storedAnswers: processedRequestsTableSql(schema),
    storedAnswersAsText: processedRequestsKeepTextSql(schema),
    requestFingerprints: processedRequestsFingerprintSql(schema),
    storedAnswersByAge: processedRequestsExpiryIndexSql(schema),
    runningRequests: processedRequestsClaimsSql(schema),
  };
}
