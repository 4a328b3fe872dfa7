// The database conventions' names for a Postgres statement's span: pg's instrumentation names it
// `pg.query:<OPERATION> <database>` and leaves out the operation and the table; its request hook
// renames it `<OPERATION> <table>` (e.g. `SELECT payments.deposits`) and adds db.operation.name and
// db.collection.name. The text carries placeholders, never values (the instrumentation records it
// as db.query.text; its values are not recorded).
import type { Span } from '@opentelemetry/api';

/** Names the span of the statement `text` by the conventions. */
export function nameStatementSpan(span: Span, text: string | undefined): void {
  if (text === undefined) return;
  const operation = /^\s*(\w+)/.exec(text)?.[1]?.toUpperCase() ?? 'QUERY';
  const table = /\b(?:from|into|update)\s+("?[\w$]+"?(?:\."?[\w$]+"?)?)/i.exec(text)?.[1]?.replaceAll('"', '');
  span.updateName(table ? `${operation} ${table}` : operation);
  span.setAttribute('db.operation.name', operation);
  if (table) span.setAttribute('db.collection.name', table);
}
