// The communications log (issue #46 item 4; IN SPA/MF 31/2025, docs/eligibility.md "After a hit"):
// the operator reports each message it sent a bettor (POST /players/{id}/communications, kept with
// its Idempotency-Key's answer in the same transaction) and reads them back; our team reads any
// player's (GET /admin/players/{id}/communications). Any player, under any compliance profile: the
// log is the operator's record, and after a hit the IN asks for every message to be kept.
import { validationError, type afterHitAdminOperations, type communicationOperations, type impedimentNoticeMessages } from '@bo/contracts';
import {
  adminScopeOf,
  internalScopeOf,
  listCursor,
  operatorScopeOf,
  ormTransactor,
  requestKeyOf,
  ruleClock,
  runOnce,
  sqlIn,
  type HandlerOf,
  type ServiceDeps,
} from '@bo/service-kit';
import type { PlayersConfig } from '../../config.ts';
import { findPlayer, requirePlayer } from '../../store/index.ts';
import { communicationsOf, positionOf, recordCommunication, toCommunication } from '../store/communications.ts';
import { firstNoticeAfter } from '../store/impediment-notices.ts';

/** A message reported a little ahead of our clock is the two clocks' skew, not a future time. */
const CLOCK_SKEW_MS = 60_000;

export function recordPlayerCommunication(deps: ServiceDeps): HandlerOf<typeof communicationOperations.recordCommunication> {
  return async (req) => {
    const scope = operatorScopeOf(req);
    const now = ruleClock.now();
    if (Date.parse(req.body.sentAt) > now.getTime() + CLOCK_SKEW_MS) throw validationError('body', [{ path: '/sentAt', message: 'must not be in the future' }]);
    return runOnce(ormTransactor(deps.orm.em), deps.schema, requestKeyOf(req.ctx), 'players.communications.record', async (tx) => {
      const player = await requirePlayer(tx, { id: req.params.playerId, brandId: scope.brandId });
      const row = recordCommunication(tx, player.id, req.body, now);
      await tx.flush();
      return { status: 201, body: toCommunication(row) };
    });
  };
}

export function listPlayerCommunications(deps: ServiceDeps<PlayersConfig>): HandlerOf<typeof communicationOperations.listCommunications> {
  // Bound to the brand and the player: another player's cursor is refused.
  const cursors = listCursor(deps.config.LIST_CURSOR_SECRET, 'players.communications');
  return async (req) => {
    const scope = operatorScopeOf(req);
    const owner = [scope.brandId, req.params.playerId];
    const limit = req.query.limit ?? 50;
    const after = req.query.cursor !== undefined ? cursors.decode(owner, req.query.cursor) : undefined;
    const em = deps.orm.em.fork();
    const player = await requirePlayer(em, { id: req.params.playerId, brandId: scope.brandId });
    return { status: 200, body: cursors.page(owner, await communicationsOf(em, player.id, limit, after), limit, toCommunication, positionOf) };
  };
}

export function adminListCommunications(deps: ServiceDeps<PlayersConfig>): HandlerOf<typeof afterHitAdminOperations.adminListCommunications> {
  const cursors = listCursor(deps.config.LIST_CURSOR_SECRET, 'players.admin.communications');
  return async (req) => {
    adminScopeOf(req);
    const owner = [req.params.id];
    const limit = req.query.limit ?? 50;
    const after = req.query.cursor !== undefined ? cursors.decode(owner, req.query.cursor) : undefined;
    const em = deps.orm.em.fork();
    const player = await requirePlayer(em, { id: req.params.id });
    return { status: 200, body: cursors.page(owner, await communicationsOf(em, player.id, limit, after), limit, toCommunication, positionOf) };
  };
}

/**
 * players.afterHit.notice (internal, the wallet's unclaimed funds): when the player was blocked after a
 * hit and when the operator reports having told them (issue #60 item 6: the 180 days count from that
 * communication, the SPA's FAQ). Nulls for a player never blocked, or not told yet; another brand's player is unknown.
 */
export function afterHitNotice(deps: ServiceDeps): HandlerOf<typeof impedimentNoticeMessages.notice> {
  return async (req) => {
    internalScopeOf(req);
    const em = deps.orm.em.fork();
    const player = await findPlayer(em, { id: req.body.playerId, brandId: req.body.brandId });
    if (!player?.restrictedAt) return { status: 200, body: { restrictedAt: null, noticeSentAt: null } };
    const sentAt = await firstNoticeAfter(sqlIn(em), player.id, player.restrictedAt);
    return { status: 200, body: { restrictedAt: player.restrictedAt.toISOString(), noticeSentAt: sentAt?.toISOString() ?? null } };
  };
}
