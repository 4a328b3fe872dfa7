// players.kyc.get (GET /players/:playerId/kyc).
import type { playerOperations } from '@bo/contracts';
import type { HandlerOf, ServiceDeps } from '@bo/service-kit';
import { requirePlayer } from '../../store/index.ts';
import { listKycSubmissions } from '../store/kyc.ts';
import { toKycRecord } from '../domain/kyc-views.ts';
import { operatorScopeOf } from '@bo/service-kit';

export function getKyc(deps: ServiceDeps): HandlerOf<typeof playerOperations.getKyc> {
  return async (req) => {
    const scope = operatorScopeOf(req);
    const params = req.params;
    const em = deps.orm.em.fork();
    const player = await requirePlayer(em, { id: params.playerId, brandId: scope.brandId });
    return { status: 200, body: toKycRecord(player, await listKycSubmissions(em, player.id)) };
  };
}
