// Idempotency, written once (docs/architecture.md, "Idempotency"): the gateway claims the key in
// NATS KV (one request per key, whichever operation) and forwards key and fingerprint; the service
// that owns the operation keeps the key's answer in its `processed_requests`, through this folder
// only. One file per concern:
// - tables.ts: the `processed_requests` DDL fragments;
// - keys.ts: a request's key (scope, key, fingerprint, request id), from its context or a row;
// - replay.ts: a stored answer given back (a replay, a refusal thrown again);
// - declared.ts: a handler's `answers` declaration in reach of the functions that store answers;
// - kit-kept.ts: the kit keeps it (AnswerStore.once, every operation by default): the key is
//   claimed by a row with a lease (a copy running elsewhere is 409 IDEMPOTENCY_IN_PROGRESS), the
//   handler runs, and its answer (2xx or 4xx) is stored; a 5xx releases the key. Admin answers are
//   sealed at rest when the service holds SECRETS_MASTER_KEY (they can carry a secret shown once);
// - effect-kept.ts: the effect keeps it (`runOnce`, `storeResponse`, the SQL builders for
//   single-statement money paths): the answer is written in the effect's own transaction, so a
//   retry after a gateway timeout or a crash finds it instead of repeating the effect. Refusals
//   that are part of an effect (a withdrawal declined for funds) are stored too and replayed as the
//   same error;
// - intents.ts: a move that spans transactions keeps its request's key on its own row
//   (`recordIntent`, `assertSameRequest`); its completion stores the answer under that key;
// - answers-in.ts: the effect-kept functions and the intent bound to one schema (`answersIn`).
export { answersIn, type SchemaAnswers } from './answers-in.ts';
export { withAnswersDeclared, type AnswersWay } from './declared.ts';
export {
  findStored,
  noStoredAnswer,
  ormRunner,
  ormTransactor,
  runOnce,
  sqlTransactor,
  storedAnswerInsertFrom,
  storeResponse,
  type RunOnceOptions,
  type Transactor,
} from './effect-kept.ts';
export { assertSameRequest, recordIntent, type IntentRow, type IntentStep } from './intents.ts';
export { idempotencyScope, keyFromRow, requestKeyOf, type RequestKey } from './keys.ts';
export { AnswerStore, type AnswerStoreOptions } from './kit-kept.ts';
export { errorResponse, replay, ReplayedRefusal, StoredRefusal } from './replay.ts';
export {
  processedRequestsClaimsSql,
  processedRequestsFingerprintSql,
  processedRequestsKeepTextSql,
  processedRequestsTableSql,
} from './tables.ts';
