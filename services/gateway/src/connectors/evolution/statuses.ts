// How the provider wallet's refusals read in Evolution's statuses (docs/connectors-evolution.md,
// "Status mapping": the table there is this one, held to it by a test). Evolution has no status per
// rule of ours: each refusal takes the closest one. The player's standing and limits lock the
// account for bets (ACCOUNT_LOCKED); the casino's side (provider, offer, operator, a disabled game)
// is a final failure of the action (FINAL_ERROR_ACTION_FAILED); our outage is temporary, and
// Evolution sends the call again (TEMPORARY_ERROR, `retransmission: true`).
import type { EvolutionStatus, EvolutionWalletCall } from '@bo/contracts';

export interface EvolutionRefusal {
  /** Our error code (the provider wallet's, docs/providers.md "Error codes"). */
  code: string;
  /** Only when `details[key]` is one of these (RG_BLOCKED's reason). */
  when?: { key: 'reason' | 'status'; values: readonly string[] };
  status: EvolutionStatus;
  calls: readonly EvolutionWalletCall[];
}

const ALL: readonly EvolutionWalletCall[] = ['check', 'balance', 'debit', 'credit', 'cancel', 'promo_payout'];

/** The mapping, most specific rows first (the first that matches answers). */
export const EVOLUTION_REFUSALS: readonly EvolutionRefusal[] = [
  { code: 'SESSION_TOKEN_INVALID', status: 'INVALID_SID', calls: ['check', 'balance', 'debit'] },
  { code: 'SESSION_TOKEN_EXPIRED', status: 'INVALID_SID', calls: ['check', 'debit'] },
  { code: 'CURRENCY_MISMATCH', status: 'INVALID_PARAMETER', calls: ['debit', 'credit', 'promo_payout'] },
  // Brazil's rules: an advantage before a bet (issue #59 item 1): final, not to be sent again.
  { code: 'BONUS_FORBIDDEN', status: 'FINAL_ERROR_ACTION_FAILED', calls: ['promo_payout'] },
  { code: 'PROVIDER_DISABLED', status: 'FINAL_ERROR_ACTION_FAILED', calls: ['debit'] },
  { code: 'PROVIDER_NOT_ENABLED', status: 'FINAL_ERROR_ACTION_FAILED', calls: ['debit'] },
  { code: 'OPERATOR_SUSPENDED', status: 'FINAL_ERROR_ACTION_FAILED', calls: ['debit'] },
  // The table id names no game of ours: a parameter Evolution should not have sent.
  { code: 'GAME_NOT_FOUND', status: 'INVALID_PARAMETER', calls: ['debit'] },
  { code: 'GAME_DISABLED', status: 'FINAL_ERROR_ACTION_FAILED', calls: ['debit'] },
  // Brazil's rules: a table without a valid certificate takes no bets (issue #59 item 5): the casino's side, as a disabled table.
  { code: 'GAME_NOT_CERTIFIED', status: 'FINAL_ERROR_ACTION_FAILED', calls: ['debit'] },
  {
    code: 'RG_BLOCKED',
    when: {
      key: 'reason',
      values: ['impeded', 'self_excluded', 'paused', 'limits_required', 'registration_incomplete', 'time_limit', 'wager_limit', 'loss_limit'],
    },
    status: 'ACCOUNT_LOCKED',
    calls: ['debit'],
  },
  { code: 'KYC_NOT_APPROVED', status: 'ACCOUNT_LOCKED', calls: ['debit'] },
  { code: 'TERMS_NOT_ACCEPTED', status: 'ACCOUNT_LOCKED', calls: ['debit'] },
  { code: 'PLAYER_NOT_ACTIVE', status: 'ACCOUNT_LOCKED', calls: ['debit'] },
  { code: 'PLAYER_NOT_FOUND', status: 'ACCOUNT_LOCKED', calls: ['debit'] },
  { code: 'INSUFFICIENT_FUNDS', status: 'INSUFFICIENT_FUNDS', calls: ['debit'] },
  // A transaction id used for another call: a debit's is another bet; a credit's, another settlement;
  // a cancel's (its debit's id), a bet of another refId.
  { code: 'TRANSACTION_CONFLICT', status: 'BET_ALREADY_EXIST', calls: ['debit'] },
  { code: 'TRANSACTION_CONFLICT', status: 'BET_ALREADY_SETTLED', calls: ['credit'] },
  { code: 'TRANSACTION_CONFLICT', status: 'BET_DOES_NOT_EXIST', calls: ['cancel'] },
  { code: 'TRANSACTION_CONFLICT', status: 'INVALID_PARAMETER', calls: ['promo_payout'] },
  // The debit's cancel reached us first: the bet is settled (cancelled) for good.
  { code: 'BET_ROLLED_BACK', status: 'BET_ALREADY_SETTLED', calls: ['debit'] },
  // The bet (its refId) was credited or cancelled: settled.
  { code: 'ROUND_CLOSED', status: 'BET_ALREADY_SETTLED', calls: ['debit', 'credit'] },
  { code: 'ROUND_NOT_FOUND', status: 'BET_DOES_NOT_EXIST', calls: ['credit', 'cancel'] },
  { code: 'BET_ALREADY_SETTLED', status: 'BET_ALREADY_SETTLED', calls: ['cancel'] },
  // An id or amount the provider wallet's schema refuses (an id with a space, a bet of 0.00, over 1,000,000.00).
  { code: 'VALIDATION_ERROR', status: 'INVALID_PARAMETER', calls: ['check', 'balance', 'debit', 'credit', 'cancel', 'promo_payout'] },
  // The wallet did not answer in time: Evolution sends the call again (the same id moves money once).
  { code: 'SERVICE_UNAVAILABLE', status: 'TEMPORARY_ERROR', calls: ALL },
];

/** The status of a refusal of `call`; anything the table does not name (a fault of ours) is UNKNOWN_ERROR. */
export function evolutionStatusOf(call: EvolutionWalletCall, error: { code: string; details?: unknown }): EvolutionStatus {
  const details = (error.details ?? {}) as Record<string, unknown>;
  for (const r of EVOLUTION_REFUSALS) {
    if (r.code !== error.code || !r.calls.includes(call)) continue;
    if (r.when && !r.when.values.includes(String(details[r.when.key]))) continue;
    return r.status;
  }
  return 'UNKNOWN_ERROR';
}
