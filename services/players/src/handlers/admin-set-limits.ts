// players.admin.limits (PUT /admin/players/:id/limits): responsible-gaming limits, replaced as a
// whole (null clears a limit). The amount is stored as NUMERIC, never through a JS number.
import type { playerAdminOperations } from '@bo/contracts';
import { formatMoney, type HandlerOf, type ServiceDeps } from '@bo/service-kit';
import { lockPlayer } from '../persistence/player-store.ts';
import { toLimits } from '../domain/player-views.ts';
import { adminScopeOf } from '@bo/service-kit';

export function adminSetPlayerLimits(deps: ServiceDeps): HandlerOf<typeof playerAdminOperations.adminSetPlayerLimits> {
  return async (req) => {
    adminScopeOf(req);
    const { params, body: input } = req;
    return deps.orm.em.fork().transactional(async (tx) => {
      const player = await lockPlayer(tx, { id: params.id });
      const before = toLimits(player);
      player.dailyDepositLimit = input.dailyDepositLimit === null ? null : formatMoney(input.dailyDepositLimit);
      player.selfExcludedUntil = input.selfExcludedUntil === null ? null : new Date(input.selfExcludedUntil);
      player.updatedAt = new Date();
      const after = toLimits(player);
      return { status: 200, body: after, audit: { target: `player:${player.id}`, before, after } };
    });
  };
}
