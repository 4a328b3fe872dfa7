// The transactions cursor: opaque to operators, tamper-evident for us. It carries a position in
// the ledger (createdAt, id) and an HMAC over that position bound to the brand and player, so
// an altered cursor or one taken from another player's list is refused.
import { createHmac } from 'node:crypto';
import { validationError } from '@bo/contracts';
import { isIsoDateTime } from '@bo/contracts';
import { safeEqual } from '@bo/service-kit';

export interface LedgerPosition {
  createdAt: string;
  id: string;
}
export interface CursorOwner {
  brandId: string;
  playerId: string;
}

function sign(secret: string, owner: CursorOwner, payload: string): string {
  return createHmac('sha256', secret).update(`ledger-cursor.v1|${owner.brandId}|${owner.playerId}|${payload}`).digest('base64url');
}

export function encodeCursor(secret: string, owner: CursorOwner, pos: LedgerPosition): string {
  const payload = Buffer.from(JSON.stringify([pos.createdAt, pos.id])).toString('base64url');
  return `${payload}.${sign(secret, owner, payload)}`;
}

const invalid = (message: string) => validationError('query', [{ path: '/cursor', message }], 'The cursor is not valid.');

export function decodeCursor(secret: string, owner: CursorOwner, cursor: string): LedgerPosition {
  const parts = cursor.split('.');
  if (parts.length !== 2 || !parts[0] || !parts[1]) throw invalid('must be a nextCursor returned by this list');
  const [payload, mac] = parts;
  if (!safeEqual(mac, sign(secret, owner, payload))) throw invalid('must be a nextCursor returned by this list, unaltered, for this player');
  let pos: unknown;
  try {
    pos = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw invalid('is malformed');
  }
  if (!Array.isArray(pos) || pos.length !== 2 || typeof pos[0] !== 'string' || typeof pos[1] !== 'string' || !isIsoDateTime(pos[0])) {
    throw invalid('is malformed');
  }
  return { createdAt: pos[0], id: pos[1] };
}
