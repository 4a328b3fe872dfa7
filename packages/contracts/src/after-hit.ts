// After an impediment hit (issue #46 item 4; Instrução Normativa SPA/MF 31/2025, docs/eligibility.md
// "After a hit"): what follows the closing of a br-spa player's account.
// - the communications log: every message the operator sends the bettor (what, when, by which
//   channel), reported through the API and kept five years (players);
// - the status-10 report: the players blocked after a hit per brand, listed on the day after the block
//   (issue #60), with the SIGAP status a social-programme closure is reported with (status 10), for our
//   team and the compliance service's SIGAP files (players, read only);
// - the closed account's money (wallet): the player's open bets refunded at the closing; what the
//   return to the bettor's own account did not take held on the brand's unclaimed-funds account and,
//   180 days after the communication to the bettor (issue #60), transferred to FIES and FUNCAP (Lei
//   14.790/2023, the unclaimed prizes' split) and paid to their accounts through payments, each move a
//   ledger posting and a record our team lists.
import { Type, type Static } from '@sinclair/typebox';
import { Currency, EnvironmentSchema, Money, Nullable, Page, Timestamp, idOf, pageQuery } from './common.ts';
import { defineMessages } from './messages.ts';
import { defineOperations } from './operations.ts';

// ---- the communications log (the operator's API; our team reads it too) ----

/** How the message reached the bettor. */
export const COMMUNICATION_CHANNELS = ['email', 'sms', 'push', 'in_app', 'whatsapp', 'phone', 'letter', 'other'] as const;
export type CommunicationChannel = (typeof COMMUNICATION_CHANNELS)[number];
/**
 * What the message was: the notice of the block with the withdrawal deadline (IN 31/2025: the
 * reason and the time left to withdraw), a reminder, the closing, the balance returned or held,
 * or anything else the operator sent.
 */
export const COMMUNICATION_KINDS = ['impediment_notice', 'withdrawal_reminder', 'account_closed', 'funds_returned', 'funds_held', 'other'] as const;
export type CommunicationKind = (typeof COMMUNICATION_KINDS)[number];
/** How long a communication is kept (IN 31/2025; the SPA's FAQ item 22: five years); none is deleted earlier. */
export const COMMUNICATION_RETENTION_YEARS = 5;

export const CommunicationInputSchema = Type.Object(
  {
    channel: Type.Union(COMMUNICATION_CHANNELS.map((c) => Type.Literal(c))),
    kind: Type.Union(COMMUNICATION_KINDS.map((k) => Type.Literal(k))),
    /** When the operator sent it; never in the future. */
    sentAt: Timestamp,
    /** What was sent: the message's text or a faithful summary of it. */
    summary: Type.String({ minLength: 1, maxLength: 2000 }),
    /** The operator's own id of the message (its mail or SMS provider's), when it has one. */
    reference: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  },
  { $id: 'CommunicationInput' },
);
export type CommunicationInput = Static<typeof CommunicationInputSchema>;

export const CommunicationSchema = Type.Object(
  {
    id: idOf('com'),
    playerId: idOf('plr'),
    channel: Type.String(),
    kind: Type.String(),
    sentAt: Timestamp,
    summary: Type.String(),
    reference: Nullable(Type.String()),
    /** When we recorded it. */
    recordedAt: Timestamp,
    /** Kept at least until then (five years after it was recorded); never changed. */
    retainUntil: Timestamp,
  },
  { additionalProperties: false, $id: 'Communication' },
);
export type Communication = Static<typeof CommunicationSchema>;

const PlayerParams = Type.Object({ playerId: Type.String({ minLength: 1, maxLength: 64 }) });

export const communicationOperations = defineOperations({
  recordCommunication: {
    id: 'recordCommunication',
    method: 'POST',
    path: '/players/:playerId/communications',
    subject: 'players.communications.record',
    tag: 'Players',
    summary: 'Record a message you sent the player (what, when, by which channel): kept five years',
    params: PlayerParams,
    body: CommunicationInputSchema,
    response: CommunicationSchema,
    status: 201,
    idempotent: true,
    errors: ['PLAYER_NOT_FOUND'],
  },
  listCommunications: {
    id: 'listCommunications',
    method: 'GET',
    path: '/players/:playerId/communications',
    subject: 'players.communications.list',
    tag: 'Players',
    summary: 'The messages recorded for the player, newest sent first',
    params: PlayerParams,
    query: Type.Object(pageQuery(200)),
    response: Page(CommunicationSchema),
    status: 200,
    errors: ['PLAYER_NOT_FOUND'],
  },
});

// ---- the closures after a hit (players; our team, and the compliance service's SIGAP files) ----

/** The SIGAP status a closure for a Bolsa Família / BPC impediment is reported with (the SPA's FAQ, item 22). */
export const SIGAP_STATUS_SOCIAL_PROGRAMS = '10';
/** The SIGAP status "Autoexcluído" (the SPA's FAQ, items 10 and 19): a closure after a central self-exclusion hit (our reading). */
export const SIGAP_STATUS_SELF_EXCLUDED = '4';
/** The SIGAP status "Suspenso preventivamente": a closure after a hit on our internal registry (our reading). */
export const SIGAP_STATUS_SUSPENDED = '6';

/**
 * The SIGAP status of a bettor blocked (and later closed) after an impediment hit, from the lists that
 * matched: 10 for a social programme's (it wins: the FAQ keeps 10 after the account is closed), 4 for
 * the centralised self-exclusion, 6 for any other (our internal registry); null when the hit's lists are
 * unknown. The one definition the compliance service's SIGAP files (sigap/layout.ts, `statusCodeOf`) and
 * the players service's closures report (`sigapStatus`) both follow.
 */
export function sigapStatusOfImpediment(reasons: readonly string[]): string | null {
  if (reasons.length === 0) return null;
  if (reasons.includes('social_program')) return SIGAP_STATUS_SOCIAL_PROGRAMS;
  if (reasons.includes('central_self_exclusion')) return SIGAP_STATUS_SELF_EXCLUDED;
  return SIGAP_STATUS_SUSPENDED;
}

export const ImpededClosureSchema = Type.Object(
  {
    playerId: Type.String(),
    externalId: Type.String(),
    cpf: Type.String(),
    environment: EnvironmentSchema,
    /** Which lists impeded the CPF at the hit: `central_self_exclusion`, `social_program` (the SPA's), `internal_registry` (ours). */
    reasons: Type.Array(Type.String()),
    /**
     * The code the SIGAP files carry for the bettor (`sigapStatusOfImpediment`): `10` ("Exclusão – Programas Sociais")
     * for a social-programme hit, `4` ("Autoexcluído") for the central self-exclusion, `6` ("Suspenso preventivamente")
     * for our internal registry; null when the hit's lists are not known (docs/eligibility.md).
     */
    sigapStatus: Nullable(Type.String()),
    /** The block (the hit): the report of a day lists the blocks of the day before (the SPA's FAQ: status 10 on D+1). */
    restrictedAt: Timestamp,
    /** When the account was closed; null while it is not yet (the closing comes IMPEDIMENT_CLOSE_DAYS after the block). */
    closedAt: Nullable(Timestamp),
  },
  { additionalProperties: false, $id: 'ImpededClosure' },
);
export type ImpededClosure = Static<typeof ImpededClosureSchema>;

const BrandId = Type.String({ minLength: 1, maxLength: 64 });
const CalendarDate = Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', description: 'YYYY-MM-DD' });

export const ImpededClosuresReportSchema = Type.Object(
  {
    brandId: Type.String(),
    date: Type.String(),
    /** The day's zone: the one asked, else the operator's compliance setting. */
    timeZone: Type.String(),
    from: Timestamp,
    to: Timestamp,
    data: Type.Array(ImpededClosureSchema),
  },
  { additionalProperties: false, $id: 'ImpededClosuresReport' },
);
export type ImpededClosuresReport = Static<typeof ImpededClosuresReportSchema>;

/** `players.regulator.impededClosures` (internal, read only): the report of the day [from, to): a brand's players blocked after a hit on the day before. */
export const impededClosureMessages = defineMessages({
  closures: {
    subject: 'players.regulator.impededClosures',
    body: Type.Object({ brandId: BrandId, from: Timestamp, to: Timestamp }),
    reply: Type.Object({ data: Type.Array(ImpededClosureSchema) }),
  },
});

// ---- the closed account's money (wallet) ----

/**
 * `wallet.impeded.closeAccount` (internal, players → wallet, at the closing): refunds the player's
 * open provider bets and records the account as closed after a hit, from which the return to the
 * bettor's own account is due within UNCLAIMED_RETURN_DAYS. Idempotent: a repeat refunds nothing more.
 */
export const IMPEDED_CLOSE_SUBJECT = 'wallet.impeded.closeAccount';
export const ImpededCloseSchema = Type.Object({
  operatorId: BrandId,
  brandId: BrandId,
  environment: EnvironmentSchema,
  playerId: BrandId,
  currency: Currency,
  /** When the closing was due (the hit + IMPEDIMENT_CLOSE_DAYS): the return's deadline counts from here. */
  closedAt: Timestamp,
});
export type ImpededClose = Static<typeof ImpededCloseSchema>;
export const ImpededCloseResultSchema = Type.Object({
  /** Bets this call refunded (a repeat: 0), and their sum. */
  refundedBets: Type.Integer(),
  refunded: Money,
  /** Open rounds left unrefunded: 0 since issue #60 (a round with a partial win is refunded too; kept for the contract). */
  roundsLeftOpen: Type.Integer(),
  returnDueAt: Timestamp,
});
export type ImpededCloseResult = Static<typeof ImpededCloseResultSchema>;
export const impededAccountMessages = defineMessages({
  close: { subject: IMPEDED_CLOSE_SUBJECT, body: ImpededCloseSchema, reply: ImpededCloseResultSchema },
});

export const UNCLAIMED_FUNDS_STATUSES = ['held', 'returned', 'transferred'] as const;
export type UnclaimedFundsStatus = (typeof UNCLAIMED_FUNDS_STATUSES)[number];

export const UnclaimedFundsSchema = Type.Object(
  {
    id: idOf('uch'),
    operatorId: Type.String(),
    brandId: Type.String(),
    environment: EnvironmentSchema,
    playerId: Type.String(),
    currency: Type.String(),
    amount: Money,
    /** `held` (the bettor may still have it back), `returned` (paid to the bettor), `transferred` (to FIES and FUNCAP). */
    status: Type.Union(UNCLAIMED_FUNDS_STATUSES.map((s) => Type.Literal(s))),
    heldAt: Timestamp,
    /** When the bettor was told of the block (the operator's `impediment_notice`, as its communications log says); null: not reported yet. */
    noticeSentAt: Nullable(Timestamp),
    /** 180 days after the communication (the SPA's FAQ): the transfer to the funds is due; null while no communication is reported (the clock has not started). */
    releaseDueAt: Nullable(Timestamp),
    endedAt: Nullable(Timestamp),
    /** Returned: the payment's reference our finance team gave. */
    returnReference: Nullable(Type.String()),
    /** Transferred: the transfer's record. */
    transferId: Nullable(Type.String()),
  },
  { additionalProperties: false, $id: 'UnclaimedFunds' },
);
export type UnclaimedFunds = Static<typeof UnclaimedFundsSchema>;

/** Where Lei 14.790/2023 sends unclaimed prizes: half to each fund. */
export const FUND_TRANSFER_LEGAL_BASIS = 'Lei 14.790/2023, unclaimed prizes: 50% FIES, 50% FUNCAP; IN SPA/MF 31/2025 (after 180 days)';

export const FundTransferSchema = Type.Object(
  {
    id: idOf('fdt'),
    holdId: Type.String(),
    operatorId: Type.String(),
    brandId: Type.String(),
    environment: EnvironmentSchema,
    playerId: Type.String(),
    currency: Type.String(),
    amount: Money,
    /** Fundo de Financiamento Estudantil: half, rounded down to the cent. */
    fies: Money,
    /** Fundo Nacional para Calamidades Públicas, Proteção e Defesa Civil: the rest. */
    funcap: Money,
    legalBasis: Type.String(),
    recordedAt: Timestamp,
  },
  { additionalProperties: false, $id: 'FundTransfer' },
);
export type FundTransfer = Static<typeof FundTransferSchema>;

/**
 * `players.afterHit.notice` (internal, wallet → players): when a player was blocked after a hit and when
 * the operator reports having told them (its first `impediment_notice` sent at or after the block): the
 * 180 days of the unclaimed funds count from that communication.
 */
export const impedimentNoticeMessages = defineMessages({
  notice: {
    subject: 'players.afterHit.notice',
    body: Type.Object({ brandId: BrandId, playerId: BrandId }),
    reply: Type.Object({ restrictedAt: Nullable(Timestamp), noticeSentAt: Nullable(Timestamp) }),
  },
});

// ---- the transfer to FIES and FUNCAP, paid through payments (issue #60 item 6) ----

export const FUND_PAYOUT_FUNDS = ['fies', 'funcap'] as const;
export type FundPayoutFund = (typeof FUND_PAYOUT_FUNDS)[number];
export const FUND_PAYOUT_STATUSES = ['pending', 'paid', 'failed'] as const;
export type FundPayoutStatus = (typeof FUND_PAYOUT_STATUSES)[number];

/** One fund's half of a transfer, paid by payments to the account set for that fund, with the payment's receipt. */
export const FundPayoutSchema = Type.Object(
  {
    id: idOf('fpo'),
    transferId: Type.String(),
    fund: Type.Union(FUND_PAYOUT_FUNDS.map((f) => Type.Literal(f))),
    operatorId: Type.String(),
    brandId: Type.String(),
    environment: EnvironmentSchema,
    currency: Type.String(),
    amount: Money,
    /** The fund's account as set in payments' configuration (FUND_PAYOUT_FIES_ACCOUNT, FUND_PAYOUT_FUNCAP_ACCOUNT). */
    destination: Type.String(),
    /** `pending` until the payment rail confirms it; `paid` with its receipt; `failed` when the rail refused it (our finance team acts). */
    status: Type.Union(FUND_PAYOUT_STATUSES.map((s) => Type.Literal(s))),
    receipt: Nullable(Type.String()),
    failureReason: Nullable(Type.String()),
    requestedAt: Timestamp,
    paidAt: Nullable(Timestamp),
  },
  { additionalProperties: false, $id: 'FundPayout' },
);
export type FundPayout = Static<typeof FundPayoutSchema>;

/** `payments.fundPayouts.request` (internal, wallet → payments): pay a recorded transfer's two halves. Idempotent by the transfer. */
export const FundPayoutRequestSchema = Type.Object({
  transferId: BrandId,
  operatorId: BrandId,
  brandId: BrandId,
  environment: EnvironmentSchema,
  currency: Currency,
  fies: Money,
  funcap: Money,
});
export type FundPayoutRequest = Static<typeof FundPayoutRequestSchema>;
/** `wallet.fundPayout.post` (internal, payments → wallet): the ledger move of a paid half, once per payout. */
export const FundPayoutPostingSchema = Type.Object({
  payoutId: BrandId,
  transferId: BrandId,
  fund: Type.Union(FUND_PAYOUT_FUNDS.map((f) => Type.Literal(f))),
  brandId: BrandId,
  currency: Currency,
  amount: Money,
});
export type FundPayoutPosting = Static<typeof FundPayoutPostingSchema>;
export const fundPayoutMessages = defineMessages({
  request: { subject: 'payments.fundPayouts.request', body: FundPayoutRequestSchema, reply: Type.Object({ data: Type.Array(FundPayoutSchema) }) },
  post: { subject: 'wallet.fundPayout.post', body: FundPayoutPostingSchema, reply: Type.Object({ transactionId: Type.String(), postedAt: Timestamp }) },
});

export const UnclaimedFundsRunSchema = Type.Object(
  {
    /** Closed accounts whose balance was moved to the unclaimed-funds account by this run. */
    holdsCreated: Type.Integer(),
    /** Holds past their 180 days transferred to the funds by this run. */
    transfersRecorded: Type.Integer(),
    /** Transfers whose payment this run asked payments for (the FIES and FUNCAP halves). */
    payoutsRequested: Type.Integer(),
    ranAt: Timestamp,
  },
  { additionalProperties: false, $id: 'UnclaimedFundsRun' },
);
export type UnclaimedFundsRun = Static<typeof UnclaimedFundsRunSchema>;

const OptionalId = Type.Optional(Type.String({ minLength: 1, maxLength: 64 }));

export const afterHitAdminOperations = defineOperations({
  adminListCommunications: {
    id: 'adminListCommunications',
    method: 'GET',
    path: '/admin/players/:id/communications',
    subject: 'players.admin.communications',
    tag: 'Admin',
    summary: "A player's communications log (what the operator sent, when, by which channel), newest sent first",
    params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }),
    query: Type.Object(pageQuery(200)),
    response: Page(CommunicationSchema),
    status: 200,
    errors: ['PLAYER_NOT_FOUND'],
  },
  adminImpededClosures: {
    id: 'adminImpededClosures',
    method: 'GET',
    path: '/admin/reports/impeded-closures',
    subject: 'players.admin.impededClosures',
    tag: 'Admin',
    summary: "A brand's players closed after an impediment hit on a day, with the SIGAP status of a social-programme closure (status 10)",
    query: Type.Object({ brandId: BrandId, date: CalendarDate, timeZone: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })) }),
    response: ImpededClosuresReportSchema,
    status: 200,
  },
  adminListUnclaimedFunds: {
    id: 'adminListUnclaimedFunds',
    method: 'GET',
    path: '/admin/unclaimed-funds',
    subject: 'wallet.admin.unclaimed.list',
    tag: 'Admin',
    summary:
      'Balances of accounts closed after an impediment hit, held for the bettor until returned or, 180 days after the communication to the bettor, transferred to FIES and FUNCAP; newest first',
    query: Type.Object({
      status: Type.Optional(Type.Union(UNCLAIMED_FUNDS_STATUSES.map((s) => Type.Literal(s)))),
      brandId: OptionalId,
      playerId: OptionalId,
      ...pageQuery(200),
    }),
    response: Page(UnclaimedFundsSchema),
    status: 200,
  },
  adminReturnUnclaimedFunds: {
    id: 'adminReturnUnclaimedFunds',
    method: 'POST',
    path: '/admin/unclaimed-funds/:id/return',
    subject: 'wallet.admin.unclaimed.return',
    tag: 'Admin',
    summary: "Record that our finance team paid held funds back to the bettor's own account (a PIX to their CPF), with the payment's reference",
    params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }),
    body: Type.Object({ reference: Type.String({ minLength: 1, maxLength: 128 }) }),
    response: UnclaimedFundsSchema,
    status: 200,
    errors: ['UNCLAIMED_FUNDS_NOT_FOUND', 'UNCLAIMED_FUNDS_NOT_HELD'],
  },
  adminListFundTransfers: {
    id: 'adminListFundTransfers',
    method: 'GET',
    path: '/admin/fund-transfers',
    subject: 'wallet.admin.fundTransfers.list',
    tag: 'Admin',
    summary: 'Transfers of unclaimed funds to FIES and FUNCAP after their 180 days, newest first',
    query: Type.Object({ brandId: OptionalId, ...pageQuery(200) }),
    response: Page(FundTransferSchema),
    status: 200,
  },
  adminListFundPayouts: {
    id: 'adminListFundPayouts',
    method: 'GET',
    path: '/admin/fund-payouts',
    subject: 'payments.admin.fundPayouts.list',
    tag: 'Admin',
    summary: "The FIES and FUNCAP halves of the transfers, paid by payments to the funds' accounts, with each payment's receipt, newest first",
    query: Type.Object({
      status: Type.Optional(Type.Union(FUND_PAYOUT_STATUSES.map((s) => Type.Literal(s)))),
      brandId: OptionalId,
      ...pageQuery(200),
    }),
    response: Page(FundPayoutSchema),
    status: 200,
  },
  adminRunUnclaimedFunds: {
    id: 'adminRunUnclaimedFunds',
    method: 'POST',
    path: '/admin/jobs/unclaimed-funds',
    subject: 'wallet.admin.unclaimed.run',
    tag: 'Admin',
    summary:
      "Run the unclaimed-funds job now (each wallet replica also runs it on its own): hold what closed accounts' returns did not take; transfer holds past 180 days",
    response: UnclaimedFundsRunSchema,
    status: 200,
    timeoutMs: 120_000,
  },
});
