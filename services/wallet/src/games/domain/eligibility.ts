// Who may open a game session, in the contract's check order (docs/decisions.md): the player exists
// (404 before the game's 404, handled by the caller) → KYC aprovado → RG (not self-excluded, not
// paused, br-spa's loss and time limits set) → status ativo.
import { AppError, assertNotPausedOrIncomplete, type PlayerState } from '@bo/contracts';
import { ruleClock } from '@bo/service-kit';

export function assertPlayerExists(state: PlayerState): void {
  if (!state.exists) throw new AppError('PLAYER_NOT_FOUND');
}

export function assertPlayerMayPlay(state: PlayerState, now: Date = ruleClock.now()): void {
  if (state.kycStatus !== 'aprovado') {
    throw new AppError('KYC_NOT_APPROVED', 'Game sessions require the player KYC status aprovado.', { kycStatus: state.kycStatus ?? null });
  }
  // br-spa: an impediment hit (docs/eligibility.md); the wording never says which list matched.
  if (state.restrictedAt) throw new AppError('RG_BLOCKED', 'This person cannot bet with this operator.', { reason: 'impeded' });
  if (isSelfExcluded(state, now)) {
    throw new AppError('RG_BLOCKED', 'The player is self-excluded from play.', { reason: 'self_excluded', selfExcludedUntil: state.selfExcludedUntil ?? null });
  }
  assertNotPausedOrIncomplete(state.rg, now);
  if (state.status !== 'ativo') {
    throw new AppError('PLAYER_NOT_ACTIVE', 'Game sessions require the player status ativo.', { status: state.status ?? null });
  }
}

/** The players service reports `selfExcluded`; the dates and status are re-checked in case it is stale. */
function isSelfExcluded(state: PlayerState, now: Date): boolean {
  if (state.selfExcluded) return true;
  if (state.status === 'autoexcluido') return true;
  return state.selfExcludedUntil != null && new Date(state.selfExcludedUntil).getTime() > now.getTime();
}
