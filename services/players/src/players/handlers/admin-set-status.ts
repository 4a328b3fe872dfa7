// players.admin.status (POST /admin/players/:id/status): our team sets a player status, any brand.
// Not one a restriction holds (domain/standing.ts: 409 STANDING_HAS_OWN_FLOW naming the flow that
// ends it), checked on the locked row in the transaction that changes it. A change writes the
// neutral `player.status.changed` (the status only, never why).
import type { playerAdminOperations } from '@bo/contracts';
import { decisionAuthorOf, sqlIn, writeDecisionAudit, type HandlerOf, type ServiceDeps } from '@bo/service-kit';
import { adminScopeOf } from '@bo/service-kit';
import { lockPlayer, writeStatusChanged } from '../../store/index.ts';
import { toPlayer } from '../domain/player-views.ts';
import { assertGenericChange } from '../../rg/index.ts';

export function adminSetPlayerStatus(deps: ServiceDeps): HandlerOf<typeof playerAdminOperations.adminSetPlayerStatus> {
  return async (req) => {
    const author = decisionAuthorOf(adminScopeOf(req), req.ctx);
    const { params, body: input } = req;
    const answer = await deps.orm.em.fork().transactional(async (tx) => {
      const player = await lockPlayer(tx, { id: params.id });
      const before = toPlayer(player);
      assertGenericChange(player, input.status);
      if (player.status !== input.status) {
        player.status = input.status;
        player.updatedAt = new Date();
        await writeStatusChanged(tx, deps.schema, player, before.status);
      }
      const after = toPlayer(player);
      await writeDecisionAudit(sqlIn(tx), deps.schema, author, { action: 'adminSetPlayerStatus', target: `player:${player.id}`, before, after });
      return { status: 200, body: after };
    });
    deps.outbox.poke();
    return answer;
  };
}
