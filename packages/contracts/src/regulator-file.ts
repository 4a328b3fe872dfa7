// The daily regulator file of a brand (issue #28; SPA/MF Ordinance 722/2024 art. 10, docs/aml.md):
// what each of its parts holds line by line, the internal messages the compliance service
// assembles it with (each part asked of the service that owns it: bettors and status changes of
// players, the day's money and rounds of the wallet's ledger, the deposits' and withdrawals'
// records of payments), and our team's admin operations to list, check and download kept files.
import { Type, type Static } from '@sinclair/typebox';
import { Currency, EnvironmentSchema, Money, Nullable, Page, Timestamp, pageQuery } from './common.ts';
import { defineMessages } from './messages.ts';
import { defineOperations } from './operations.ts';
import { PlayerStatusSchema, KycStatusSchema } from './players.ts';

/** The parts of a file, in the order a whole file lists them. */
export const DAILY_FILE_PARTS = ['bettors', 'accounts', 'deposits', 'withdrawals', 'rounds', 'provider_transactions', 'status_changes'] as const;
export type DailyFilePart = (typeof DAILY_FILE_PARTS)[number];
const DailyFilePartSchema = Type.Union(DAILY_FILE_PARTS.map((p) => Type.Literal(p)));

const BrandId = Type.String({ minLength: 1, maxLength: 64 });
const CalendarDate = Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', description: 'YYYY-MM-DD, a calendar day in the file time zone' });
/** How many lines a page of the internal messages may ask for (their answers stay far below the NATS payload limit). */
const PageLimit = Type.Integer({ minimum: 1, maximum: 1000 });
/** At most this many ids in one question by ids. */
export const REGULATOR_IDS_PER_ASK = 500;
const Ids = Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: REGULATOR_IDS_PER_ASK });

// ---- the lines ----

/**
 * A bettor of the brand as the day ended: who (CPF, name, birth date, the operator's externalId),
 * the account's status and KYC status at the day's end, and when they registered. A file lists
 * the bettors who registered that day, changed status that day, or moved money or played that
 * day; an idle bettor was described by the file of the last day one of those happened.
 */
export const RegulatorBettorSchema = Type.Object({
  playerId: Type.String(),
  externalId: Type.String(),
  cpf: Type.String(),
  name: Type.String(),
  birthDate: Nullable(Type.String()),
  environment: EnvironmentSchema,
  status: PlayerStatusSchema,
  kycStatus: KycStatusSchema,
  registeredAt: Timestamp,
  registeredOnDay: Type.Boolean(),
  statusChangedOnDay: Type.Boolean(),
  /**
   * The reasons of the impediment hit that restricted the bettor, when one did before the day ended
   * (`central_self_exclusion`, `social_program`, or our internal registry's); null otherwise. Absent
   * from lines kept before it was listed. The SIGAP files' status code reads it (issue #46).
   */
  impedimentReasons: Type.Optional(Nullable(Type.Array(Type.String()))),
});
export type RegulatorBettor = Static<typeof RegulatorBettorSchema>;

/** A change of a bettor's account status (who moved it is our team's or the rules', not the regulator's). */
export const RegulatorStatusChangeSchema = Type.Object({
  changeId: Type.String(),
  playerId: Type.String(),
  previousStatus: PlayerStatusSchema,
  status: PlayerStatusSchema,
  at: Timestamp,
});
export type RegulatorStatusChange = Static<typeof RegulatorStatusChangeSchema>;

/** A deposit's record as payments keeps it. */
export const PaymentsDepositRecordSchema = Type.Object({
  depositId: Type.String(),
  playerId: Type.String(),
  amount: Money,
  currency: Currency,
  method: Type.String(),
  externalReference: Type.String(),
  /** br-spa: the payer's CPF the confirmation reported. */
  payerCpf: Nullable(Type.String()),
  status: Type.String(),
  createdAt: Timestamp,
  confirmedAt: Nullable(Timestamp),
});
export type PaymentsDepositRecord = Static<typeof PaymentsDepositRecordSchema>;

/** A withdrawal's record as payments keeps it. */
export const PaymentsWithdrawalRecordSchema = Type.Object({
  withdrawalId: Type.String(),
  playerId: Type.String(),
  amount: Money,
  currency: Currency,
  method: Type.String(),
  destination: Type.String(),
  status: Type.String(),
  requestedAt: Timestamp,
});
export type PaymentsWithdrawalRecord = Static<typeof PaymentsWithdrawalRecordSchema>;

/**
 * A deposit of the day: credited to the bettor's account that day (`bookedAt`, the ledger's time),
 * with payments' record of it (null fields when payments has none: the check says so).
 */
export const RegulatorDepositSchema = Type.Object({
  depositId: Type.String(),
  playerId: Type.String(),
  amount: Money,
  currency: Currency,
  method: Nullable(Type.String()),
  externalReference: Nullable(Type.String()),
  payerCpf: Nullable(Type.String()),
  status: Nullable(Type.String()),
  createdAt: Nullable(Timestamp),
  confirmedAt: Nullable(Timestamp),
  bookedAt: Timestamp,
});
export type RegulatorDeposit = Static<typeof RegulatorDepositSchema>;

/** A withdrawal of the day: paid out of the bettor's account that day (`paidAt`, the ledger's time), with payments' record of it. */
export const RegulatorWithdrawalSchema = Type.Object({
  withdrawalId: Type.String(),
  playerId: Type.String(),
  amount: Money,
  currency: Currency,
  method: Nullable(Type.String()),
  destination: Nullable(Type.String()),
  status: Nullable(Type.String()),
  requestedAt: Nullable(Timestamp),
  paidAt: Timestamp,
});
export type RegulatorWithdrawal = Static<typeof RegulatorWithdrawalSchema>;

/** A real-money game round of the day: its stake and payout (the BET and WIN entries), at the ledger's time of its stake. */
export const RegulatorRoundSchema = Type.Object({
  roundId: Type.String(),
  sessionId: Type.String(),
  playerId: Type.String(),
  gameId: Type.String(),
  currency: Currency,
  amount: Money,
  payout: Money,
  at: Timestamp,
});
export type RegulatorRound = Static<typeof RegulatorRoundSchema>;

// ---- the internal messages compliance assembles a file with ----

const Window = { brandId: BrandId, from: Timestamp, to: Timestamp };

/**
 * `wallet.regulator.moves`: the money of a brand's player accounts over [from, to), entry by entry,
 * as the ledger has it: each DEPOSIT (a deposit credited), each WITHDRAWAL (a payout captured) and
 * each real-money round (its BET entry, with the round's payout). Paged by account and time.
 */
export const WalletMoveSchema = Type.Object({
  kind: Type.Union([Type.Literal('deposit'), Type.Literal('withdrawal'), Type.Literal('round')]),
  /** The deposit, withdrawal or round id. */
  reference: Type.String(),
  playerId: Type.String(),
  currency: Currency,
  /** Positive: what was deposited, paid out or staked. */
  amount: Money,
  /** Rounds: what the round paid (0.00 when it lost). */
  payout: Nullable(Money),
  gameId: Nullable(Type.String()),
  sessionId: Nullable(Type.String()),
  at: Timestamp,
});
export type WalletMove = Static<typeof WalletMoveSchema>;
const MovesPosition = Type.Object({ playerId: Type.String(), currency: Type.String(), at: Timestamp, id: Type.String() });

/** `players.regulator.bettors` by window (registered or status changed in it), paged by player id; or by ids (one answer). */
const BettorsRequestSchema = Type.Object({ ...Window, playerIds: Type.Optional(Ids), after: Type.Optional(Type.String()), limit: PageLimit });
const StatusChangesPosition = Type.Object({ at: Timestamp, id: Type.String() });

export const regulatorFileMessages = defineMessages({
  bettors: {
    subject: 'players.regulator.bettors',
    body: BettorsRequestSchema,
    reply: Type.Object({ data: Type.Array(RegulatorBettorSchema), next: Nullable(Type.String()) }),
  },
  statusChanges: {
    subject: 'players.regulator.statusChanges',
    body: Type.Object({ ...Window, after: Type.Optional(StatusChangesPosition), limit: PageLimit }),
    reply: Type.Object({ data: Type.Array(RegulatorStatusChangeSchema), next: Nullable(StatusChangesPosition) }),
  },
  moves: {
    subject: 'wallet.regulator.moves',
    body: Type.Object({ ...Window, after: Type.Optional(MovesPosition), limit: PageLimit }),
    reply: Type.Object({ data: Type.Array(WalletMoveSchema), next: Nullable(MovesPosition) }),
  },
  /** `payments.regulator.records`: payments' records of these deposits and withdrawals of the brand (those it has). */
  records: {
    subject: 'payments.regulator.records',
    body: Type.Object({ brandId: BrandId, depositIds: Ids, withdrawalIds: Ids }),
    reply: Type.Object({ deposits: Type.Array(PaymentsDepositRecordSchema), withdrawals: Type.Array(PaymentsWithdrawalRecordSchema) }),
  },
});

// ---- our team's admin operations ----

/** How many lines of each part a file holds (accounts: the ledger part's accounts). */
export const DailyFileCountsSchema = Type.Object({
  bettors: Type.Integer(),
  accounts: Type.Integer(),
  deposits: Type.Integer(),
  withdrawals: Type.Integer(),
  rounds: Type.Integer(),
  /** Third-party providers' bets, wins, rollbacks and corrections (issue #44); absent from files made before they were listed. */
  provider_transactions: Type.Optional(Type.Integer()),
  status_changes: Type.Integer(),
});
export type DailyFileCounts = Static<typeof DailyFileCountsSchema>;

/**
 * Where the file's time zone came from: the request (`query`), the operator's compliance profile
 * (`profile`), or the default because the service had not seen the brand's operator (`default`).
 */
export const TimeZoneSourceSchema = Type.Union([Type.Literal('query'), Type.Literal('profile'), Type.Literal('default')]);
export type TimeZoneSource = Static<typeof TimeZoneSourceSchema>;

/** A kept file in the list: `ties` and `problems` as its last check found them (`checkedAt`). */
export const DailyFileSummarySchema = Type.Object(
  {
    brandId: Type.String(),
    operatorId: Nullable(Type.String()),
    /** The brand's environment; null for a file kept before it was recorded, or made for no brand of ours before issue #61 (docs/aml.md). */
    environment: Nullable(EnvironmentSchema),
    date: Type.String(),
    timeZone: Type.String(),
    /** Null for a file kept before its source was. */
    timeZoneSource: Nullable(TimeZoneSourceSchema),
    from: Timestamp,
    to: Timestamp,
    madeAt: Timestamp,
    /** Null for a file kept before its line items existed (the ledger part only): its next read makes them. */
    counts: Nullable(DailyFileCountsSchema),
    ties: Nullable(Type.Boolean()),
    checkedAt: Nullable(Timestamp),
  },
  { $id: 'DailyFileSummary' },
);
export type DailyFileSummary = Static<typeof DailyFileSummarySchema>;

/** One file, checked now: the summary, the ledger part's totals, and what keeps it from tying. */
export const DailyFileCheckSchema = Type.Intersect(
  [
    DailyFileSummarySchema,
    Type.Object({
      totals: Type.Object({
        opening: Money,
        deposits: Money,
        withdrawals: Money,
        bets: Money,
        wins: Money,
        other: Money,
        closing: Money,
      }),
      /**
       * The sums of the line items, to set beside the ledger's: deposits and withdrawals paid (positive), stakes and payouts of
       * our rounds, and what third-party providers' transactions moved (signed for the players: bets negative).
       */
      lineTotals: Type.Object({
        deposits: Money,
        withdrawals: Money,
        stakes: Money,
        payouts: Money,
        providerBets: Money,
        providerWins: Money,
        providerRollbacks: Money,
        providerCorrections: Money,
        /** Issue #59 item 1: what providers funded and the bettors were credited (FREE_BET_WIN, PROMO_CREDIT, JACKPOT_WIN). */
        providerFreeBetWins: Money,
        providerPromoCredits: Money,
        providerJackpotWins: Money,
      }),
      ties: Type.Boolean(),
      problems: Type.Array(Type.String()),
      /** Where to download it: the whole file as JSON, each part as CSV. */
      downloads: Type.Object({ json: Type.String(), csv: Type.Record(Type.String(), Type.String()) }),
    }),
  ],
  { $id: 'DailyFileCheck' },
);
export type DailyFileCheck = Static<typeof DailyFileCheckSchema>;

/**
 * A page of a file the gateway streams to the caller as one HTTP response (an operation with
 * `download: true`): the service answers the file chunk by chunk, the gateway asks again with
 * `nextCursor` until it is null.
 */
export const FileChunkSchema = Type.Object({
  filename: Type.String(),
  contentType: Type.String(),
  chunk: Type.String(),
  nextCursor: Nullable(Type.String()),
});
export type FileChunk = Static<typeof FileChunkSchema>;

const FileParams = Type.Object({ brandId: BrandId, date: CalendarDate });
/** A file's line items can be many: making one may take longer than a plain read. */
const MAKING_TIMEOUT_MS = 120_000;

export const dailyFilesAdminOperations = defineOperations({
  adminListDailyFiles: {
    id: 'adminListDailyFiles',
    method: 'GET',
    path: '/admin/reports/daily/files',
    subject: 'compliance.admin.reports.files.list',
    tag: 'Admin',
    summary: 'The kept daily regulator files, newest day first (one brand, a range of days, one environment)',
    query: Type.Object({
      brandId: Type.Optional(BrandId),
      from: Type.Optional(CalendarDate),
      to: Type.Optional(CalendarDate),
      /** One environment's files (the console shows production unless asked for the sandbox); both when absent. */
      environment: Type.Optional(EnvironmentSchema),
      ...pageQuery(200),
    }),
    response: Page(DailyFileSummarySchema),
    status: 200,
  },
  adminGetDailyFile: {
    id: 'adminGetDailyFile',
    method: 'GET',
    path: '/admin/reports/daily/files/:brandId/:date',
    subject: 'compliance.admin.reports.files.get',
    tag: 'Admin',
    summary: "A brand's daily regulator file checked now (made and kept first, for a day that is over, if it was not yet)",
    params: FileParams,
    response: DailyFileCheckSchema,
    status: 200,
    timeoutMs: MAKING_TIMEOUT_MS,
    errors: ['BRAND_NOT_FOUND'],
  },
  adminDownloadDailyFile: {
    id: 'adminDownloadDailyFile',
    method: 'GET',
    path: '/admin/reports/daily/files/:brandId/:date/download',
    subject: 'compliance.admin.reports.files.download',
    tag: 'Admin',
    summary: 'Download a daily regulator file: the whole file as JSON, or one part as CSV (docs/aml.md gives both layouts)',
    params: FileParams,
    query: Type.Object({
      format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('csv')])),
      /** Required with format=csv: one CSV per part. */
      part: Type.Optional(DailyFilePartSchema),
      /** The gateway's, while it pages through the file: a caller never sends it. */
      cursor: Type.Optional(Type.String({ maxLength: 512 })),
    }),
    response: FileChunkSchema,
    status: 200,
    timeoutMs: MAKING_TIMEOUT_MS,
    download: true,
    errors: ['BRAND_NOT_FOUND'],
  },
});
