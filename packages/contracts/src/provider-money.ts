// Issue #59 items 2 and 3 (docs/money.md, "Reconciliation with a provider" and "What the brand owes
// a provider"), our team's side (admin API):
// - a provider's revenue share, with its history (each change effective from a month);
// - a provider's month per brand and currency: every kind of its money, the GGR and the amount due
//   at its revenue share, tied to the brand's clearing account with the provider (JSON and CSV);
// - a provider's daily statement (CSV or JSON, read by the provider's mapping), matched to our
//   transactions: matched, ours only, theirs only, amount or status differs, listed by day.
import { Type, type Static } from '@sinclair/typebox';
import { Currency, EnvironmentSchema, List, Money, Nullable, Timestamp } from './common.ts';
import { defineOperations } from './operations.ts';
import { FileChunkSchema } from './regulator-file.ts';

const ProviderId = Type.String({ minLength: 1, maxLength: 64 });
const Month = Type.String({ pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$', description: 'YYYY-MM', examples: ['2026-11'] });
const CalendarDay = Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', description: 'YYYY-MM-DD', examples: ['2026-11-25'] });
const Percent = Type.String({ pattern: '^(100(\\.0{1,2})?|[0-9]{1,2}(\\.[0-9]{1,2})?)$', description: '0 to 100, at most 2 decimals', examples: ['12.50'] });

// ---- item 3: the revenue share and the month ----

export const ProviderRevenueShareSchema = Type.Object(
  {
    id: Type.String(),
    providerId: Type.String(),
    /** The first month it applies to (it applies until a later change's month). */
    effectiveFrom: Month,
    sharePercent: Percent,
    reason: Type.String(),
    setBy: Type.String(),
    createdAt: Timestamp,
  },
  { $id: 'ProviderRevenueShare' },
);
export type ProviderRevenueShare = Static<typeof ProviderRevenueShareSchema>;

export const SetProviderRevenueShareBody = Type.Object(
  { effectiveFrom: Month, sharePercent: Percent, reason: Type.String({ minLength: 1, maxLength: 500, pattern: '\\S' }) },
  { additionalProperties: false },
);

const Figure = Type.Object({ count: Type.Integer(), amount: Money });

/**
 * One brand's and currency's month with a provider. Amounts signed for the player, as the ledger
 * has them (a bet −, a win +), but for `freeBets`, `jackpotContributions`, `ggr`, `netGgr`,
 * `revenueShare` and `amountDue`, which are the provider's figures (positive: the brand owes).
 */
export const ProviderMonthBrandSchema = Type.Object({
  brandId: Type.String(),
  currency: Currency,
  /** The month's bounds in the brand's time zone. */
  timeZone: Type.String(),
  from: Timestamp,
  to: Timestamp,
  /** The player's paid play: bets, wins of paid rounds, rollbacks and corrections. */
  bets: Figure,
  wins: Figure,
  rollbacks: Figure,
  corrections: Figure,
  /** Provider-funded stakes (free bets and free rounds, not rolled back): what the provider staked for the player; nothing moved. */
  freeBets: Figure,
  /** Provider-funded credits: wins of free bets and free rounds, and free rounds' winnings (FREE_BET_WIN). */
  freeBetWins: Figure,
  /** Promotional credits: tournament prizes, promo wins, cash-backs (PROMO_CREDIT). */
  promoCredits: Figure,
  /** The part of the month's bets (not rolled back) that went to the provider's jackpot pools. */
  jackpotContributions: Figure,
  jackpotWins: Figure,
  /** What players' paid play left: `−(bets + wins + rollbacks + corrections)`. */
  ggr: Money,
  /** `ggr − jackpotContributions`: the GGR the revenue share applies to. */
  netGgr: Money,
  /** The share in force for the month (null: none set, nothing due on the share). */
  sharePercent: Nullable(Percent),
  /** `sharePercent` of `netGgr` when positive (0.00 otherwise), rounded half-up to the cent. */
  revenueShare: Money,
  /** What the provider funded and the brand paid out for it: `freeBetWins + promoCredits + jackpotWins`. */
  providerFundedCredits: Money,
  /** What the brand owes the provider for the month: `revenueShare + jackpotContributions − providerFundedCredits` (negative: the provider owes the brand). */
  amountDue: Money,
  /** The month's sum of the brand's clearing account entries with the provider (the ledger). */
  ledgerNet: Money,
  ledgerEntries: Type.Integer(),
  /** `ledgerNet = ggr − providerFundedCredits`: every transaction of the month is in the ledger, to the cent. */
  ties: Type.Boolean(),
});
export type ProviderMonthBrand = Static<typeof ProviderMonthBrandSchema>;

export const ProviderMonthStatementSchema = Type.Object(
  {
    providerId: Type.String(),
    providerName: Type.String(),
    month: Month,
    brands: Type.Array(ProviderMonthBrandSchema),
    ties: Type.Boolean(),
  },
  { $id: 'ProviderMonthStatement' },
);
export type ProviderMonthStatement = Static<typeof ProviderMonthStatementSchema>;

/** The CSV's columns, in order (one line per brand and currency). */
export const PROVIDER_MONTH_CSV_COLUMNS = [
  'provider_id',
  'month',
  'brand_id',
  'currency',
  'time_zone',
  'bets_count',
  'bets_amount',
  'wins_count',
  'wins_amount',
  'rollbacks_count',
  'rollbacks_amount',
  'corrections_count',
  'corrections_amount',
  'free_bets_count',
  'free_bets_amount',
  'free_bet_wins_count',
  'free_bet_wins_amount',
  'promo_credits_count',
  'promo_credits_amount',
  'jackpot_contributions_count',
  'jackpot_contributions_amount',
  'jackpot_wins_count',
  'jackpot_wins_amount',
  'ggr',
  'net_ggr',
  'share_percent',
  'revenue_share',
  'provider_funded_credits',
  'amount_due',
  'ledger_net',
  'ties',
] as const;

const MonthParams = Type.Object({ id: ProviderId, month: Month });
const MonthQuery = Type.Object({ brandId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })) });

// ---- item 2: daily statements and reconciliation ----

export const STATEMENT_KINDS = ['bet', 'win', 'rollback', 'correction', 'free_bet', 'promo_credit', 'jackpot_win'] as const;

/** How a provider's daily statement reads: their names for our fields, kinds and statuses. */
export const ProviderStatementMappingSchema = Type.Object(
  {
    format: Type.Union([Type.Literal('csv'), Type.Literal('json')]),
    /** CSV: the delimiter; JSON: the member holding the lines (absent: the document is the array). */
    delimiter: Type.Optional(Type.Union([Type.Literal(','), Type.Literal(';'), Type.Literal('\t')])),
    linesMember: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    /** Their column (CSV header) or member name for each of ours. */
    fields: Type.Object(
      {
        transactionId: Type.String({ minLength: 1, maxLength: 64 }),
        kind: Type.String({ minLength: 1, maxLength: 64 }),
        amount: Type.String({ minLength: 1, maxLength: 64 }),
        currency: Type.String({ minLength: 1, maxLength: 64 }),
        status: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
        playerId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
        roundId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
        at: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
      },
      { additionalProperties: false },
    ),
    /** Their kind values to ours (a value not listed is a line we cannot read: 422). */
    kinds: Type.Record(Type.String({ minLength: 1, maxLength: 64 }), Type.Union(STATEMENT_KINDS.map((k) => Type.Literal(k)))),
    /** Their status values to ours; a line without a status is `ok`. */
    statuses: Type.Optional(Type.Record(Type.String({ minLength: 1, maxLength: 64 }), Type.Union([Type.Literal('ok'), Type.Literal('rolled_back')]))),
    /** `units` (10.50) or `cents` (1050). */
    amountUnit: Type.Union([Type.Literal('units'), Type.Literal('cents')]),
    /** `player`: signed as for the player (a bet negative); `absolute`: unsigned, signed by kind (a bet negative, a correction as given). */
    sign: Type.Union([Type.Literal('player'), Type.Literal('absolute')]),
    /** The zone of the provider's day (IANA). */
    timeZone: Type.String({ minLength: 1, maxLength: 64 }),
  },
  { additionalProperties: false, $id: 'ProviderStatementMapping' },
);
export type ProviderStatementMapping = Static<typeof ProviderStatementMappingSchema>;

export const UploadProviderStatementBody = Type.Object(
  {
    date: CalendarDay,
    environment: Type.Optional(EnvironmentSchema),
    /** A day's statement may come in parts; a part uploaded again replaces its lines. */
    part: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 1 })),
    /** The file's text (CSV or JSON as the mapping says), at most 20 MB. */
    content: Type.String({ minLength: 1, maxLength: 20_000_000 }),
  },
  { additionalProperties: false },
);

/** A day's transactions asked of the provider's own API (Hub88's Transactions API) instead of uploaded. */
export const FetchProviderStatementBody = Type.Object({ date: CalendarDay, environment: Type.Optional(EnvironmentSchema) }, { additionalProperties: false });

export const RECONCILIATION_CATEGORIES = ['ours_only', 'theirs_only', 'amount_differs', 'status_differs'] as const;

export const ReconciliationDaySchema = Type.Object(
  {
    providerId: Type.String(),
    environment: EnvironmentSchema,
    date: CalendarDay,
    timeZone: Type.String(),
    matched: Type.Integer(),
    oursOnly: Type.Integer(),
    theirsOnly: Type.Integer(),
    amountDiffers: Type.Integer(),
    statusDiffers: Type.Integer(),
    /** Every transaction matched: nothing ours only, theirs only, or differing. */
    ties: Type.Boolean(),
    reconciledAt: Timestamp,
  },
  { $id: 'ReconciliationDay' },
);
export type ReconciliationDay = Static<typeof ReconciliationDaySchema>;

const Side = Nullable(
  Type.Object({
    kind: Type.String(),
    amount: Money,
    /** Their amount exactly, when it is not a whole number of cents (Hub88's Int64 × 100000, e.g. "10.00500"): `amount` then holds its whole cents, and the line differs in `amount`. */
    exactAmount: Type.Optional(Type.String({ pattern: '^-?[0-9]+\\.[0-9]+$' })),
    currency: Currency,
    status: Type.String(),
    playerId: Nullable(Type.String()),
    roundId: Nullable(Type.String()),
  }),
);
export const ReconciliationDifferenceSchema = Type.Object(
  {
    transactionId: Type.String(),
    category: Type.Union(RECONCILIATION_CATEGORIES.map((c) => Type.Literal(c))),
    /** What differs (amount_differs: `amount`, `kind`, `currency`; status_differs: `status`). */
    fields: Type.Array(Type.String()),
    ours: Side,
    theirs: Side,
  },
  { $id: 'ReconciliationDifference' },
);
export type ReconciliationDifference = Static<typeof ReconciliationDifferenceSchema>;

export const ReconciliationDayDetailSchema = Type.Object(
  { day: ReconciliationDaySchema, differences: Type.Array(ReconciliationDifferenceSchema) },
  { $id: 'ReconciliationDayDetail' },
);
export type ReconciliationDayDetail = Static<typeof ReconciliationDayDetailSchema>;

const EnvQuery = Type.Object({ environment: Type.Optional(EnvironmentSchema) });

export const providerMoneyAdminOperations = defineOperations({
  adminSetProviderRevenueShare: {
    id: 'adminSetProviderRevenueShare',
    subject: 'wallet.admin.providers.setRevenueShare',
    method: 'POST',
    path: '/admin/providers/:id/revenue-shares',
    tag: 'Admin',
    summary: "Set a provider's revenue share from a month on (kept with its history: each change is a row; audited)",
    params: Type.Object({ id: ProviderId }),
    body: SetProviderRevenueShareBody,
    response: ProviderRevenueShareSchema,
    status: 201,
    errors: ['PROVIDER_NOT_FOUND'],
  },
  adminListProviderRevenueShares: {
    id: 'adminListProviderRevenueShares',
    subject: 'wallet.admin.providers.revenueShares',
    method: 'GET',
    path: '/admin/providers/:id/revenue-shares',
    tag: 'Admin',
    summary: "A provider's revenue shares, the latest month first (its history)",
    params: Type.Object({ id: ProviderId }),
    response: List(ProviderRevenueShareSchema),
    status: 200,
    errors: ['PROVIDER_NOT_FOUND'],
  },
  adminProviderMonthStatement: {
    id: 'adminProviderMonthStatement',
    subject: 'wallet.admin.providers.monthStatement',
    method: 'GET',
    path: '/admin/providers/:id/statements/:month',
    tag: 'Admin',
    summary:
      'What each brand owes the provider for a month, per brand and currency: bets, wins, rollbacks, corrections, provider-funded stakes and credits, jackpot contributions and wins, GGR, the revenue share and the amount due, tied to the clearing account',
    params: MonthParams,
    query: MonthQuery,
    response: ProviderMonthStatementSchema,
    status: 200,
    errors: ['PROVIDER_NOT_FOUND'],
  },
  adminProviderMonthStatementCsv: {
    id: 'adminProviderMonthStatementCsv',
    subject: 'wallet.admin.providers.monthStatementCsv',
    method: 'GET',
    path: '/admin/providers/:id/statements/:month/csv',
    tag: 'Admin',
    summary: 'The month statement as CSV (one line per brand and currency; PROVIDER_MONTH_CSV_COLUMNS)',
    params: MonthParams,
    query: Type.Object({ brandId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })), cursor: Type.Optional(Type.String({ maxLength: 512 })) }),
    response: FileChunkSchema,
    status: 200,
    download: true,
    errors: ['PROVIDER_NOT_FOUND'],
  },
  adminPutProviderStatementMapping: {
    id: 'adminPutProviderStatementMapping',
    subject: 'wallet.admin.providers.putStatementMapping',
    method: 'PUT',
    path: '/admin/providers/:id/statement-mapping',
    tag: 'Admin',
    summary: "How the provider's daily statement reads (its format, names, kinds, statuses, amounts and day's zone; audited)",
    params: Type.Object({ id: ProviderId }),
    body: ProviderStatementMappingSchema,
    response: ProviderStatementMappingSchema,
    status: 200,
    errors: ['PROVIDER_NOT_FOUND'],
  },
  adminUploadProviderStatement: {
    id: 'adminUploadProviderStatement',
    subject: 'wallet.admin.providers.uploadStatement',
    method: 'POST',
    path: '/admin/providers/:id/statements',
    tag: 'Admin',
    summary: "Ingest a provider's daily statement (or a part of it) and reconcile the day with our transactions",
    params: Type.Object({ id: ProviderId }),
    body: UploadProviderStatementBody,
    response: ReconciliationDayDetailSchema,
    status: 200,
    timeoutMs: 60_000,
    errors: ['PROVIDER_NOT_FOUND'],
  },
  adminFetchProviderStatement: {
    id: 'adminFetchProviderStatement',
    subject: 'wallet.admin.providers.fetchStatement',
    method: 'POST',
    path: '/admin/providers/:id/statements/fetch',
    tag: 'Admin',
    summary:
      "Ask a connector's provider for its transactions of a day (Hub88: its Transactions API, signed with our key; the day in the statement mapping's zone, UTC without one) and reconcile the day with our transactions",
    params: Type.Object({ id: ProviderId }),
    body: FetchProviderStatementBody,
    response: ReconciliationDayDetailSchema,
    status: 200,
    timeoutMs: 60_000,
    errors: ['PROVIDER_NOT_FOUND', 'PROVIDER_UNAVAILABLE'],
  },
  adminListProviderReconciliations: {
    id: 'adminListProviderReconciliations',
    subject: 'wallet.admin.providers.reconciliations',
    method: 'GET',
    path: '/admin/providers/:id/reconciliations',
    tag: 'Admin',
    summary: "A provider's reconciled days between two dates (at most 92 days), the latest first",
    params: Type.Object({ id: ProviderId }),
    query: Type.Object({ from: CalendarDay, to: CalendarDay, environment: Type.Optional(EnvironmentSchema) }),
    response: List(ReconciliationDaySchema),
    status: 200,
    errors: ['PROVIDER_NOT_FOUND'],
  },
  adminProviderReconciliationDay: {
    id: 'adminProviderReconciliationDay',
    subject: 'wallet.admin.providers.reconciliationDay',
    method: 'GET',
    path: '/admin/providers/:id/reconciliations/:date',
    tag: 'Admin',
    summary: "A reconciled day's differences with the transaction ids (ours only, theirs only, amount or status differs)",
    params: Type.Object({ id: ProviderId, date: CalendarDay }),
    query: EnvQuery,
    response: ReconciliationDayDetailSchema,
    status: 200,
    errors: ['PROVIDER_NOT_FOUND', 'RECONCILIATION_NOT_FOUND'],
  },
});
