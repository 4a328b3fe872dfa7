// Postgres spans, when tracing is on: every statement a connection of the pool runs inside a traced
// handling (the kit's `sql` and the ORM's queries alike, as both use this pool) becomes a client
// span with its text (texts carry placeholders, never values), named by the database conventions
// (`<OPERATION> <table>`, e.g. `SELECT payments.deposits`). Statements outside any trace (the
// outbox relay's and the loops' polling) make none. Without tracing the pool is left untouched.
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Pool, PoolClient } from 'pg';
import { tracer } from './telemetry.ts';

type Query = (...args: unknown[]) => unknown;

/** The statement's text, from `query(text, …)` or `query({ text, … })`. */
function textOf(config: unknown): string | undefined {
  if (typeof config === 'string') return config;
  if (typeof config === 'object' && config !== null && typeof (config as { text?: unknown }).text === 'string') return (config as { text: string }).text;
  return undefined;
}

function traceClient(client: PoolClient): void {
  const query = client.query as unknown as Query;
  const traced: Query = function (this: unknown, ...args: unknown[]) {
    const text = textOf(args[0]);
    // Callback and submittable (cursor) forms, and statements outside a trace, run as they are.
    if (
      !trace.getActiveSpan() ||
      text === undefined ||
      args.some((a) => typeof a === 'function') ||
      typeof (args[0] as { submit?: unknown }).submit === 'function'
    ) {
      return query.apply(this, args);
    }
    const operation = /^\s*(\w+)/.exec(text)?.[1]?.toUpperCase() ?? 'QUERY';
    const table = /\b(?:from|into|update)\s+("?[\w$]+"?(?:\."?[\w$]+"?)?)/i.exec(text)?.[1]?.replaceAll('"', '');
    const span = tracer.startSpan(table ? `${operation} ${table}` : operation, {
      kind: SpanKind.CLIENT,
      attributes: {
        'db.system.name': 'postgresql',
        'db.operation.name': operation,
        'db.query.text': text,
        ...(table ? { 'db.collection.name': table } : {}),
      },
    });
    return (query.apply(this, args) as Promise<unknown>).then(
      (res) => {
        span.end();
        return res;
      },
      (err: unknown) => {
        span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
        span.end();
        throw err;
      },
    );
  };
  (client as unknown as { query: Query }).query = traced;
}

/** Makes every connection the pool opens from now on report its statements as spans. */
export function traceQueries(pool: Pool): void {
  pool.on('connect', traceClient);
}
