// The gateway validates every request against the contract; the service checks again because a
// message may come from elsewhere (another service, a test, a future gateway version).
import type { Static, TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { validationError } from '@bo/contracts';

export function parseInput<T extends TSchema>(schema: T, value: unknown, where: 'body' | 'query' | 'path'): Static<T> {
  if (Value.Check(schema, value)) return value;
  const issues = [...Value.Errors(schema, value)].map((e) => ({ path: e.path || '/', message: e.message }));
  throw validationError(where, issues);
}
