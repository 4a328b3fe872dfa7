// players.state (internal): what deposits, withdrawals and game sessions need to apply their
// rules. Unknown players and players of another brand both answer { exists: false }.
import type { PlayerState, playerMessages } from '@bo/contracts';
import { formatMoney, ruleClock, sqlIn, type HandlerOf, type ServiceDeps } from '@bo/service-kit';
import { findPlayer } from '../../store/index.ts';
import { complianceOf, depositPerDay, isSelfExcluded, limitRows, rgRules } from '../../rg/index.ts';
import { withdrawalsUntil, type Eligibility } from '../../impediments/index.ts';
import { termsDueOf } from '../store/terms-due.ts';
import { missingFields } from '../domain/registration.ts';

export function playerState(deps: ServiceDeps, elig: Eligibility): HandlerOf<typeof playerMessages.state> {
  return async (req) => {
    const input = req.body;
    const scope = req.ctx?.scope;
    // An operator credential may only ever see its own brand.
    const brandAllowed = scope?.kind !== 'operator' || scope.brandId === input.brandId;
    const em = deps.orm.em.fork();
    const player = brandAllowed ? await findPlayer(em, { id: input.playerId, brandId: input.brandId }) : null;
    if (!player) return { status: 200, body: { exists: false, playerId: input.playerId } satisfies PlayerState };
    const now = ruleClock.now();
    const [compliance, rows] = await Promise.all([complianceOf(em, player.operatorId), limitRows(em, player.id)]);
    const daily = depositPerDay(rows, now);
    const terms = compliance.profile === 'br-spa' ? await termsDueOf(sqlIn(em), player, now) : null;
    const rg = rgRules(player, compliance, rows, now, terms);
    // br-spa: registration fields still missing restrict deposits and bets (Portaria 1.231/2024 art. 34
    // sole paragraph); the required limits are read from `rg.limits` as before.
    const missing = compliance.profile === 'br-spa' ? missingFields(player) : [];
    if (rg && missing.length > 0) rg.registrationMissing = missing;
    const state: PlayerState = {
      exists: true,
      playerId: player.id,
      externalId: player.externalId,
      currency: player.currency,
      status: player.status,
      kycStatus: player.kycStatus,
      selfExcluded: isSelfExcluded(player.status, player.selfExcludedUntil, now),
      selfExcludedUntil: player.selfExcludedUntil ? player.selfExcludedUntil.toISOString() : null,
      dailyDepositLimit: daily === null ? null : formatMoney(daily),
      // Absent for an `off` operator's player with no limit and no pause: v1.1's answer.
      ...(rg ? { rg } : {}),
    };
    // br-spa only (the answer under `off` is unchanged): what payments' rules read (own-CPF payer
    // and destinations, the withdrawal window after an impediment hit).
    if (compliance.profile === 'br-spa') {
      Object.assign(state, {
        compliance: 'br-spa',
        cpf: player.cpf,
        restrictedAt: player.restrictedAt?.toISOString() ?? null,
        withdrawalsUntil: player.restrictedAt ? withdrawalsUntil(player.restrictedAt, elig.config).toISOString() : null,
        impedimentCheckedAt: player.impedimentCheckedAt?.toISOString() ?? null,
      } satisfies Partial<PlayerState>);
    }
    return { status: 200, body: state };
  };
}
