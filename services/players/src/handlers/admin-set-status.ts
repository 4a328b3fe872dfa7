// players.admin.status (POST /admin/players/:id/status): our team sets a player status, any brand.
import { AdminPlayerIdParams, PlayerStatusSchema } from '@bo/contracts';
import { Type } from '@sinclair/typebox';
import type { Handler, ServiceDeps } from '@bo/service-kit';
import { lockPlayer } from '../persistence/player-store.ts';
import { toPlayer } from '../domain/player-views.ts';
import { adminScopeOf, parseInput } from '@bo/service-kit';

const SetStatusBody = Type.Object({ status: PlayerStatusSchema });

export function adminSetPlayerStatus(deps: ServiceDeps): Handler {
  return async (req) => {
    adminScopeOf(req);
    const params = parseInput(AdminPlayerIdParams, req.params, 'path');
    const input = parseInput(SetStatusBody, req.body, 'body');
    return deps.orm.em.fork().transactional(async (tx) => {
      const player = await lockPlayer(tx, { id: params.id });
      const before = toPlayer(player);
      if (player.status !== input.status) {
        player.status = input.status;
        player.updatedAt = new Date();
      }
      const after = toPlayer(player);
      return { status: 200, body: after, audit: { target: `player:${player.id}`, before, after } };
    });
  };
}
