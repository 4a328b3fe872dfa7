// players.admin.status (POST /admin/players/:id/status): our team sets a player status, any brand.
import type { playerAdminOperations } from '@bo/contracts';
import { decisionAuthorOf, sqlIn, writeDecisionAudit, type HandlerOf, type ServiceDeps } from '@bo/service-kit';
import { lockPlayer } from '../persistence/player-store.ts';
import { toPlayer } from '../domain/player-views.ts';
import { adminScopeOf } from '@bo/service-kit';

export function adminSetPlayerStatus(deps: ServiceDeps): HandlerOf<typeof playerAdminOperations.adminSetPlayerStatus> {
  return async (req) => {
    const author = decisionAuthorOf(adminScopeOf(req), req.ctx);
    const { params, body: input } = req;
    const answer = await deps.orm.em.fork().transactional(async (tx) => {
      const player = await lockPlayer(tx, { id: params.id });
      const before = toPlayer(player);
      if (player.status !== input.status) {
        player.status = input.status;
        player.updatedAt = new Date();
      }
      const after = toPlayer(player);
      await writeDecisionAudit(sqlIn(tx), deps.schema, author, { action: 'adminSetPlayerStatus', target: `player:${player.id}`, before, after });
      return { status: 200, body: after };
    });
    deps.outbox.poke();
    return answer;
  };
}
