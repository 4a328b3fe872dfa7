// Integrity holds on sports prizes (issue #60 item 3; docs/games.md, "Integrity holds"): our
// compliance team holds a sports bet slip's prize under a well-founded suspicion of fraud or
// match-fixing (Portaria SPA/MF 1.231/2024 art. 26 III–IV: the operator may suspend the payment of
// the prize while it investigates). The provider's win is accepted and kept on the brand's
// integrity-hold account, not the player's; the prize clock of the win is paused with the reason;
// another person releases the prize to the player or forfeits it (four eyes), each step audited.
// The suspicious-betting export lists the held slips by event, with the evidence, for the SPA and
// the sports bodies (Portaria SPA/MF 1.225/2024, monitoring; Portaria MESP 109/2024 on match-fixing, as summarised).
import { Type, type Static } from '@sinclair/typebox';
import { BetSlipSchema } from './bet-slip.ts';
import { Currency, EnvironmentSchema, Money, Nullable, Page, Timestamp, idOf, pageQuery } from './common.ts';
import { defineOperations } from './operations.ts';
import { FileChunkSchema } from './regulator-file.ts';

export const INTEGRITY_HOLD_STATUSES = ['held', 'released', 'forfeited'] as const;
export type IntegrityHoldStatus = (typeof INTEGRITY_HOLD_STATUSES)[number];

/** Why the hold and what supports it: kept with the hold, listed in the export; never shown to the player. */
const Reason = Type.String({ minLength: 3, maxLength: 2000 });
const Evidence = Type.String({ minLength: 1, maxLength: 8000 });
const HoldId = Type.String({ minLength: 1, maxLength: 64 });

/** The prize clock of a held win (docs/eligibility.md, "The prize clock"): paused while the prize is held. */
export const IntegrityPrizeClockSchema = Type.Object(
  {
    /** When the event bet on ended (the win's `eventEndedAt`); null when the win did not say. */
    eventEndedAt: Nullable(Timestamp),
    /** The prize's deadline without the hold (120 minutes after the end). */
    dueAt: Nullable(Timestamp),
    /** When the clock stopped: the win arrived while the slip was held. */
    pausedAt: Timestamp,
    pauseReason: Type.Literal('integrity_hold'),
    /** Whether the win arrived by its deadline (the time under hold is not counted); null without a deadline. */
    arrivedOnTime: Nullable(Type.Boolean()),
    /** When the clock ran again: the decision (release or forfeit); null while held. */
    resumedAt: Nullable(Timestamp),
  },
  { additionalProperties: false, $id: 'IntegrityPrizeClock' },
);

export const IntegrityHoldSchema = Type.Object(
  {
    id: idOf('ihd'),
    providerId: idOf('prv'),
    /** The provider's bet id of the slip (its round id). */
    roundId: Type.String(),
    operatorId: Type.String(),
    brandId: Type.String(),
    environment: EnvironmentSchema,
    playerId: Type.String(),
    currency: Currency,
    status: Type.Union(INTEGRITY_HOLD_STATUSES.map((s) => Type.Literal(s))),
    reason: Type.String(),
    evidence: Nullable(Type.String()),
    placedBy: Type.String(),
    placedAt: Timestamp,
    /** What the provider's wins of the slip brought while it was held (on the brand's integrity-hold account). */
    heldAmount: Money,
    /** The provider's wins received while held. */
    heldWins: Type.Integer({ minimum: 0 }),
    /** The paused prize clock of the first held win; null while no win arrived. */
    prizeClock: Nullable(IntegrityPrizeClockSchema),
    decidedBy: Nullable(Type.String()),
    decidedAt: Nullable(Timestamp),
    decisionReason: Nullable(Type.String()),
  },
  { additionalProperties: false, $id: 'IntegrityHold' },
);
export type IntegrityHold = Static<typeof IntegrityHoldSchema>;

export const IntegrityHoldInputSchema = Type.Object(
  {
    providerId: Type.String({ minLength: 1, maxLength: 64 }),
    roundId: Type.String({ minLength: 1, maxLength: 128 }),
    reason: Reason,
    evidence: Type.Optional(Evidence),
  },
  { additionalProperties: false, $id: 'IntegrityHoldInput' },
);
export type IntegrityHoldInput = Static<typeof IntegrityHoldInputSchema>;

export const IntegrityDecisionInputSchema = Type.Object({ reason: Reason }, { additionalProperties: false, $id: 'IntegrityDecisionInput' });

// ---- the suspicious-betting export ----

/** The rules the export answers to, each with a public link (docs/legal-sources.md). */
export const IntegrityLegalBasisSchema = Type.Object({ reference: Type.String(), article: Type.String(), url: Type.String() }, { additionalProperties: false });

/** One held slip under one of its events (a multiple's slip is listed under each leg's event). */
export const SuspiciousSlipSchema = Type.Object(
  {
    holdId: Type.String(),
    providerId: Type.String(),
    roundId: Type.String(),
    operatorId: Type.String(),
    brandId: Type.String(),
    environment: EnvironmentSchema,
    playerId: Type.String(),
    currency: Currency,
    staked: Money,
    placedAt: Timestamp,
    market: Type.String(),
    selection: Type.String(),
    odds: Type.String(),
    slip: Nullable(BetSlipSchema),
    heldAmount: Money,
    holdStatus: Type.Union(INTEGRITY_HOLD_STATUSES.map((s) => Type.Literal(s))),
    reason: Type.String(),
    evidence: Nullable(Type.String()),
    heldBy: Type.String(),
    heldAt: Timestamp,
    decidedBy: Nullable(Type.String()),
    decidedAt: Nullable(Timestamp),
    decisionReason: Nullable(Type.String()),
  },
  { additionalProperties: false, $id: 'SuspiciousSlip' },
);

export const SuspiciousEventSchema = Type.Object(
  {
    sport: Type.String(),
    event: Type.String(),
    eventStartsAt: Timestamp,
    slips: Type.Array(SuspiciousSlipSchema),
  },
  { additionalProperties: false, $id: 'SuspiciousEvent' },
);

export const SuspiciousBettingReportSchema = Type.Object(
  {
    from: Timestamp,
    to: Timestamp,
    generatedAt: Timestamp,
    legalBasis: Type.Array(IntegrityLegalBasisSchema),
    events: Type.Array(SuspiciousEventSchema),
  },
  { additionalProperties: false, $id: 'SuspiciousBettingReport' },
);
export type SuspiciousBettingReport = Static<typeof SuspiciousBettingReportSchema>;

/** The export's columns (CSV: one line per slip and event, in this order). */
export const SUSPICIOUS_BETTING_CSV_COLUMNS = [
  'sport',
  'event',
  'event_starts_at',
  'hold_id',
  'provider_id',
  'round_id',
  'operator_id',
  'brand_id',
  'environment',
  'player_id',
  'currency',
  'staked',
  'placed_at',
  'market',
  'selection',
  'odds',
  'held_amount',
  'hold_status',
  'reason',
  'evidence',
  'held_by',
  'held_at',
  'decided_by',
  'decided_at',
  'decision_reason',
] as const;

/** Where the export's rules are published (docs/legal-sources.md: [P1231], [P1225], [ME109]). */
export const INTEGRITY_LEGAL_BASIS: Static<typeof IntegrityLegalBasisSchema>[] = [
  {
    reference: 'Portaria SPA/MF 1.231/2024',
    article: 'art. 26 III–IV (suspension of the account and of the payment of prizes on a well-founded suspicion of fraud or match-fixing)',
    url: 'https://www.diaoficial.com/linkdo/1903311/2024_08_01_ASSINADO_do1?docid=24101&page=77&pageid=1903311',
  },
  {
    reference: 'Portaria SPA/MF 1.225/2024',
    article:
      "the SPA's monitoring and inspection of operators: data and documents on request (arts. 1–2 read; the report of suspicious betting as the issue reports it)",
    url: 'https://bnldata.com.br/legislacao/portaria-spa-mf-no-1-225-de-31-de-julho-de-2024-regulamenta-o-monitoramento-e-a-fiscalizacao-das-atividades-de-exploracao-da-modalidade-loterica-de-apostas-de-quota-fixa/',
  },
  {
    reference: 'Portaria MESP 109/2024 (Ministério do Esporte)',
    article:
      "operators inform the Ministry of Sport of suspected match-fixing and violations of betting integrity (as summarised; the articles' numbers were not read)",
    url: 'https://igamingbrazil.com/legislacao/2024/11/12/ministerio-do-esporte-lanca-portaria-para-combater-manipulacao-de-resultados-nas-apostas/',
  },
];

const Iso = Type.String({ format: 'date-time' });

export const integrityAdminOperations = defineOperations({
  adminPlaceIntegrityHold: {
    id: 'adminPlaceIntegrityHold',
    method: 'POST',
    path: '/admin/integrity/holds',
    subject: 'wallet.admin.integrity.place',
    tag: 'Admin',
    summary:
      "Hold a sports bet slip's prize under an integrity suspicion (1.231/2024 art. 26 III–IV): its win goes to the brand's integrity-hold account, the player sees nothing",
    body: IntegrityHoldInputSchema,
    response: IntegrityHoldSchema,
    status: 201,
    errors: ['ROUND_NOT_FOUND', 'INTEGRITY_HOLD_CONFLICT'],
  },
  adminListIntegrityHolds: {
    id: 'adminListIntegrityHolds',
    method: 'GET',
    path: '/admin/integrity/holds',
    subject: 'wallet.admin.integrity.list',
    tag: 'Admin',
    summary: 'Integrity holds on sports prizes, newest first',
    query: Type.Object({
      status: Type.Optional(Type.Union(INTEGRITY_HOLD_STATUSES.map((s) => Type.Literal(s)))),
      brandId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
      playerId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
      ...pageQuery(200),
    }),
    response: Page(IntegrityHoldSchema),
    status: 200,
  },
  adminReleaseIntegrityHold: {
    id: 'adminReleaseIntegrityHold',
    method: 'POST',
    path: '/admin/integrity/holds/:id/release',
    subject: 'wallet.admin.integrity.release',
    tag: 'Admin',
    summary: 'Release a held prize to the player, with a reason; never by the person who placed the hold (403 FOUR_EYES_REQUIRED)',
    params: Type.Object({ id: HoldId }),
    body: IntegrityDecisionInputSchema,
    response: IntegrityHoldSchema,
    status: 200,
    errors: ['INTEGRITY_HOLD_NOT_FOUND', 'INTEGRITY_HOLD_CONFLICT', 'FOUR_EYES_REQUIRED'],
  },
  adminForfeitIntegrityHold: {
    id: 'adminForfeitIntegrityHold',
    method: 'POST',
    path: '/admin/integrity/holds/:id/forfeit',
    subject: 'wallet.admin.integrity.forfeit',
    tag: 'Admin',
    summary: "Forfeit a held prize (to the brand's forfeited-prizes account), with a reason; never by the person who placed the hold (403 FOUR_EYES_REQUIRED)",
    params: Type.Object({ id: HoldId }),
    body: IntegrityDecisionInputSchema,
    response: IntegrityHoldSchema,
    status: 200,
    errors: ['INTEGRITY_HOLD_NOT_FOUND', 'INTEGRITY_HOLD_CONFLICT', 'FOUR_EYES_REQUIRED'],
  },
  adminSuspiciousBettingExport: {
    id: 'adminSuspiciousBettingExport',
    method: 'GET',
    path: '/admin/integrity/suspicious-betting',
    subject: 'wallet.admin.integrity.export',
    tag: 'Admin',
    summary:
      'The suspicious-betting export for the SPA and the sports bodies: the held slips by event with the evidence and the articles (JSON, or CSV one line per slip and event)',
    query: Type.Object({
      /** Holds placed from (inclusive) and to (exclusive); at most 366 days. */
      from: Iso,
      to: Iso,
      brandId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
      format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('csv')])),
      /** The gateway's, while it pages through the file: a caller never sends it. */
      cursor: Type.Optional(Type.String({ maxLength: 512 })),
    }),
    response: FileChunkSchema,
    status: 200,
    download: true,
  },
});
