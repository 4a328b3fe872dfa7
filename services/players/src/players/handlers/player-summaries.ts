// players.summaries (issue #61): who a page of players are (name, externalId, status, KYC status),
// asked by the services whose admin lists our team reads by name: payments' withdrawal queue, the
// wallet's providers' open rounds and debts. Internal scope; one read for the whole page.
import { playerSummaryMessages } from '@bo/contracts';
import { handle, internalScopeOf, type Handler, type ServiceDeps } from '@bo/service-kit';
import { PlayerEntity } from '../../store/index.ts';

export function playerSummaryHandlers(deps: ServiceDeps): Record<string, Handler> {
  return {
    ...handle(playerSummaryMessages.summaries, async (req) => {
      internalScopeOf(req);
      const ids: string[] = [...new Set(req.body.playerIds)];
      const rows = await deps.orm.em.fork().find(PlayerEntity, { id: { $in: ids } });
      return {
        body: {
          players: rows.map((r) => ({
            id: r.id,
            brandId: r.brandId,
            externalId: r.externalId ?? null,
            name: r.name,
            status: r.status,
            kycStatus: r.kycStatus,
          })),
        },
      };
    }),
  };
}
