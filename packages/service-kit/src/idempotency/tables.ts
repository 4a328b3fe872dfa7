// The kit's table of stored answers, `processed_requests`, in every service's schema: its DDL,
// one fragment per step of its history (kit-tables.ts lists them in the services' migrations).

export function processedRequestsTableSql(schema: string): string {
  return `create table if not exists "${schema}".processed_requests (
    scope text not null,
    idempotency_key text not null,
    operation text not null,
    status integer not null,
    body jsonb not null,
    created_at timestamptz not null default now(),
    primary key (scope, idempotency_key)
  )`;
}

/** Stored answers keep their JSON text as written (jsonb would reorder keys): a replay is the original bytes. */
export function processedRequestsKeepTextSql(schema: string): string {
  return `alter table "${schema}".processed_requests alter column body type json using body::json`;
}

/**
 * The request's fingerprint (method, raw path, body hash) and id beside its stored answer: the
 * service refuses a key reused for another request, and a replayed refusal keeps the first
 * request's id.
 */
export function processedRequestsFingerprintSql(schema: string): string {
  return `alter table "${schema}".processed_requests add column if not exists fingerprint text, add column if not exists request_id text`;
}

/**
 * A row for a request still running (AnswerStore): no status nor body yet, and a lease
 * (`locked_until`) after which a retry of the same request takes the key over.
 */
export function processedRequestsClaimsSql(schema: string): string {
  return `alter table "${schema}".processed_requests alter column status drop not null, alter column body drop not null,
    add column if not exists locked_until timestamptz`;
}
