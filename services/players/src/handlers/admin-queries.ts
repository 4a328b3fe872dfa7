// What our team reads about players, across brands: the KYC queue, the search by id, externalId,
// CPF or e-mail, and one player's file (KYC submissions and history, limits).
import { KYC_REVIEW_STATUSES, type playerAdminOperations } from '@bo/contracts';
import { adminScopeOf, decodeListCursor, encodeListCursor, ormRunner, type HandlerOf, type ServiceDeps } from '@bo/service-kit';
import type { EntityManager } from '@mikro-orm/postgresql';
import { PlayerEntity, type PlayerRow } from '../persistence/entities.ts';
import { listKycHistory, listKycSubmissions, requirePlayer } from '../persistence/player-store.ts';
import { toKycSubmission, toLimits, toPlayer } from '../domain/player-views.ts';

const toAdminPlayer = (row: PlayerRow) => ({ ...toPlayer(row), operatorId: row.operatorId, brandId: row.brandId, environment: row.environment });

async function playerFile(em: EntityManager, row: PlayerRow) {
  const [submissions, history] = await Promise.all([listKycSubmissions(em, row.id), listKycHistory(em, row.id)]);
  return {
    player: toAdminPlayer(row),
    kyc: {
      status: row.kycStatus,
      updatedAt: row.kycUpdatedAt.toISOString(),
      submissions: submissions.map(toKycSubmission),
      history: history.map((h) => ({ ...h, at: new Date(h.at).toISOString() })),
    },
    limits: toLimits(row),
  };
}

export function adminGetPlayer(deps: ServiceDeps): HandlerOf<typeof playerAdminOperations.adminGetPlayer> {
  return async (req) => {
    adminScopeOf(req);
    const em = deps.orm.em.fork();
    return { status: 200, body: await playerFile(em, await requirePlayer(em, { id: req.params.id })) };
  };
}

/** Exact matches only: an id, an externalId, a CPF (punctuation ignored) or an e-mail (any case). */
export function adminSearchPlayers(deps: ServiceDeps): HandlerOf<typeof playerAdminOperations.adminSearchPlayers> {
  return async (req) => {
    adminScopeOf(req);
    const q = req.query.q.trim();
    const digits = q.replace(/[.\-\s]/g, '');
    const or: object[] = [{ id: q }, { externalId: q }];
    if (/^[0-9]{11}$/.test(digits)) or.push({ cpf: digits });
    if (q.includes('@')) or.push({ email: { $ilike: q.replace(/[\\%_]/g, (c) => `\\${c}`) } });
    const rows = await deps.orm.em.fork().find(PlayerEntity, { $or: or }, { orderBy: { createdAt: 'desc', id: 'desc' }, limit: 50 });
    return { status: 200, body: { data: rows.map(toAdminPlayer) } };
  };
}

/** Players waiting for compliance (em_analise unless `status` says otherwise), newest change first. */
export function adminKycQueue(deps: ServiceDeps): HandlerOf<typeof playerAdminOperations.adminKycQueue> {
  return async (req) => {
    adminScopeOf(req);
    const status = req.query.status ?? KYC_REVIEW_STATUSES[0];
    const limit = req.query.limit ?? 20;
    const after = req.query.cursor ? decodeListCursor(req.query.cursor, status) : undefined;
    const em = deps.orm.em.fork();
    const ids = await ormRunner(em).query<{ id: string }>(
      `select id from players.players where kyc_status = ? ${after ? 'and (kyc_updated_at, id) < (?::timestamptz, ?)' : ''}
       order by kyc_updated_at desc, id desc limit ?`,
      after ? [status, after.at, after.id, limit + 1] : [status, limit + 1],
    );
    const rows = await em.find(PlayerEntity, { id: { $in: ids.slice(0, limit).map((r) => r.id) } }, { orderBy: { kycUpdatedAt: 'desc', id: 'desc' } });
    const data = [];
    for (const row of rows) data.push(await playerFile(em, row));
    return { status: 200, body: { data, nextCursor: ids.length > limit ? encodeListCursor(status, rows.at(-1)!.kycUpdatedAt, rows.at(-1)!.id) : null } };
  };
}
