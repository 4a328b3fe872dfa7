// Checks one message part against its contract schema where a handler must do it itself (after
// a check that comes first, like a launch token); everything else is checked by `handle` before
// the handler runs. The same rules as the gateway (contracts' validation.ts), compiled once.
import type { Static, TSchema } from '@sinclair/typebox';
import { compilePart, type MessagePart, type PartValidator } from '@bo/contracts';

const compiled = new WeakMap<TSchema, Map<MessagePart, PartValidator<TSchema>>>();

export function parseInput<T extends TSchema>(schema: T, value: unknown, where: 'body' | 'path' | 'query'): Static<T> {
  let byPart = compiled.get(schema);
  if (!byPart) {
    byPart = new Map();
    compiled.set(schema, byPart);
  }
  let check = byPart.get(where);
  if (!check) {
    check = compilePart(schema, where);
    byPart.set(where, check);
  }
  const r = check(value);
  if ('error' in r) throw r.error;
  return r.value as Static<T>;
}
