// A player's risk level with its history (our team only), and whether their payouts are held:
// compliance.holds.check, asked by payments when our team pays a withdrawal.
import type { amlAdminOperations, amlMessages } from '@bo/contracts';
import { adminScopeOf, internalScopeOf, isoTime, type HandlerOf, type ServiceDeps } from '@bo/service-kit';
import { hasHoldingCase } from '../store/case-counts.ts';
import { playerRiskOf } from '../store/player-risk.ts';

export function adminGetPlayerRisk(deps: ServiceDeps): HandlerOf<typeof amlAdminOperations.adminGetPlayerRisk> {
  return async (req) => {
    adminScopeOf(req);
    const { level, history } = await playerRiskOf(deps.orm, req.params.id);
    return {
      status: 200,
      body: {
        playerId: req.params.id,
        level: level ?? 'low',
        history: history.map((h) => ({ level: h.level, reason: h.reason, by: h.by, at: isoTime(h.at) })),
      },
    };
  };
}

export function holdCheck(deps: ServiceDeps): HandlerOf<typeof amlMessages.holdCheck> {
  return async (req) => {
    internalScopeOf(req);
    return { status: 200, body: { held: await hasHoldingCase(deps.sql, req.body.brandId, req.body.playerId) } };
  };
}
