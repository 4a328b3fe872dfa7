// How the provider wallet's refusals read in Hub88's statuses (docs/connectors-hub88.md, "Status
// mapping": the table there is this one, held to it by a test). Hub88 has no status per rule of
// ours: each refusal takes the closest of its table ("Seamless Wallet response statuses -
// Operator API"). What matters most to Hub88 is which statuses it does not roll a bet back on:
// RS_ERROR_NOT_ENOUGH_MONEY and RS_ERROR_LIMIT_REACHED (the player's money or limits); every
// other refusal of a bet is followed by its rollback, which then moves nothing.
import type { Hub88Status, Hub88WalletCall } from '@bo/contracts';

export interface Hub88Refusal {
  /** Our error code (the provider wallet's, docs/providers.md "Error codes"). */
  code: string;
  /** Only when `details[key]` is one of these (RG_BLOCKED's reason, ROUND_CLOSED's status). */
  when?: { key: 'reason' | 'status'; values: readonly string[] };
  status: Hub88Status;
  calls: readonly Hub88WalletCall[];
}

const LIMITS = ['time_limit', 'wager_limit', 'loss_limit'] as const;

/** The mapping, most specific rows first (the first that matches answers). */
export const HUB88_REFUSALS: readonly Hub88Refusal[] = [
  // A supplier promotion's win is checked for its token too (issue #66).
  { code: 'SESSION_TOKEN_INVALID', status: 'RS_ERROR_INVALID_TOKEN', calls: ['bet', 'win', 'balance'] },
  { code: 'SESSION_TOKEN_EXPIRED', status: 'RS_ERROR_TOKEN_EXPIRED', calls: ['bet'] },
  { code: 'CURRENCY_MISMATCH', status: 'RS_ERROR_WRONG_CURRENCY', calls: ['bet', 'win'] },
  { code: 'PROVIDER_DISABLED', status: 'RS_ERROR_INVALID_PARTNER', calls: ['bet'] },
  { code: 'PROVIDER_NOT_ENABLED', status: 'RS_ERROR_INVALID_PARTNER', calls: ['bet'] },
  { code: 'OPERATOR_SUSPENDED', status: 'RS_ERROR_INVALID_PARTNER', calls: ['bet'] },
  { code: 'GAME_NOT_FOUND', status: 'RS_ERROR_INVALID_GAME', calls: ['bet'] },
  { code: 'GAME_DISABLED', status: 'RS_ERROR_INVALID_GAME', calls: ['bet'] },
  // Brazil's rules: a game without a valid certificate takes no bets (issue #59 item 5); Hub88's closest: the game cannot be played.
  { code: 'GAME_NOT_CERTIFIED', status: 'RS_ERROR_INVALID_GAME', calls: ['bet'] },
  { code: 'RG_BLOCKED', when: { key: 'reason', values: LIMITS }, status: 'RS_ERROR_LIMIT_REACHED', calls: ['bet'] },
  {
    code: 'RG_BLOCKED',
    when: { key: 'reason', values: ['impeded', 'self_excluded', 'paused', 'limits_required', 'registration_incomplete'] },
    status: 'RS_ERROR_USER_DISABLED',
    calls: ['bet'],
  },
  { code: 'KYC_NOT_APPROVED', status: 'RS_ERROR_USER_DISABLED', calls: ['bet'] },
  { code: 'TERMS_NOT_ACCEPTED', status: 'RS_ERROR_USER_DISABLED', calls: ['bet'] },
  { code: 'PLAYER_NOT_ACTIVE', status: 'RS_ERROR_USER_DISABLED', calls: ['bet'] },
  { code: 'PLAYER_NOT_FOUND', status: 'RS_ERROR_USER_DISABLED', calls: ['bet'] },
  { code: 'INSUFFICIENT_FUNDS', status: 'RS_ERROR_NOT_ENOUGH_MONEY', calls: ['bet'] },
  // Brazil's rules: a free bet is an advantage before a bet (issue #59 item 1), and so is a supplier
  // promotion's win to a player with no paid bet before it (issue #66); Hub88 has no status for it.
  { code: 'BONUS_FORBIDDEN', status: 'RS_ERROR_UNKNOWN', calls: ['bet', 'win'] },
  { code: 'TRANSACTION_CONFLICT', status: 'RS_ERROR_DUPLICATE_TRANSACTION', calls: ['bet', 'win', 'rollback'] },
  // The bet's id was taken by its rollback, which reached us first: the id is used for another action.
  { code: 'BET_ROLLED_BACK', status: 'RS_ERROR_DUPLICATE_TRANSACTION', calls: ['bet'] },
  // A win of a round whose bets were all rolled back: the bet "was rolled back" (Hub88's own words).
  { code: 'ROUND_CLOSED', when: { key: 'status', values: ['voided'] }, status: 'RS_ERROR_TRANSACTION_DOES_NOT_EXIST', calls: ['win'] },
  { code: 'ROUND_NOT_FOUND', status: 'RS_ERROR_TRANSACTION_DOES_NOT_EXIST', calls: ['win', 'rollback'] },
  // Hub88's table has no status for a settled round: the general one, which our team sees in the connector's health.
  { code: 'ROUND_CLOSED', status: 'RS_ERROR_UNKNOWN', calls: ['bet', 'win'] },
  { code: 'BET_ALREADY_SETTLED', status: 'RS_ERROR_UNKNOWN', calls: ['rollback'] },
  // An id or amount the provider wallet's schema refuses (an id with a space, a bet of 0.00, over 1,000,000.00).
  { code: 'VALIDATION_ERROR', status: 'RS_ERROR_WRONG_TYPES', calls: ['bet', 'win', 'rollback', 'balance'] },
];

/** The status of a refusal of `call`; anything the table does not name (an outage, our fault) is RS_ERROR_UNKNOWN. */
export function hub88StatusOf(call: Hub88WalletCall, error: { code: string; details?: unknown }): Hub88Status {
  const details = (error.details ?? {}) as Record<string, unknown>;
  for (const r of HUB88_REFUSALS) {
    if (r.code !== error.code || !r.calls.includes(call)) continue;
    if (r.when && !r.when.values.includes(String(details[r.when.key]))) continue;
    return r.status;
  }
  return 'RS_ERROR_UNKNOWN';
}
