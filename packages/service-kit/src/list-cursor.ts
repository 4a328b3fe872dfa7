// The cursor of every paginated list (docs/decisions.md: opaque and tamper-evident): the position
// after a page's last item (a time and an id, both as the list wrote them) and an HMAC-SHA256 of it
// bound to the list's name and the scope it was issued under (the brand and player of a ledger, the
// operator of an event log, the filter of a queue). A cursor that is garbage, altered, or issued by
// another list or under another scope is a 422 on the query (`details.in` = `query`, `/cursor`).
// `payload.mac`, both base64url. Each service signs with its own secret setting
// (`ListCursorConfigSchema`, or the wallet's LEDGER_CURSOR_SECRET); a cursor is only good on the
// service and secret that issued it, so rotating the secret ends the cursors in flight (short-lived:
// a client pages through a list in one go).
import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import { safeEqual, validationError } from '@bo/contracts';
import { secretKey } from './production-secrets.ts';

/** Only for local runs and tests; production sets LIST_CURSOR_SECRET. */
export const DEV_LIST_CURSOR_SECRET = 'dev-only-list-cursor-secret-change-me';

/** The setting of a service that lists: the key its cursors are signed with (same on every replica). */
export const ListCursorConfigSchema = Type.Object({ LIST_CURSOR_SECRET: secretKey(DEV_LIST_CURSOR_SECRET) });

export interface ListPosition {
  at: string;
  id: string;
}

export interface ListCursor {
  /** The cursor that continues after `pos`, for requests under `scope`. */
  encode(scope: readonly string[], pos: ListPosition): string;
  /** The position a cursor carries, if this list issued it under this scope; else a 422. */
  decode(scope: readonly string[], cursor: string): ListPosition;
  /**
   * A page from rows read with `limit + 1` (the extra row says more follow): the first `limit`
   * rows through `view`, and the cursor after the last of them when more follow.
   */
  page<R, V>(
    scope: readonly string[],
    rows: R[],
    limit: number,
    view: (row: R) => V,
    positionOf: (row: R) => ListPosition,
  ): { data: V[]; nextCursor: string | null };
}

const invalid = (message: string) => validationError('query', [{ path: '/cursor', message }], 'The cursor is not valid.');

/** The cursors of one list (`list` names it: a cursor of another list is refused). */
export function listCursor(secret: string, list: string): ListCursor {
  const key: KeyObject = createSecretKey(Buffer.from(secret, 'utf8'));
  const sign = (scope: readonly string[], payload: string) =>
    createHmac('sha256', key)
      .update(`list-cursor.v1\n${JSON.stringify([list, ...scope])}\n${payload}`)
      .digest('base64url');
  const encode = (scope: readonly string[], pos: ListPosition) => {
    const payload = Buffer.from(JSON.stringify([pos.at, pos.id])).toString('base64url');
    return `${payload}.${sign(scope, payload)}`;
  };
  return {
    encode,
    page(scope, rows, limit, view, positionOf) {
      const shown = rows.slice(0, limit);
      const last = shown.at(-1);
      return { data: shown.map(view), nextCursor: rows.length > limit && last !== undefined ? encode(scope, positionOf(last)) : null };
    },
    decode(scope, cursor) {
      const parts = cursor.split('.');
      if (parts.length !== 2 || !parts[0] || !parts[1]) throw invalid('must be a nextCursor returned by this list');
      const [payload, mac] = parts;
      if (!safeEqual(mac, sign(scope, payload))) throw invalid('must be a nextCursor returned by this list, unaltered, for the same query');
      let pos: unknown;
      try {
        pos = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
      } catch {
        pos = undefined;
      }
      // Only we sign cursors, so this holds unless the secret is shared with another format.
      if (!Array.isArray(pos) || pos.length !== 2 || typeof pos[0] !== 'string' || typeof pos[1] !== 'string') throw invalid('is malformed');
      return { at: pos[0], id: pos[1] };
    },
  };
}
