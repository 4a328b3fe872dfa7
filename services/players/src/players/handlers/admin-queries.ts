// What our team reads about players, across brands: the KYC queue, the search by id, externalId,
// CPF or e-mail, and one player's file (KYC submissions and history, limits, what holds the status).
import { KYC_REVIEW_STATUSES, type playerAdminOperations } from '@bo/contracts';
import { adminScopeOf, listCursor, ormInOneSnapshot, ruleClock, type HandlerOf, type ServiceDeps } from '@bo/service-kit';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { PlayersConfig } from '../../config.ts';
import { requirePlayer, type PlayerRow } from '../../store/index.ts';
import { listKycHistory, listKycSubmissions, toKycSubmission } from '../../kyc/index.ts';
import { depositPerDayOf, standingOf, toLimits } from '../../rg/index.ts';
import { toPlayer } from '../domain/player-views.ts';
import { kycQueuePage, searchPlayers } from '../store/player-search.ts';
import { acceptancesOf, toAcceptance } from '../store/terms.ts';
import { registrationChangesOf } from '../store/registration-changes.ts';
import { registrationStatus } from '../domain/registration.ts';
import { registrationMissingOf } from './registration.ts';

const toAdminPlayer = (row: PlayerRow) => ({ ...toPlayer(row), operatorId: row.operatorId, brandId: row.brandId, environment: row.environment });

/** A player's file; read in the caller's snapshot (ormInOneSnapshot), so a KYC decision shows in its status and its history alike. */
async function playerFile(em: EntityManager, row: PlayerRow) {
  const submissions = await listKycSubmissions(em, row.id);
  const history = await listKycHistory(em, row.id);
  const acceptances = await acceptancesOf(em, row.id);
  return {
    player: toAdminPlayer(row),
    standing: standingOf(row),
    kyc: {
      status: row.kycStatus,
      updatedAt: row.kycUpdatedAt.toISOString(),
      submissions: submissions.map(toKycSubmission),
      history: history.map((h) => ({
        previousStatus: h.previousStatus,
        status: h.status,
        actor: h.actor ?? null,
        reason: h.reason ?? null,
        at: h.at.toISOString(),
      })),
    },
    limits: toLimits(row, await depositPerDayOf(em, row.id, ruleClock.now())),
    termsAcceptances: acceptances.map(toAcceptance),
  };
}

export function adminGetPlayer(deps: ServiceDeps): HandlerOf<typeof playerAdminOperations.adminGetPlayer> {
  return async (req) => {
    adminScopeOf(req);
    return ormInOneSnapshot(deps.orm, async (em) => {
      const row = await requirePlayer(em, { id: req.params.id });
      // The registration data's completeness and every change of it (issue #60): the player's file only, not the queue's.
      const missing = await registrationMissingOf(em, row, ruleClock.now());
      const changes = await registrationChangesOf(em, row.id);
      const registration = { status: missing ? registrationStatus(missing) : null, changes };
      return { status: 200, body: { ...(await playerFile(em, row)), registration } };
    });
  };
}

/** An id, an externalId, a CPF (punctuation ignored) or an e-mail exactly, or a name containing what was typed. */
export function adminSearchPlayers(deps: ServiceDeps): HandlerOf<typeof playerAdminOperations.adminSearchPlayers> {
  return async (req) => {
    adminScopeOf(req);
    const { q, environment, operatorId } = req.query;
    const rows = await searchPlayers(deps.orm.em.fork(), q.trim(), { environment, operatorId });
    return { status: 200, body: { data: rows.map(toAdminPlayer) } };
  };
}

/** Players waiting for compliance (em_analise unless `status` says otherwise), newest change first. */
export function adminKycQueue(deps: ServiceDeps<PlayersConfig>): HandlerOf<typeof playerAdminOperations.adminKycQueue> {
  // Bound to the status listed: a cursor of another status's queue is refused.
  const cursors = listCursor(deps.config.LIST_CURSOR_SECRET, 'players.kyc_queue');
  return async (req) => {
    adminScopeOf(req);
    const status = req.query.status ?? KYC_REVIEW_STATUSES[0];
    const limit = req.query.limit ?? 20;
    // Bound to the environment too when one is asked (a cursor of both environments stays as it was).
    const environment = req.query.environment;
    const bound = environment ? [status, environment] : [status];
    const after = req.query.cursor ? cursors.decode(bound, req.query.cursor) : undefined;
    return ormInOneSnapshot(deps.orm, async (em) => {
      const rows = await kycQueuePage(em, status, limit, after, environment);
      const { data: page, nextCursor } = cursors.page(
        bound,
        rows,
        limit,
        (r) => r,
        (r) => ({ at: r.kycUpdatedAt.toISOString(), id: r.id }),
      );
      const data = [];
      for (const row of page) data.push(await playerFile(em, row));
      return { status: 200 as const, body: { data, nextCursor } };
    });
  };
}
