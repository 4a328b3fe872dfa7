// The cursor of an admin list ordered by (time, id): the position and the filter it was made under.
// Not a secret (admin only, no signature), but a malformed one, or one used under another filter,
// is a 422 like any other bad query.
import { validationError } from '@bo/contracts';

export interface ListPosition {
  at: string;
  id: string;
}

export function encodeListCursor(filter: string, at: Date | string, id: string): string {
  return Buffer.from(JSON.stringify([filter, new Date(at).toISOString(), id])).toString('base64url');
}

export function decodeListCursor(cursor: string, filter: string): ListPosition {
  const invalid = validationError('query', [{ path: '/cursor', message: 'must be a nextCursor returned by this list, with the same filter' }]);
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid;
  }
  if (!Array.isArray(v) || v.length !== 3 || v[0] !== filter || typeof v[1] !== 'string' || Number.isNaN(Date.parse(v[1])) || typeof v[2] !== 'string')
    throw invalid;
  return { at: v[1], id: v[2] };
}
