// Third-party game providers (aggregators, casino studios, sportsbooks) and the provider wallet
// API they call for every bet, win and rollback (issue #44, docs/providers.md). Two surfaces:
// - `/provider/v1`: called by a provider's server, signed with the provider's credential (the
//   same canonical-string HMAC as operators, headers X-Provider-Key / X-Timestamp / X-Signature).
//   Every money call carries the provider's own transaction id, which is its idempotency key:
//   no Idempotency-Key header, no edge claim.
// - the admin API: our team registers providers, their credentials, the operators they serve and
//   their games.
import { Type, type Static } from '@sinclair/typebox';
import { Currency, EnvironmentSchema, List, Money, Nullable, Page, Timestamp, idOf } from './common.ts';
import { defineOperations } from './operations.ts';
import { defineMessages } from './messages.ts';
import { CREDENTIAL_STATUSES, KEY_ROTATION_OVERLAP_MINUTES } from './admin.ts';
import { ProviderProtocolSchema } from './provider-protocols.ts';

export const PROVIDER_KINDS = ['casino', 'sportsbook'] as const;
export type ProviderKind = (typeof PROVIDER_KINDS)[number];
export const ProviderKindSchema = Type.Union(PROVIDER_KINDS.map((k) => Type.Literal(k)));

/** The provider's own ids (transaction, round, bet slip, game code): what it sends, kept as text. */
const ProviderRef = (description: string) => Type.String({ minLength: 1, maxLength: 128, pattern: '^[\\x21-\\x7e]+$', description });

// ---- the provider wallet API (/provider/v1) ------------------------------------------------------

/** The provider API's base path beside /api/v1. */
export const PROVIDER_API_PREFIX = '/provider/v1';

/**
 * The built-in sandbox provider (docs/providers.md, "The built-in sandbox provider"): offered to
 * every operator's sandbox brands and never in production, its game page served by the gateway
 * (`/play/sandbox-provider/<session token>`), which plays as a provider's server would: bet, then
 * win, or rollback, on the provider wallet.
 */
export const SANDBOX_PROVIDER = { id: 'prv_sandbox', gameId: 'gm_p_sandbox_slot', gameCode: 'sandbox-slot' } as const;
/** The path of the built-in sandbox provider's game page, before its session token. */
export const SANDBOX_PROVIDER_PAGE = '/play/sandbox-provider';

/** A provider's key: `pk_test_…` (sandbox) or `pk_live_…` (production). */
export const PROVIDER_KEY_FORMAT = /^pk_(test|live)_[A-Za-z0-9]{16,64}$/;

export const ProviderTokenBody = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 256, description: 'The session token we gave at launch (`pst_…`).' }) },
  { additionalProperties: false },
);

export const ProviderSessionSchema = Type.Object(
  {
    playerId: idOf('plr'),
    brandId: idOf('brd'),
    currency: Currency,
    /** What a bet can take now: the player's available − held. */
    balance: Money,
    gameCode: Type.String({ description: 'The provider game code the session was opened for.' }),
    expiresAt: Timestamp,
  },
  { $id: 'ProviderSession' },
);
export type ProviderSession = Static<typeof ProviderSessionSchema>;

export const ProviderBalanceSchema = Type.Object({ playerId: idOf('plr'), currency: Currency, balance: Money }, { $id: 'ProviderBalance' });

/**
 * Issue #59 item 4: a session ends after its inactivity window without play (each bet, refresh and
 * authenticate moves its end on). Under `br-spa` the window is 30 minutes: Portaria SPA/MF
 * 1.207/2024 ends a game session after 30 minutes of the bettor's inactivity (docs/providers.md,
 * "Sessions end on inactivity"); otherwise the deployment's GAME_SESSION_TTL_SECONDS.
 */
export const BR_SPA_SESSION_IDLE_SECONDS = 1800;

/** A session's state after a refresh: its end now, and what the provider's reality check shows. */
export const ProviderSessionRefreshSchema = Type.Object(
  {
    playerId: idOf('plr'),
    currency: Currency,
    /** When the session started (its launch): a reality check counts the time played from it. */
    startedAt: Timestamp,
    /** The session's end now: `idleSeconds` after its last bet, refresh or authenticate. */
    expiresAt: Timestamp,
    idleSeconds: Type.Integer({ minimum: 1 }),
    /** Minutes between the reality checks your game shows (the operator's setting); null: the player has no responsible-gaming rules. */
    realityCheckMinutes: Nullable(Type.Integer({ minimum: 1 })),
    /** What the player's play with you moved since the session started (signed for the player: a loss is negative). */
    netResult: Money,
  },
  { $id: 'ProviderSessionRefresh' },
);
export type ProviderSessionRefresh = Static<typeof ProviderSessionRefreshSchema>;

// The amounts a provider sends, each range checked by its schema (formats.ts), so the gateway, the
// wallet and the published document refuse alike (422 VALIDATION_ERROR naming the field).
/** A bet: 0.01 up to 1000000.00. */
const StakeAmount = Type.String({ format: 'stake-amount', description: 'Decimal string, 0.01 up to 1000000.00 (at most 2 decimals).', examples: ['10.00'] });
/**
 * A win: 0 allowed (a lost round or bet settles with a win of 0.00), up to 9999999999999.99
 * (MAX_WIN_AMOUNT, issue #66 item 5: a jackpot or a live table's multiplier pays far more than a bet).
 */
const CreditAmount = Type.String({
  format: 'win-amount',
  description: 'Decimal string, 0 up to 9999999999999.99 (at most 2 decimals); 0 settles a lost round or bet.',
  examples: ['25.50'],
});
/** A correction: signed, never zero (nor -0), within a win's range either way (a win resettled). */
const CorrectionAmount = Type.String({
  format: 'signed-win-amount',
  description: 'Signed decimal string, + a credit, − a debit: not zero, from -9999999999999.99 up to 9999999999999.99 (at most 2 decimals).',
  examples: ['-15.00'],
});

// The bet slip and sports outcomes live in bet-slip.ts (events.ts uses them too, without this module's imports).
import { BetSlipSchema, SPORTS_OUTCOMES } from './bet-slip.ts';
export { BET_TYPES, BetLegSchema, BetSlipSchema, SPORTS_OUTCOMES, type BetLeg, type BetSlip, type BetType, type SportsOutcome } from './bet-slip.ts';

export const ProviderBetBody = Type.Object(
  {
    transactionId: ProviderRef("The provider's id of this bet: the same id again is the same bet."),
    token: Type.String({ minLength: 1, maxLength: 256 }),
    roundId: ProviderRef('The round (casino) or the bet slip (sportsbook) this bet belongs to.'),
    gameCode: ProviderRef('The provider game code.'),
    amount: StakeAmount,
    currency: Currency,
    slip: Type.Optional(BetSlipSchema),
    jackpotContribution: Type.Optional(
      Type.String({
        format: 'amount-up-to-max',
        description:
          "Issue #59: the part of this bet's stake that goes to your jackpot pools (0 up to the bet's amount, at most 2 decimals), recorded with the bet and listed in the month's statement. It moves no money of its own.",
        examples: ['0.10'],
      }),
    ),
  },
  { additionalProperties: false, $id: 'ProviderBet' },
);
export type ProviderBet = Static<typeof ProviderBetBody>;

export const ProviderWinBody = Type.Object(
  {
    transactionId: ProviderRef("The provider's id of this win."),
    playerId: idOf('plr'),
    roundId: ProviderRef('The round or bet slip the win settles.'),
    amount: CreditAmount,
    currency: Currency,
    /** True when no more bets or wins of this round will come (a sports bet is settled). */
    roundClosed: Type.Optional(Type.Boolean({ default: true })),
    outcome: Type.Optional(
      Type.Union(
        SPORTS_OUTCOMES.map((o) => Type.Literal(o)),
        { description: 'Sportsbook only: how the bet settled.' },
      ),
    ),
    eventEndedAt: Type.Optional(
      Type.String({
        format: 'date-time',
        description:
          'When the event bet on ended (a sports event: its final whistle). The prize is due 120 minutes after it (Portaria SPA/MF 615/2024, art. 7 §4); we record that deadline and whether this credit met it. Send it on every win that settles a sports bet.',
        examples: ['2026-11-21T21:50:00.000Z'],
      }),
    ),
  },
  { additionalProperties: false, $id: 'ProviderWin' },
);
export type ProviderWin = Static<typeof ProviderWinBody>;

export const ProviderRollbackBody = Type.Object(
  {
    transactionId: ProviderRef("The provider's id of this rollback."),
    playerId: idOf('plr'),
    betTransactionId: ProviderRef('The id of the bet to cancel.'),
    roundId: ProviderRef('The round or bet slip of that bet.'),
  },
  { additionalProperties: false, $id: 'ProviderRollback' },
);
export type ProviderRollback = Static<typeof ProviderRollbackBody>;

export const ProviderCorrectionBody = Type.Object(
  {
    transactionId: ProviderRef("The provider's id of this correction."),
    playerId: idOf('plr'),
    roundId: ProviderRef('The settled bet slip (or round) this corrects.'),
    amount: CorrectionAmount,
    currency: Currency,
    reason: Type.String({ minLength: 1, maxLength: 256 }),
  },
  { additionalProperties: false, $id: 'ProviderCorrection' },
);
export type ProviderCorrection = Static<typeof ProviderCorrectionBody>;

// ---- issue #59 item 1: provider-funded bets and credits with no bet (docs/providers.md, "Free bets, promotions and jackpots") ----

/** A free bet or free round you fund: a bet of `amount` that takes nothing from the player; its round's wins are credited as free-bet wins. */
export const ProviderFreeBetBody = Type.Object(
  {
    transactionId: ProviderRef("The provider's id of this free bet: the same id again is the same free bet."),
    token: Type.String({ minLength: 1, maxLength: 256 }),
    roundId: ProviderRef('The round this free bet plays (a round of free bets only: a paid bet cannot join it).'),
    gameCode: ProviderRef('The provider game code.'),
    amount: Type.String({
      format: 'stake-amount',
      description: "The free bet's value (its stake, yours: 0.01 up to 1000000.00); nothing is taken from the player.",
      examples: ['1.00'],
    }),
    currency: Currency,
    rewardId: Type.Optional(ProviderRef('Your id of the reward or campaign the free bet comes from.')),
  },
  { additionalProperties: false, $id: 'ProviderFreeBet' },
);
export type ProviderFreeBet = Static<typeof ProviderFreeBetBody>;

/**
 * What a promotional credit is (issue #59): `tournament_prize` (a tournament the player entered by
 * betting), `promo_win` (a promotion's prize), `cashback` (a part of the player's losses given back),
 * `free_round_winnings` (what free rounds you granted won: their stakes were yours, so a free bet's win).
 */
export const PROMOTION_TYPES = ['tournament_prize', 'promo_win', 'cashback', 'free_round_winnings'] as const;
export type PromotionType = (typeof PROMOTION_TYPES)[number];

export const ProviderPromoCreditBody = Type.Object(
  {
    transactionId: ProviderRef("The provider's id of this credit."),
    playerId: idOf('plr'),
    amount: Type.String({ format: 'prize-amount', description: 'Decimal string, 0.01 up to 9999999999999.99 (at most 2 decimals).', examples: ['50.00'] }),
    currency: Currency,
    promotionType: Type.Union(
      PROMOTION_TYPES.map((t) => Type.Literal(t)),
      { description: "What the credit is: a tournament prize, a promotion prize, a cash-back, or free rounds' winnings." },
    ),
    promotionId: ProviderRef('Your id of the promotion, tournament or free-round voucher.'),
    gameCode: Type.Optional(ProviderRef('The game it was won on, when there is one.')),
  },
  { additionalProperties: false, $id: 'ProviderPromoCredit' },
);
export type ProviderPromoCredit = Static<typeof ProviderPromoCreditBody>;

export const ProviderJackpotWinBody = Type.Object(
  {
    transactionId: ProviderRef("The provider's id of this jackpot win."),
    playerId: idOf('plr'),
    roundId: Type.Optional(ProviderRef('The round whose bet won the jackpot, when the prize comes with one.')),
    jackpotId: ProviderRef('Your id of the jackpot (the pool) that paid.'),
    amount: Type.String({ format: 'prize-amount', description: 'Decimal string, 0.01 up to 9999999999999.99 (at most 2 decimals).', examples: ['1000.00'] }),
    currency: Currency,
  },
  { additionalProperties: false, $id: 'ProviderJackpotWin' },
);
export type ProviderJackpotWin = Static<typeof ProviderJackpotWinBody>;

export const PROVIDER_TRANSACTION_KINDS = ['bet', 'win', 'rollback', 'correction', 'free_bet', 'promo_credit', 'jackpot_win'] as const;
export type ProviderTransactionKind = (typeof PROVIDER_TRANSACTION_KINDS)[number];
/** Every kind of provider transaction. */
export const ProviderTransactionKindSchema = Type.Union(PROVIDER_TRANSACTION_KINDS.map((k) => Type.Literal(k)));

export const ProviderTransactionResultSchema = Type.Object(
  {
    transactionId: Type.String(),
    kind: ProviderTransactionKindSchema,
    playerId: idOf('plr'),
    roundId: Type.String(),
    currency: Currency,
    /** The amount this call moved on the player (signed); a rollback of a bet never received moved 0.00. */
    moved: Money,
    /** The player's available − held right after this transaction (a replay answers the first call's). */
    balance: Money,
    /**
     * A credit (win, correction) only, when the player owed you money (a correction's debit their
     * balance could not cover): what of this credit repaid that debt. `moved` is the whole credit;
     * `balance` is after the repayment.
     */
    repaid: Type.Optional(Money),
    /** True when this transaction id was already processed: nothing moved now. */
    replayed: Type.Boolean(),
    createdAt: Timestamp,
  },
  { $id: 'ProviderTransactionResult' },
);
export type ProviderTransactionResult = Static<typeof ProviderTransactionResultSchema>;

/**
 * One of your transactions as we keep it (issue #59 item 2: reconciliation, read by id, by round and
 * by time). `requested` is what the call asked (signed for the player: a bet's is negative), `moved`
 * what moved on the player's balance (a free bet's is 0.00), `status` whether it still stands.
 */
export const ProviderTransactionRecordSchema = Type.Object(
  {
    transactionId: Type.String(),
    kind: ProviderTransactionKindSchema,
    playerId: idOf('plr'),
    roundId: Type.String({ description: 'The round or bet slip; a promotional credit: its promotionId; a jackpot win without a round: its jackpotId.' }),
    betTransactionId: Nullable(Type.String()),
    currency: Currency,
    requested: Money,
    moved: Money,
    /** The player's balance right after it. */
    balance: Money,
    /** `rolled_back`: a bet (or free bet) a rollback cancelled; `never_received`: a bet whose rollback reached us first (nothing was taken). */
    status: Type.Union([Type.Literal('ok'), Type.Literal('rolled_back'), Type.Literal('never_received')]),
    /** A free bet, its round's wins, free rounds' winnings: funded by you. */
    providerFunded: Type.Boolean(),
    jackpotContribution: Nullable(Money),
    promotionType: Nullable(Type.Union(PROMOTION_TYPES.map((t) => Type.Literal(t)))),
    /** A free bet's rewardId, a promotional credit's promotionId, a jackpot win's jackpotId. */
    campaignId: Nullable(Type.String()),
    createdAt: Timestamp,
  },
  { $id: 'ProviderTransactionRecord' },
);
export type ProviderTransactionRecord = Static<typeof ProviderTransactionRecordSchema>;

const WALLET_ERRORS = ['SESSION_TOKEN_INVALID', 'TRANSACTION_CONFLICT'] as const;
/** A read's time range: at most this many days (page through longer ones). */
export const PROVIDER_READ_MAX_DAYS = 31;

export const providerOperations = defineOperations({
  providerAuthenticate: {
    id: 'providerAuthenticate',
    method: 'POST',
    path: '/authenticate',
    subject: 'wallet.provider.authenticate',
    tag: 'Provider wallet',
    summary: 'Exchange a session token for the player, currency and balance',
    body: ProviderTokenBody,
    response: ProviderSessionSchema,
    status: 200,
    errors: ['SESSION_TOKEN_INVALID', 'SESSION_TOKEN_EXPIRED'],
  },
  providerRefreshSession: {
    id: 'providerRefreshSession',
    method: 'POST',
    path: '/sessions/refresh',
    subject: 'wallet.provider.refreshSession',
    tag: 'Provider wallet',
    summary:
      "Keep a live session going while the player is at your game without betting (a keep-alive): its end moves on by its inactivity window, the time counts toward the player's time limits, and the answer carries the reality check",
    body: ProviderTokenBody,
    response: ProviderSessionRefreshSchema,
    status: 200,
    errors: ['SESSION_TOKEN_INVALID', 'SESSION_TOKEN_EXPIRED', 'PLAYER_NOT_FOUND', 'KYC_NOT_APPROVED', 'RG_BLOCKED', 'TERMS_NOT_ACCEPTED', 'PLAYER_NOT_ACTIVE'],
  },
  providerBalance: {
    id: 'providerBalance',
    method: 'POST',
    path: '/balance',
    subject: 'wallet.provider.balance',
    tag: 'Provider wallet',
    summary: "The player's balance (an expired session token still reads it)",
    body: ProviderTokenBody,
    response: ProviderBalanceSchema,
    status: 200,
    errors: ['SESSION_TOKEN_INVALID'],
  },
  providerBet: {
    id: 'providerBet',
    method: 'POST',
    path: '/bets',
    subject: 'wallet.provider.bet',
    tag: 'Provider wallet',
    summary: 'Debit a bet (idempotent on transactionId)',
    body: ProviderBetBody,
    response: ProviderTransactionResultSchema,
    status: 200,
    errors: [
      ...WALLET_ERRORS,
      'SESSION_TOKEN_EXPIRED',
      'CURRENCY_MISMATCH',
      'INSUFFICIENT_FUNDS',
      'PLAYER_NOT_ACTIVE',
      'KYC_NOT_APPROVED',
      'RG_BLOCKED',
      'TERMS_NOT_ACCEPTED',
      'OPERATOR_SUSPENDED',
      'PROVIDER_DISABLED',
      'PROVIDER_NOT_ENABLED',
      'GAME_NOT_FOUND',
      'GAME_DISABLED',
      'GAME_NOT_CERTIFIED',
      'PLAYER_NOT_FOUND',
      'BET_ROLLED_BACK',
      'ROUND_CLOSED',
    ],
  },
  providerWin: {
    id: 'providerWin',
    method: 'POST',
    path: '/wins',
    subject: 'wallet.provider.win',
    tag: 'Provider wallet',
    summary: 'Credit a win or settle a bet (0.00 for a loss); accepted whatever became of the session',
    body: ProviderWinBody,
    response: ProviderTransactionResultSchema,
    status: 200,
    errors: ['TRANSACTION_CONFLICT', 'ROUND_NOT_FOUND', 'CURRENCY_MISMATCH', 'ROUND_CLOSED'],
  },
  providerRollback: {
    id: 'providerRollback',
    method: 'POST',
    path: '/rollbacks',
    subject: 'wallet.provider.rollback',
    tag: 'Provider wallet',
    summary: 'Cancel a bet: its money back, once (a bet never received is recorded as cancelled)',
    body: ProviderRollbackBody,
    response: ProviderTransactionResultSchema,
    status: 200,
    errors: ['TRANSACTION_CONFLICT', 'ROUND_NOT_FOUND', 'BET_ALREADY_SETTLED'],
  },
  providerCorrection: {
    id: 'providerCorrection',
    method: 'POST',
    path: '/corrections',
    subject: 'wallet.provider.correction',
    tag: 'Provider wallet',
    summary: 'Correct a settled bet (a resettlement): a credit, or a debit taken up to the balance',
    body: ProviderCorrectionBody,
    response: ProviderTransactionResultSchema,
    status: 200,
    errors: ['TRANSACTION_CONFLICT', 'ROUND_NOT_FOUND', 'CURRENCY_MISMATCH', 'ROUND_NOT_SETTLED'],
  },
  providerFreeBet: {
    id: 'providerFreeBet',
    method: 'POST',
    path: '/free-bets',
    subject: 'wallet.provider.freeBet',
    tag: 'Provider wallet',
    summary:
      "A free bet or free round you fund (idempotent on transactionId): nothing is taken from the player; its round's wins are credited. Refused under Brazil's rules (BONUS_FORBIDDEN)",
    body: ProviderFreeBetBody,
    response: ProviderTransactionResultSchema,
    status: 200,
    errors: [
      ...WALLET_ERRORS,
      'SESSION_TOKEN_EXPIRED',
      'CURRENCY_MISMATCH',
      'PLAYER_NOT_ACTIVE',
      'KYC_NOT_APPROVED',
      'RG_BLOCKED',
      'TERMS_NOT_ACCEPTED',
      'OPERATOR_SUSPENDED',
      'PROVIDER_DISABLED',
      'PROVIDER_NOT_ENABLED',
      'GAME_NOT_FOUND',
      'GAME_DISABLED',
      'GAME_NOT_CERTIFIED',
      'PLAYER_NOT_FOUND',
      'BONUS_FORBIDDEN',
      'BET_ROLLED_BACK',
      'ROUND_CLOSED',
    ],
  },
  providerPromoCredit: {
    id: 'providerPromoCredit',
    method: 'POST',
    path: '/promo-credits',
    subject: 'wallet.provider.promoCredit',
    tag: 'Provider wallet',
    summary:
      "A promotional credit you fund, with no bet (a tournament prize, a promo win, a cash-back, free rounds' winnings), idempotent on transactionId; under Brazil's rules only after a bet of the player",
    body: ProviderPromoCreditBody,
    response: ProviderTransactionResultSchema,
    status: 200,
    errors: ['TRANSACTION_CONFLICT', 'PLAYER_NOT_FOUND', 'CURRENCY_MISMATCH', 'BONUS_FORBIDDEN'],
  },
  providerJackpotWin: {
    id: 'providerJackpotWin',
    method: 'POST',
    path: '/jackpot-wins',
    subject: 'wallet.provider.jackpotWin',
    tag: 'Provider wallet',
    summary: "A jackpot prize you pay (idempotent on transactionId), with the round whose bet won it when there is one; never part of the round's win",
    body: ProviderJackpotWinBody,
    response: ProviderTransactionResultSchema,
    status: 200,
    errors: ['TRANSACTION_CONFLICT', 'PLAYER_NOT_FOUND', 'ROUND_NOT_FOUND', 'CURRENCY_MISMATCH', 'BONUS_FORBIDDEN'],
  },
  providerGetTransaction: {
    id: 'providerGetTransaction',
    method: 'GET',
    path: '/transactions/:transactionId',
    subject: 'wallet.provider.transaction',
    tag: 'Provider wallet',
    summary: 'One of your transactions with us, by your transactionId (reconciliation)',
    params: Type.Object({ transactionId: ProviderRef('Your transaction id.') }),
    response: ProviderTransactionRecordSchema,
    status: 200,
    errors: ['TRANSACTION_NOT_FOUND'],
  },
  providerRoundTransactions: {
    id: 'providerRoundTransactions',
    method: 'GET',
    path: '/rounds/:roundId/transactions',
    subject: 'wallet.provider.roundTransactions',
    tag: 'Provider wallet',
    summary: "A round's (or bet slip's) transactions with us, oldest first (reconciliation)",
    params: Type.Object({ roundId: ProviderRef('Your round id.') }),
    response: List(ProviderTransactionRecordSchema),
    status: 200,
    errors: ['ROUND_NOT_FOUND'],
  },
  providerListTransactions: {
    id: 'providerListTransactions',
    method: 'GET',
    path: '/transactions',
    subject: 'wallet.provider.transactions',
    tag: 'Provider wallet',
    summary: `Your transactions with us over a time range (from inclusive, to exclusive; at most ${PROVIDER_READ_MAX_DAYS} days), oldest first, paged (reconciliation)`,
    query: Type.Object({
      from: Type.String({ format: 'date-time', description: 'ISO 8601, inclusive.' }),
      to: Type.String({ format: 'date-time', description: 'ISO 8601, exclusive.' }),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 200 })),
      cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
    }),
    response: Page(ProviderTransactionRecordSchema),
    status: 200,
  },
});

export const ProviderCredentialRecordSchema = Type.Object({
  providerId: Type.String(),
  providerName: Type.String(),
  providerStatus: Type.Union([Type.Literal('enabled'), Type.Literal('disabled')]),
  environment: EnvironmentSchema,
  allowedIps: Type.Array(Type.String()),
  /** The signing secret, sealed with SECRETS_MASTER_KEY (the gateway opens it). */
  secretSealed: Type.String(),
  expiresAt: Nullable(Timestamp),
});
export type ProviderCredentialRecord = Static<typeof ProviderCredentialRecordSchema>;

/** The gateway's lookup of a provider key by its SHA-256 (a miss of its cache): the wallet owns provider credentials. */
export const providerMessages = defineMessages({
  credential: {
    subject: 'wallet.provider.credential',
    body: Type.Object({ keyHash: Type.String({ pattern: '^[0-9a-f]{64}$' }) }),
    reply: Type.Object({ credential: Nullable(ProviderCredentialRecordSchema) }),
  },
});
/** Broadcast when our team changes a provider: gateways drop its cached credentials. */
export const providerInvalidateSubject = (prefix: string) => `${prefix}.gateway.provider-invalidate`;

// ---- the admin API: providers, their credentials, operators and games --------------------------

export const ProviderSchema = Type.Object(
  {
    id: idOf('prv'),
    name: Type.String(),
    kind: ProviderKindSchema,
    /** How it calls us: `native` (/provider/v1) or a connector's protocol (docs/connectors.md); set at registration. */
    protocol: ProviderProtocolSchema,
    status: Type.Union([Type.Literal('enabled'), Type.Literal('disabled')]),
    launchUrl: Nullable(Type.String()),
    launchTimeoutMs: Type.Integer(),
    allowedIps: Type.Array(Type.String()),
    /** Casino: a round left open longer is listed for our team (GET /admin/providers/{id}/open-rounds). */
    openRoundLimitMinutes: Type.Integer(),
    /** Operators this provider's games are offered to. */
    operatorIds: Type.Array(Type.String()),
    createdAt: Timestamp,
  },
  { $id: 'Provider' },
);
export type Provider = Static<typeof ProviderSchema>;

export const ProviderCredentialSchema = Type.Object(
  {
    id: idOf('cred'),
    environment: EnvironmentSchema,
    keyPrefix: Type.String(),
    status: Type.Union(CREDENTIAL_STATUSES.map((s) => Type.Literal(s))),
    expiresAt: Nullable(Timestamp),
    revokedAt: Nullable(Timestamp),
    createdAt: Timestamp,
  },
  { $id: 'ProviderCredential' },
);
export const IssuedProviderCredentialSchema = Type.Object(
  {
    credential: ProviderCredentialSchema,
    /** Shown once. */
    key: Type.String(),
    /** Shown once. */
    secret: Type.String(),
  },
  { $id: 'IssuedProviderCredential' },
);

export const ProviderGameSchema = Type.Object(
  {
    id: Type.String({ description: 'Our game id (gm_…)' }),
    providerId: idOf('prv'),
    gameCode: Type.String(),
    name: Type.String(),
    category: Type.String(),
    enabled: Type.Boolean(),
  },
  { $id: 'ProviderGame' },
);

export const OpenRoundSchema = Type.Object({
  providerId: idOf('prv'),
  roundId: Type.String(),
  playerId: idOf('plr'),
  /** The player's name and the operator's id of them (issue #61: read by name); null when the players service did not answer for them. */
  playerName: Nullable(Type.String()),
  externalId: Nullable(Type.String()),
  brandId: idOf('brd'),
  gameCode: Type.String(),
  staked: Money,
  openedAt: Timestamp,
});

/** A player's debt to a provider: corrections' debits their balance could not cover, less what later credits repaid. */
export const ProviderDebtSchema = Type.Object(
  {
    providerId: idOf('prv'),
    brandId: idOf('brd'),
    playerId: idOf('plr'),
    /** The player's name and the operator's id of them (issue #61); null when the players service did not answer for them. */
    playerName: Nullable(Type.String()),
    externalId: Nullable(Type.String()),
    currency: Currency,
    owed: Money,
    incurred: Money,
    repaid: Money,
    updatedAt: Timestamp,
  },
  { $id: 'ProviderDebt' },
);

const ProviderIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const HttpsUrl = Type.String({ format: 'uri', pattern: '^https?://', maxLength: 2048 });
const AllowedIps = Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 100 });

export const providerAdminOperations = defineOperations({
  adminCreateProvider: {
    id: 'adminCreateProvider',
    subject: 'wallet.admin.providers.create',
    method: 'POST',
    path: '/admin/providers',
    tag: 'Admin',
    summary: 'Register a game provider (casino aggregator or sportsbook)',
    body: Type.Object(
      {
        name: Type.String({ minLength: 2, maxLength: 200 }),
        kind: ProviderKindSchema,
        /** `native` unless given: a connector's protocol is the provider's for good (docs/connectors.md). */
        protocol: Type.Optional(ProviderProtocolSchema),
        launchUrl: Type.Optional(Nullable(HttpsUrl)),
        launchTimeoutMs: Type.Optional(Type.Integer({ minimum: 100, maximum: 30_000 })),
        allowedIps: Type.Optional(AllowedIps),
        openRoundLimitMinutes: Type.Optional(Type.Integer({ minimum: 1, maximum: 525_600 })),
      },
      { additionalProperties: false },
    ),
    response: ProviderSchema,
    status: 201,
  },
  adminListProviders: {
    id: 'adminListProviders',
    subject: 'wallet.admin.providers.list',
    method: 'GET',
    path: '/admin/providers',
    tag: 'Admin',
    summary: 'List providers',
    response: List(ProviderSchema),
    status: 200,
  },
  adminGetProvider: {
    id: 'adminGetProvider',
    subject: 'wallet.admin.providers.get',
    method: 'GET',
    path: '/admin/providers/:id',
    tag: 'Admin',
    summary: 'Read a provider',
    params: ProviderIdParams,
    response: ProviderSchema,
    status: 200,
    errors: ['PROVIDER_NOT_FOUND'],
  },
  adminUpdateProvider: {
    id: 'adminUpdateProvider',
    subject: 'wallet.admin.providers.update',
    method: 'PUT',
    path: '/admin/providers/:id',
    tag: 'Admin',
    summary: 'Change a provider: enable or disable it, its launch URL and timeout, allowed addresses, open-round limit',
    params: ProviderIdParams,
    body: Type.Object(
      {
        status: Type.Optional(Type.Union([Type.Literal('enabled'), Type.Literal('disabled')])),
        launchUrl: Type.Optional(Nullable(HttpsUrl)),
        launchTimeoutMs: Type.Optional(Type.Integer({ minimum: 100, maximum: 30_000 })),
        allowedIps: Type.Optional(AllowedIps),
        openRoundLimitMinutes: Type.Optional(Type.Integer({ minimum: 1, maximum: 525_600 })),
      },
      { additionalProperties: false },
    ),
    response: ProviderSchema,
    status: 200,
    errors: ['PROVIDER_NOT_FOUND'],
  },
  adminSetProviderOperator: {
    id: 'adminSetProviderOperator',
    subject: 'wallet.admin.providers.setOperator',
    method: 'PUT',
    path: '/admin/providers/:id/operators/:operatorId',
    tag: 'Admin',
    summary: "Offer (enabled: true) or withdraw (false) a provider's games to an operator",
    params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }), operatorId: Type.String({ minLength: 1, maxLength: 64 }) }),
    body: Type.Object({ enabled: Type.Boolean() }, { additionalProperties: false }),
    response: ProviderSchema,
    status: 200,
    errors: ['PROVIDER_NOT_FOUND'],
  },
  adminListProviderCredentials: {
    id: 'adminListProviderCredentials',
    subject: 'wallet.admin.providers.credentials',
    method: 'GET',
    path: '/admin/providers/:id/credentials',
    tag: 'Admin',
    summary: "A provider's keys (prefixes and states, never secrets)",
    params: ProviderIdParams,
    response: List(ProviderCredentialSchema),
    status: 200,
    errors: ['PROVIDER_NOT_FOUND'],
  },
  adminIssueProviderCredential: {
    id: 'adminIssueProviderCredential',
    subject: 'wallet.admin.providers.issueCredential',
    method: 'POST',
    path: '/admin/providers/:id/credentials',
    tag: 'Admin',
    summary:
      "Issue a provider key and secret for an environment (shown once); with overlapMinutes, the environment's keys in force end after that overlap (a rotation)",
    params: ProviderIdParams,
    body: Type.Object(
      {
        environment: EnvironmentSchema,
        overlapMinutes: Type.Optional(Type.Integer({ minimum: 0, maximum: KEY_ROTATION_OVERLAP_MINUTES.max })),
      },
      { additionalProperties: false },
    ),
    response: IssuedProviderCredentialSchema,
    status: 201,
    errors: ['PROVIDER_NOT_FOUND'],
  },
  adminRevokeProviderCredential: {
    id: 'adminRevokeProviderCredential',
    subject: 'wallet.admin.providers.revokeCredential',
    method: 'POST',
    path: '/admin/providers/:id/credentials/:credentialId/revoke',
    tag: 'Admin',
    summary: 'Revoke a provider key at once',
    params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }), credentialId: Type.String({ minLength: 1, maxLength: 64 }) }),
    response: ProviderCredentialSchema,
    status: 200,
    errors: ['PROVIDER_NOT_FOUND', 'CREDENTIAL_NOT_FOUND'],
  },
  adminListProviderGames: {
    id: 'adminListProviderGames',
    subject: 'wallet.admin.providers.games',
    method: 'GET',
    path: '/admin/providers/:id/games',
    tag: 'Admin',
    summary: "A provider's games in the catalogue",
    params: ProviderIdParams,
    response: List(ProviderGameSchema),
    status: 200,
    errors: ['PROVIDER_NOT_FOUND'],
  },
  adminPutProviderGame: {
    id: 'adminPutProviderGame',
    subject: 'wallet.admin.providers.putGame',
    method: 'PUT',
    path: '/admin/providers/:id/games/:gameCode',
    tag: 'Admin',
    summary: "Add or change one of a provider's games (its code, name, category; enabled)",
    params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }), gameCode: ProviderRef('The provider game code.') }),
    body: Type.Object(
      {
        name: Type.String({ minLength: 1, maxLength: 200 }),
        category: Type.String({ minLength: 1, maxLength: 64 }),
        enabled: Type.Optional(Type.Boolean({ default: true })),
      },
      { additionalProperties: false },
    ),
    response: ProviderGameSchema,
    status: 200,
    errors: ['PROVIDER_NOT_FOUND'],
  },
  adminListOpenRounds: {
    id: 'adminListOpenRounds',
    subject: 'wallet.admin.providers.openRounds',
    method: 'GET',
    path: '/admin/providers/:id/open-rounds',
    tag: 'Admin',
    summary: "A casino provider's rounds left open past its limit (oldest first)",
    params: ProviderIdParams,
    response: List(OpenRoundSchema),
    status: 200,
    errors: ['PROVIDER_NOT_FOUND'],
  },
  adminListProviderDebts: {
    id: 'adminListProviderDebts',
    subject: 'wallet.admin.providers.debts',
    method: 'GET',
    path: '/admin/providers/:id/debts',
    tag: 'Admin',
    summary: "Players who owe the provider money (a correction's debit their balance did not cover), the longest-standing first",
    params: ProviderIdParams,
    response: List(ProviderDebtSchema),
    status: 200,
    errors: ['PROVIDER_NOT_FOUND'],
  },
});
