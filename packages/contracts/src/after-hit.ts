// After an impediment hit (issue #46 item 4; Instrução Normativa SPA/MF 31/2025, docs/eligibility.md
// "After a hit"): what follows the closing of a br-spa player's account.
// - the communications log: every message the operator sends the bettor (what, when, by which
//   channel), reported through the API and kept five years (players);
// - the closures report: the players closed after a hit per brand and day, with the SIGAP status a
//   social-programme closure is reported with (status 10), for our team and the compliance service's
//   SIGAP files (players, read only);
// - the closed account's money (wallet): the player's open bets refunded at the closing; what the
//   return to the bettor's own account did not take held 180 days on the brand's unclaimed-funds
//   account, then transferred to FIES and FUNCAP (Lei 14.790/2023, the unclaimed prizes' split), each
//   move a ledger posting and a record our team lists.
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

export const ImpededClosureSchema = Type.Object(
  {
    playerId: Type.String(),
    externalId: Type.String(),
    cpf: Type.String(),
    environment: EnvironmentSchema,
    /** Which lists impeded the CPF at the hit: `central_self_exclusion`, `social_program` (the SPA's), `internal_registry` (ours). */
    reasons: Type.Array(Type.String()),
    /** `10` ("Exclusão – Programas Sociais") for a social-programme hit; null where no SIGAP code was found (docs/eligibility.md). */
    sigapStatus: Nullable(Type.String()),
    restrictedAt: Timestamp,
    closedAt: Timestamp,
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

/** `players.regulator.impededClosures` (internal, read only): a brand's closures after a hit in [from, to). */
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
  /** Open rounds that already have a win: not refunded here (docs/eligibility.md). */
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
    /** 180 days after heldAt: the transfer to the funds is due. */
    releaseDueAt: Timestamp,
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

export const UnclaimedFundsRunSchema = Type.Object(
  {
    /** Closed accounts whose balance was moved to the unclaimed-funds account by this run. */
    holdsCreated: Type.Integer(),
    /** Holds past their 180 days transferred to the funds by this run. */
    transfersRecorded: Type.Integer(),
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
    summary: 'Balances of accounts closed after an impediment hit, held for the bettor for 180 days, newest first',
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
