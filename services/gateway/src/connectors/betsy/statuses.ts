// How the provider wallet's refusals read in Betsy's error codes (docs/connectors-betsy.md, "Status
// mapping": the table there is this one, held to it by a test). Betsy has a code for each of the
// player's own limits (stake, loss, self-exclusion, not verified); every other reason the player may
// not bet now (an impediment, a missing limit, a suspended operator, a disabled provider or game)
// is "the user is blocked" (9). Our outage is its system error (100): a place bet answered so is
// rolled back by Betsy, a settle sent again.
import type { BetsyCall, BetsyErrorCode } from '@bo/contracts';

export interface BetsyRefusal {
  /** Our error code (the provider wallet's, docs/providers.md "Error codes"). */
  code: string;
  /** Only when `details[key]` is one of these (RG_BLOCKED's reason). */
  when?: { key: 'reason'; values: readonly string[] };
  betsy: BetsyErrorCode;
  calls: readonly BetsyCall[];
}

const ALL: readonly BetsyCall[] = ['profile', 'balance', 'place', 'unsettle', 'settle', 'rollback'];
const MONEY_AFTER: readonly BetsyCall[] = ['unsettle', 'settle', 'rollback'];

/** The mapping, most specific rows first (the first that matches answers). */
export const BETSY_REFUSALS: readonly BetsyRefusal[] = [
  { code: 'SESSION_TOKEN_INVALID', betsy: 3, calls: ['profile', 'balance', 'place', 'settle'] },
  { code: 'SESSION_TOKEN_EXPIRED', betsy: 4, calls: ['profile', 'place', 'settle'] },
  { code: 'CURRENCY_MISMATCH', betsy: 5, calls: ['place', 'unsettle', 'settle'] },
  { code: 'PROVIDER_DISABLED', betsy: 9, calls: ['place'] },
  { code: 'PROVIDER_NOT_ENABLED', betsy: 9, calls: ['place'] },
  { code: 'OPERATOR_SUSPENDED', betsy: 9, calls: ['place'] },
  // The bet's gameType names no game of ours: a request Betsy should not have sent.
  { code: 'GAME_NOT_FOUND', betsy: 5, calls: ['place'] },
  { code: 'GAME_DISABLED', betsy: 9, calls: ['place'] },
  { code: 'RG_BLOCKED', when: { key: 'reason', values: ['self_excluded', 'paused'] }, betsy: 14, calls: ['place'] },
  { code: 'RG_BLOCKED', when: { key: 'reason', values: ['wager_limit'] }, betsy: 11, calls: ['place'] },
  { code: 'RG_BLOCKED', when: { key: 'reason', values: ['loss_limit'] }, betsy: 12, calls: ['place'] },
  { code: 'RG_BLOCKED', when: { key: 'reason', values: ['registration_incomplete'] }, betsy: 15, calls: ['place'] },
  { code: 'RG_BLOCKED', when: { key: 'reason', values: ['impeded', 'limits_required', 'time_limit'] }, betsy: 9, calls: ['place'] },
  { code: 'KYC_NOT_APPROVED', betsy: 15, calls: ['place'] },
  { code: 'TERMS_NOT_ACCEPTED', betsy: 9, calls: ['place'] },
  { code: 'PLAYER_NOT_ACTIVE', betsy: 9, calls: ['place'] },
  { code: 'PLAYER_NOT_FOUND', betsy: 9, calls: ['place'] },
  { code: 'INSUFFICIENT_FUNDS', betsy: 7, calls: ['place'] },
  // The transactionId was another bet's (another amount, slip or player), or its rollback came first.
  { code: 'TRANSACTION_CONFLICT', betsy: 8, calls: ['place'] },
  { code: 'BET_ROLLED_BACK', betsy: 8, calls: ['place'] },
  { code: 'ROUND_CLOSED', betsy: 8, calls: ['place'] },
  // A settle of a bet that was rolled back: its result cannot change.
  { code: 'ROUND_CLOSED', betsy: 20, calls: ['settle'] },
  { code: 'ROUND_NOT_FOUND', betsy: 5, calls: ['unsettle', 'settle'] },
  // Two different settlements of one bet at the same moment: the one that lost is sent again by
  // Betsy (a failed settle is retried) and then corrects the one that won.
  { code: 'TRANSACTION_CONFLICT', betsy: 100, calls: MONEY_AFTER },
  // An id or amount the provider wallet's schema refuses (an id too long for our keys, a stake of 0.00).
  { code: 'VALIDATION_ERROR', betsy: 5, calls: ALL },
  // The wallet did not answer in time: a place bet is rolled back by Betsy, a settle sent again.
  { code: 'SERVICE_UNAVAILABLE', betsy: 100, calls: ALL },
];

/** Betsy's code for a refusal of `call`; anything the table does not name (a fault of ours) is its system error, 100. */
export function betsyCodeOf(call: BetsyCall, error: { code: string; details?: unknown }): BetsyErrorCode {
  const details = (error.details ?? {}) as Record<string, unknown>;
  for (const r of BETSY_REFUSALS) {
    if (r.code !== error.code || !r.calls.includes(call)) continue;
    if (r.when && !r.when.values.includes(String(details[r.when.key]))) continue;
    return r.betsy;
  }
  return 100;
}
