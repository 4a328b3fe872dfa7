// A player's risk level with its history (our team only), and whether their payouts are held:
// compliance.holds.check, asked by payments when our team pays a withdrawal.
import type { amlAdminOperations, amlMessages } from '@bo/contracts';
import { adminScopeOf, internalScopeOf, isoTime, type HandlerOf, type ServiceDeps } from '@bo/service-kit';
import { PlayerRiskEntity, PlayerRiskHistoryEntity } from '../store/entities.ts';

export function adminGetPlayerRisk(deps: ServiceDeps): HandlerOf<typeof amlAdminOperations.adminGetPlayerRisk> {
  return async (req) => {
    adminScopeOf(req);
    const em = deps.orm.em.fork();
    const [row, history] = await Promise.all([
      em.findOne(PlayerRiskEntity, { playerId: req.params.id }),
      em.find(PlayerRiskHistoryEntity, { playerId: req.params.id }, { orderBy: { id: 'asc' } }),
    ]);
    return {
      status: 200,
      body: {
        playerId: req.params.id,
        level: row?.level ?? 'low',
        history: history.map((h) => ({ level: h.level, reason: h.reason, by: h.by, at: isoTime(h.at) })),
      },
    };
  };
}

export function holdCheck(deps: ServiceDeps): HandlerOf<typeof amlMessages.holdCheck> {
  return async (req) => {
    internalScopeOf(req);
    const rows = await deps.sql.query(
      `select 1 from compliance.cases where brand_id = ? and player_id = ? and status in ('open', 'under_review') and risk = 'high' limit 1`,
      [req.body.brandId, req.body.playerId],
    );
    return { status: 200, body: { held: rows.length > 0 } };
  };
}
