// Checks a message part against its contract schema. The gateway validates public operations
// first; services check again because a message may come from elsewhere (another service, a
// test, a wiring bug). Unknown fields are ignored, nothing is coerced.
import { Value } from '@sinclair/typebox/value';
import type { Static, TSchema } from '@sinclair/typebox';
import { validationError } from '@bo/contracts';

export function parseInput<T extends TSchema>(schema: T, value: unknown, where: 'body' | 'path' | 'query'): Static<T> {
  const input = value ?? (where === 'body' ? {} : value);
  if (Value.Check(schema, input)) return input;
  // One issue per path: a missing property would otherwise also report its wrong type.
  const byPath = new Map<string, string>();
  for (const e of Value.Errors(schema, input)) if (!byPath.has(e.path || '/')) byPath.set(e.path || '/', e.message);
  throw validationError(where, [...byPath].map(([path, message]) => ({ path, message })));
}
