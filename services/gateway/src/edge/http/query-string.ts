// The query string, decoded strictly. Fastify's default parser keeps a value it cannot decode as
// the text that came (`?externalId=%ZZ` reached the services as the literal `%ZZ`); here a `%`
// that is not followed by two hex digits, or escapes that are not UTF-8 (overlong forms, encoded
// surrogates such as %ED%A0%80), mark their parameter instead, and the validator refuses the
// query with 422 (details.in = query) where every other query error is refused: after
// authentication, rate limit and idempotency. The path refuses the same inputs (errors.ts).
import type { ValidationIssue } from '@bo/contracts';
import { jsonPointer } from '@bo/http-kit';

const MALFORMED = Symbol('malformed query parameters');

type Query = Record<string, string | string[]> & { [MALFORMED]?: ValidationIssue[] };

/** `+` is a space; undefined when the escapes do not decode to UTF-8 (decodeURIComponent is strict). */
function decode(s: string): string | undefined {
  const text = s.includes('+') ? s.replace(/\+/g, ' ') : s;
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/** Fastify's `querystringParser`: the default's shape (a repeated name gives an array), strict decoding. */
export function parseQueryString(query: string): Query {
  const result: Query = Object.create(null);
  if (query === '') return result;
  const issues = new Map<string, string>();
  for (const pair of query.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const rawName = eq === -1 ? pair : pair.slice(0, eq);
    const rawValue = eq === -1 ? '' : pair.slice(eq + 1);
    const name = decode(rawName);
    const value = decode(rawValue);
    // A name that cannot be decoded is not echoed back: the issue points at the whole query.
    if (name === undefined) issues.set('/', 'A parameter name is not validly percent-encoded UTF-8.');
    else if (value === undefined) issues.set(jsonPointer('', name), 'Must be validly percent-encoded UTF-8.');
    // What cannot be decoded stays as it came, as with Fastify's parser; validation refuses it.
    const key = name ?? rawName;
    const v = value ?? rawValue;
    const current = result[key];
    if (current === undefined) result[key] = v;
    else if (Array.isArray(current)) current.push(v);
    else result[key] = [current, v];
  }
  if (issues.size) result[MALFORMED] = [...issues].map(([path, message]) => ({ path, message }));
  return result;
}

/** The issues parseQueryString marked on a parsed query (none for anything else). */
export function malformedQueryIssues(query: unknown): ValidationIssue[] {
  return (query !== null && typeof query === 'object' && (query as Query)[MALFORMED]) || [];
}
