// players.state (internal): what deposits, withdrawals and game sessions need to apply their
// rules. Unknown players and players of another brand both answer { exists: false }.
import type { PlayerState, playerMessages } from '@bo/contracts';
import type { HandlerOf, ServiceDeps } from '@bo/service-kit';
import { findPlayer } from '../persistence/player-store.ts';
import { toLimits } from '../domain/player-views.ts';
import { isSelfExcluded } from '../domain/responsible-gaming.ts';
import { complianceOf, withdrawalsUntil, type Eligibility } from '../impediments/eligibility.ts';

export function playerState(deps: ServiceDeps, elig: Eligibility): HandlerOf<typeof playerMessages.state> {
  return async (req) => {
    const input = req.body;
    const scope = req.ctx?.scope;
    // An operator credential may only ever see its own brand.
    const brandAllowed = scope?.kind !== 'operator' || scope.brandId === input.brandId;
    const em = deps.orm.em.fork();
    const player = brandAllowed ? await findPlayer(em, { id: input.playerId, brandId: input.brandId }) : null;
    if (!player) return { status: 200, body: { exists: false, playerId: input.playerId } satisfies PlayerState };
    const limits = toLimits(player);
    const state: PlayerState = {
      exists: true,
      playerId: player.id,
      externalId: player.externalId,
      currency: player.currency,
      status: player.status,
      kycStatus: player.kycStatus,
      selfExcluded: isSelfExcluded(player.status, player.selfExcludedUntil),
      selfExcludedUntil: limits.selfExcludedUntil,
      dailyDepositLimit: limits.dailyDepositLimit,
    };
    // br-spa only (the answer under `off` is unchanged): what payments' rules read (own-CPF payer
    // and destinations, the withdrawal window after a hit).
    if ((await complianceOf(em, player.operatorId)).profile === 'br-spa') {
      Object.assign(state, {
        compliance: 'br-spa',
        cpf: player.cpf,
        restrictedAt: player.restrictedAt?.toISOString() ?? null,
        withdrawalsUntil: player.restrictedAt ? withdrawalsUntil(player.restrictedAt, elig.config).toISOString() : null,
      } satisfies Partial<PlayerState>);
    }
    return { status: 200, body: state };
  };
}
