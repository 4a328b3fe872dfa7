import { Type, type Static } from '@sinclair/typebox';
import { Currency, Money, MoneyInput, Page, Timestamp, idOf } from './common.ts';
import { defineMessages } from './messages.ts';
import { defineOperations } from './operations.ts';
import { PlayerIdParams } from './players.ts';

export const WalletSchema = Type.Object(
  {
    playerId: idOf('plr'),
    currency: Currency,
    available: Money,
    withdrawable: Money,
  },
  { additionalProperties: false, $id: 'Wallet' },
);
export type Wallet = Static<typeof WalletSchema>;

/**
 * UNCLAIMED_HOLD: a closed player's balance the return to their own account did not take, moved to
 * the brand's unclaimed-funds account, held for the bettor until it is returned or, 180 days after the
 * communication to the bettor (issue #60), transferred; UNCLAIMED_RETURN (paid to the bettor from there)
 * and FUND_TRANSFER (to FIES and FUNCAP after those 180 days) touch no player account (issue #46 item 4).
 */
export const LEDGER_TYPES = [
  'DEPOSIT',
  'WITHDRAWAL',
  'BET',
  'WIN',
  'ROLLBACK',
  'CORRECTION',
  'UNCLAIMED_HOLD',
  'UNCLAIMED_RETURN',
  'FUND_TRANSFER',
  'FUND_PAYOUT',
  // Issue #59 item 1: credits a game provider funds (docs/money.md, "Provider-funded credits"), each
  // against the brand's clearing account with the provider: the win of a free bet or free round
  // (its stake was the provider's), a promotional credit (a tournament prize, a promo win, a
  // cash-back) and a jackpot win.
  'FREE_BET_WIN',
  'PROMO_CREDIT',
  'JACKPOT_WIN',
  // Issue #60 item 3 (docs/games.md, "Integrity holds"): a sports prize held under an integrity
  // suspicion (the provider's clearing account to the brand's integrity-hold account: no player
  // account), released to the player (INTEGRITY_RELEASE, positive on the player) or forfeited (to
  // the brand's forfeited-prizes account: no player account).
  'INTEGRITY_HOLD',
  'INTEGRITY_RELEASE',
  'INTEGRITY_FORFEIT',
] as const;
export const LedgerItemSchema = Type.Object(
  {
    id: idOf('le'),
    type: Type.String({
      description:
        'DEPOSIT (positive), WITHDRAWAL (negative), BET (negative, a game round stake), WIN (positive, its payout), ROLLBACK (positive, a provider bet cancelled, or an open bet refunded when the account was closed), CORRECTION (either sign, a provider resettlement), UNCLAIMED_HOLD (negative: the balance of a closed account, held for the bettor until returned, or transferred to FIES and FUNCAP 180 days after the communication to the bettor), FREE_BET_WIN (positive: the win of a free bet or free round a game provider funded), PROMO_CREDIT (positive: a promotional credit of a game provider: a tournament prize, a promo win, a cash-back) JACKPOT_WIN (positive: a jackpot prize of a game provider) or INTEGRITY_RELEASE (positive: a sports prize paid after a review); more types may come',
    }),
    amount: Money,
    balanceAfter: Money,
    currency: Currency,
    referenceId: Type.String(),
    createdAt: Timestamp,
  },
  { additionalProperties: false, $id: 'LedgerItem' },
);
export type LedgerItem = Static<typeof LedgerItemSchema>;
/** BET (negative: the stake of a real-money game round) and WIN (positive: its payout) carry the round id (gr_…) as referenceId. */
export type LedgerType = (typeof LEDGER_TYPES)[number];

export const TransactionsQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
});

export const walletOperations = defineOperations({
  getWallet: {
    id: 'getWallet',
    method: 'GET',
    path: '/players/:playerId/wallet',
    subject: 'wallet.get',
    tag: 'Wallet',
    summary: 'Balances of a player',
    params: PlayerIdParams,
    response: WalletSchema,
    status: 200,
    errors: ['PLAYER_NOT_FOUND'],
  },
  listTransactions: {
    id: 'listTransactions',
    method: 'GET',
    path: '/players/:playerId/transactions',
    subject: 'wallet.transactions',
    tag: 'Wallet',
    summary: 'Ledger of a player, newest first',
    params: PlayerIdParams,
    query: TransactionsQuery,
    response: Page(LedgerItemSchema),
    status: 200,
    errors: ['PLAYER_NOT_FOUND'],
  },
});

// ---- internal: payments asks the wallet to move money. Every command is keyed by the
// payment's id, so a repeat returns what the first one did (docs/money.md). ----
export const WALLET_SUBJECTS = {
  credit: 'wallet.credit', // deposit confirm: DEPOSIT entry
  hold: 'wallet.hold', // withdrawal request: reserve
  release: 'wallet.release', // reject or cancel: drop the reservation
  capture: 'wallet.capture', // pay: drop the reservation and debit (WITHDRAWAL entry)
} as const;
const Key = Type.String({ minLength: 1, maxLength: 128 });
export const WalletCreditSchema = Type.Object({ brandId: Key, playerId: Key, currency: Currency, amount: MoneyInput, depositId: Key });
export const WalletHoldSchema = Type.Object({ brandId: Key, playerId: Key, currency: Currency, amount: MoneyInput, withdrawalId: Key });
export const WalletHoldRefSchema = Type.Object({ brandId: Key, withdrawalId: Key });
export const HOLD_STATUSES = ['open', 'released', 'captured', 'declined'] as const;
/** `entryId` for credit and capture (the player's ledger entry); balances as they are now. */
export const WalletMoveResultSchema = Type.Object({
  entryId: Type.Optional(Type.String()),
  holdStatus: Type.Optional(Type.Union(HOLD_STATUSES.map((s) => Type.Literal(s)))),
  available: Money,
  held: Money,
});
export type WalletCredit = Static<typeof WalletCreditSchema>;
export type WalletHold = Static<typeof WalletHoldSchema>;
export type WalletHoldRef = Static<typeof WalletHoldRefSchema>;
export type HoldStatus = (typeof HOLD_STATUSES)[number];
export type WalletMoveResult = Static<typeof WalletMoveResultSchema>;

export const walletMessages = defineMessages({
  credit: { subject: WALLET_SUBJECTS.credit, body: WalletCreditSchema, reply: WalletMoveResultSchema },
  hold: { subject: WALLET_SUBJECTS.hold, body: WalletHoldSchema, reply: WalletMoveResultSchema },
  release: { subject: WALLET_SUBJECTS.release, body: WalletHoldRefSchema, reply: WalletMoveResultSchema },
  capture: { subject: WALLET_SUBJECTS.capture, body: WalletHoldRefSchema, reply: WalletMoveResultSchema },
});

// ---- admin (our team) ----
export const LedgerMismatchSchema = Type.Object({
  accountId: Type.String(),
  check: Type.String({ description: 'available (stored vs sum of entries), balanceAfter (chain), held (stored vs open holds)' }),
  stored: Type.String(),
  computed: Type.String(),
});
export const LedgerVerificationSchema = Type.Object(
  {
    ok: Type.Boolean(),
    accounts: Type.Integer(),
    mismatches: Type.Array(LedgerMismatchSchema),
    unbalancedTransactions: Type.Array(Type.Object({ transactionId: Type.String(), sum: Type.String() })),
    sumOfAllBalances: Type.String(),
  },
  { $id: 'LedgerVerification' },
);
export type LedgerVerification = Static<typeof LedgerVerificationSchema>;

export const walletAdminOperations = defineOperations({
  adminVerifyLedger: {
    id: 'adminVerifyLedger',
    method: 'GET',
    path: '/admin/ledger/verify',
    subject: 'wallet.admin.verifyLedger',
    tag: 'Admin',
    summary: 'Recompute every balance from the ledger and report differences',
    response: LedgerVerificationSchema,
    status: 200,
  },
  adminPlayerLedger: {
    id: 'adminPlayerLedger',
    method: 'GET',
    path: '/admin/players/:id/ledger',
    subject: 'wallet.admin.playerLedger',
    tag: 'Admin',
    summary: "A player's balances and newest ledger entries (the brand comes from the player's file)",
    params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }),
    query: Type.Object({ brandId: Type.String({ minLength: 1, maxLength: 64 }), limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })) }),
    response: Type.Object({ wallet: WalletSchema, entries: Type.Array(LedgerItemSchema) }),
    status: 200,
    errors: ['PLAYER_NOT_FOUND'],
  },
});
