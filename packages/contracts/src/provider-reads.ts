// What operators and our team read of third-party providers' play (issue #44, items 6 and 7):
// - operators: a player's provider rounds and sports bets, newest first (`GET /players/{id}/rounds`);
//   sports bets also come as webhooks (`sports_bet.placed`, `sports_bet.settled`, events.ts);
// - our team: a provider's day per brand, tied to the ledger entries of its clearing accounts
//   (what the provider invoices on);
// - the daily regulator file (regulator-file.ts): the provider transactions of a brand's day,
//   line by line, asked of the wallet by the compliance service.
import { Type, type Static } from '@sinclair/typebox';
import { Currency, Money, Nullable, Page, Timestamp, idOf } from './common.ts';
import { defineMessages } from './messages.ts';
import { defineOperations } from './operations.ts';
import { PlayerIdParams } from './players.ts';
import { BetSlipSchema, SPORTS_OUTCOMES } from './bet-slip.ts';

const SportsOutcomeSchema = Type.Union(SPORTS_OUTCOMES.map((o) => Type.Literal(o)));
export const PROVIDER_ROUND_STATUSES = ['open', 'settled', 'voided'] as const;
const RoundStatusSchema = Type.Union(PROVIDER_ROUND_STATUSES.map((s) => Type.Literal(s)));
const RoundKindSchema = Type.Union([Type.Literal('casino'), Type.Literal('sports')]);

/** A provider's casino round or sports bet as the operator reads it. */
export const PlayerRoundSchema = Type.Object(
  {
    providerId: idOf('prv'),
    providerName: Type.String(),
    gameId: Type.String({ description: 'Our catalogue id of the game (gm_…)' }),
    gameCode: Type.String({ description: "The provider's own game code" }),
    roundId: Type.String({ description: "The provider's round id (a sports bet: its bet id)" }),
    kind: RoundKindSchema,
    status: RoundStatusSchema,
    currency: Currency,
    staked: Money,
    won: Money,
    /** A sportsbook's resettlements after the bet settled (signed, for the player). */
    corrected: Money,
    slip: Nullable(BetSlipSchema),
    outcome: Nullable(SportsOutcomeSchema),
    openedAt: Timestamp,
    closedAt: Nullable(Timestamp),
    /**
     * A sports bet's latest state as its sportsbook last sent it (a bet data update: its odds,
     * selections and status now; docs/connectors-betsy.md), moving no money; `slip` stays the bet
     * as placed. Null when none came.
     */
    update: Nullable(
      Type.Object(
        {
          status: Nullable(Type.String({ description: "The bet's status in the sportsbook's words" })),
          slip: Nullable(BetSlipSchema),
          version: Nullable(Type.Integer({ description: 'Its order among the updates (the sportsbook’s version, or its time in ms)' })),
          updates: Type.Integer({ minimum: 1, description: 'How many different updates of the bet came' }),
          receivedAt: Timestamp,
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false, $id: 'PlayerRound' },
);
export type PlayerRound = Static<typeof PlayerRoundSchema>;

export const PlayerRoundsQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
});

export const playerRoundOperations = defineOperations({
  listPlayerRounds: {
    id: 'listPlayerRounds',
    method: 'GET',
    path: '/players/:playerId/rounds',
    subject: 'wallet.rounds.list',
    tag: 'Games',
    summary: "A player's third-party provider rounds and sports bets, newest first",
    params: PlayerIdParams,
    query: PlayerRoundsQuery,
    response: Page(PlayerRoundSchema),
    status: 200,
    errors: ['PLAYER_NOT_FOUND'],
  },
});

// ---- our team: a provider's day ----

/** One brand's (and currency's) figures of a provider's day. Signed for the player, as the ledger has them. */
export const ProviderDayBrandSchema = Type.Object({
  brandId: Type.String(),
  /** The brand's day (issue #61): its calendar day in its time zone (its operator's compliance profile; Brasília for br-spa). */
  timeZone: Type.String(),
  from: Timestamp,
  to: Timestamp,
  currency: Currency,
  bets: Type.Object({ count: Type.Integer(), amount: Money }),
  wins: Type.Object({ count: Type.Integer(), amount: Money }),
  rollbacks: Type.Object({ count: Type.Integer(), amount: Money }),
  corrections: Type.Object({ count: Type.Integer(), amount: Money }),
  /**
   * Issue #59 item 1: what the provider funded (free bets, moving nothing; promotional credits; jackpot
   * wins). A free bet's round's wins are in `wins`. The month statement (provider-money.ts) splits them.
   */
  freeBets: Type.Optional(Type.Object({ count: Type.Integer(), amount: Money })),
  credits: Type.Optional(Type.Object({ count: Type.Integer(), amount: Money })),
  /** Gross gaming revenue: stakes kept minus what was paid back, `−(bets + wins + rollbacks + corrections + credits)`. */
  ggr: Money,
  /** The day's sum of the clearing account's ledger entries (the provider's side: `ggr` when it ties). */
  ledgerNet: Money,
  ledgerEntries: Type.Integer(),
  ties: Type.Boolean(),
});
export type ProviderDayBrand = Static<typeof ProviderDayBrandSchema>;

export const ProviderDailyReportSchema = Type.Object(
  {
    providerId: idOf('prv'),
    providerName: Type.String(),
    date: Type.String(),
    /**
     * The span of the brands' days: each brand's figures are its own calendar day in its time zone
     * (`brands[].timeZone`, `from`, `to`; issue #61: a UTC day before), so `from` is the earliest
     * brand's midnight and `to` the latest's; with no brand, the default zone's day (São Paulo).
     */
    from: Timestamp,
    to: Timestamp,
    brands: Type.Array(ProviderDayBrandSchema),
    ties: Type.Boolean(),
  },
  { $id: 'ProviderDailyReport' },
);
export type ProviderDailyReport = Static<typeof ProviderDailyReportSchema>;

export const providerReportOperations = defineOperations({
  adminProviderDailyReport: {
    id: 'adminProviderDailyReport',
    subject: 'wallet.admin.providers.dailyReport',
    method: 'GET',
    path: '/admin/providers/:id/daily-report',
    tag: 'Admin',
    summary:
      "A provider's day per brand, each in the brand's own time zone: bets, wins, rollbacks, corrections and GGR, tied to its clearing accounts' ledger entries",
    params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }),
    query: Type.Object({
      date: Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', description: "YYYY-MM-DD, a calendar day in each brand's time zone" }),
      /** One brand's figures only. */
      brandId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    }),
    response: ProviderDailyReportSchema,
    status: 200,
    errors: ['PROVIDER_NOT_FOUND'],
  },
});

/**
 * A brand's clearing account with a provider (issue #61), as finance reads it: its balance now is
 * what the brand owes the provider (positive: players' net losses on its games, held toward its
 * settlement) or is owed by it (negative: its games paid out more than they took); docs/money.md.
 */
export const ProviderClearingSchema = Type.Object(
  {
    brandId: Type.String(),
    environment: Type.Union([Type.Literal('sandbox'), Type.Literal('production')]),
    currency: Currency,
    balance: Money,
    /** `owes` (balance > 0), `owed` (< 0) or `settled` (0.00): what the balance means for the brand. */
    position: Type.Union([Type.Literal('owes'), Type.Literal('owed'), Type.Literal('settled')]),
  },
  { $id: 'ProviderClearing' },
);
export type ProviderClearing = Static<typeof ProviderClearingSchema>;

export const providerClearingOperations = defineOperations({
  adminProviderClearing: {
    id: 'adminProviderClearing',
    subject: 'wallet.admin.providers.clearing',
    method: 'GET',
    path: '/admin/providers/:id/clearing',
    tag: 'Admin',
    summary: "A provider's clearing balance per brand and currency now: what each brand owes the provider, or is owed",
    params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }),
    response: Type.Object({ data: Type.Array(ProviderClearingSchema) }),
    status: 200,
    errors: ['PROVIDER_NOT_FOUND'],
  },
});

// ---- the daily regulator file: a brand's provider transactions of the day ----

/**
 * A provider line's kind: the provider transaction's, but a win of a round the provider funded and
 * free rounds' winnings are `free_bet_win` (issue #59 item 1), so each kind is one ledger type:
 * bet BET, win WIN, rollback ROLLBACK, correction CORRECTION, free_bet none (nothing moves),
 * free_bet_win FREE_BET_WIN, promo_credit PROMO_CREDIT, jackpot_win JACKPOT_WIN.
 */
export const REGULATOR_LINE_KINDS = ['bet', 'win', 'rollback', 'correction', 'free_bet', 'free_bet_win', 'promo_credit', 'jackpot_win'] as const;
export const RegulatorLineKindSchema = Type.Union(REGULATOR_LINE_KINDS.map((k) => Type.Literal(k)));
export type RegulatorLineKind = (typeof REGULATOR_LINE_KINDS)[number];

/**
 * A provider transaction of the day, line by line: a bet, a win (0.00 for a lost round or bet),
 * a rollback or a correction, and what the provider funded (a free bet, its win, a promotional
 * credit, a jackpot win), with the provider, its game code and round, and a sports bet's slip.
 * `moved` is signed for the player, as the ledger entry it posted (0.00: nothing moved).
 */
export const RegulatorProviderTransactionSchema = Type.Object({
  id: Type.String({ description: 'Ours (ptx_…)' }),
  providerId: Type.String(),
  providerName: Type.String(),
  transactionId: Type.String({ description: "The provider's transaction id" }),
  kind: RegulatorLineKindSchema,
  playerId: Type.String(),
  currency: Currency,
  /** The round's game code; empty for a promotional credit or a jackpot win that names no round of ours. */
  gameCode: Type.String(),
  roundId: Type.String(),
  roundKind: RoundKindSchema,
  betTransactionId: Nullable(Type.String()),
  moved: Money,
  /**
   * Issue #59 item 1: a free bet's stake, which the provider funded (its `moved` is 0.00: nothing was
   * taken from the bettor); null for every other kind. Absent from files made before these kinds were listed.
   */
  fundedStake: Type.Optional(Nullable(Money)),
  entryId: Nullable(Type.String()),
  slip: Nullable(BetSlipSchema),
  outcome: Nullable(SportsOutcomeSchema),
  at: Timestamp,
  /**
   * Issue #59 item 5: a casino game's certificate valid at the line's time (the game register:
   * game-register.ts); null when none was. Absent from files made before it was listed.
   */
  certificate: Type.Optional(
    Nullable(
      Type.Object({
        laboratory: Type.String(),
        certificateNumber: Type.String(),
        version: Type.String(),
        certifiedRtp: Type.String(),
        regulatorReference: Nullable(Type.String()),
      }),
    ),
  ),
});
export type RegulatorProviderTransaction = Static<typeof RegulatorProviderTransactionSchema>;

const ProviderMovesPosition = Type.Object({ at: Timestamp, id: Type.String() });
export type ProviderMovesPosition = Static<typeof ProviderMovesPosition>;

export const regulatorProviderMessages = defineMessages({
  /** `wallet.regulator.providerMoves`: a brand's provider transactions over [from, to), by time then id. */
  providerMoves: {
    subject: 'wallet.regulator.providerMoves',
    body: Type.Object({
      brandId: Type.String({ minLength: 1, maxLength: 64 }),
      from: Timestamp,
      to: Timestamp,
      after: Type.Optional(ProviderMovesPosition),
      limit: Type.Integer({ minimum: 1, maximum: 1000 }),
    }),
    reply: Type.Object({ data: Type.Array(RegulatorProviderTransactionSchema), next: Nullable(ProviderMovesPosition) }),
  },
});
