// Domain events: the body of a JetStream message is exactly the webhook body,
// `{ id, type, createdAt, environment, data }` (docs/decisions.md, "Events"). The data of each type
// is a schema here: the OpenAPI document's webhooks and the SDK's event types come from them.
import { Type, type Static } from '@sinclair/typebox';
import { EnvironmentSchema, Nullable, Timestamp } from './common.ts';
import { DepositSchema, WithdrawalSchema, WITHDRAWAL_STATUSES } from './payments.ts';
import { KycStatusSchema, PlayerStatusSchema, REGISTRATION_ITEMS } from './players.ts';
import { MARKETING_BLOCKS, MARKETING_CHANGE_REASONS } from './marketing.ts';
import { LimitPeriodSchema, LimitTypeSchema } from './responsible-gaming.ts';
import { BetSlipSchema, SPORTS_OUTCOMES } from './bet-slip.ts';
import { HarmLevelChangedSchema, SelfExclusionRecommendedSchema } from './harm.ts';

export const EVENT_TYPES = [
  'kyc.status_changed',
  'deposit.confirmed',
  'withdrawal.status_changed',
  'webhook.test',
  'credential.rotated',
  'credential.revoked',
  'player.limits.changed',
  'player.limit.reached',
  'player.paused',
  'player.self_excluded',
  'player.self_exclusion.ended',
  'deposit.failed',
  'player.restricted',
  'player.closed',
  'player.status.changed',
  'sports_bet.placed',
  'sports_bet.settled',
  'player.registration_incomplete',
  'player.registration_completed',
  'player.marketing_changed',
  'player.risk_level_changed',
  'player.self_exclusion_recommended',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Whether `type` is one of the events sent to operators (not an internal one). */
export function isEventType(type: string): type is EventType {
  return (EVENT_TYPES as readonly string[]).includes(type);
}

const KeyPrefix = Type.String({ description: 'The first 12 characters of the key (`bk_test_AbCd`); the whole key is never sent.' });

export const EventDataSchemas = {
  'kyc.status_changed': Type.Object({
    playerId: Type.String(),
    externalId: Nullable(Type.String()),
    previousStatus: KycStatusSchema,
    status: KycStatusSchema,
  }),
  'deposit.confirmed': DepositSchema,
  'withdrawal.status_changed': Type.Object({
    withdrawal: WithdrawalSchema,
    previousStatus: Nullable(Type.Union(WITHDRAWAL_STATUSES.map((s) => Type.Literal(s)))),
  }),
  'webhook.test': Type.Object({ message: Type.String() }),
  /** Our team issued a new key for the event's environment; the keys it replaces stop at their `expiresAt`. */
  'credential.rotated': Type.Object({
    credentialId: Type.String(),
    keyPrefix: KeyPrefix,
    createdAt: Timestamp,
    expiring: Type.Array(Type.Object({ credentialId: Type.String(), keyPrefix: KeyPrefix, expiresAt: Timestamp })),
  }),
  /** Our team revoked a key of the event's environment: requests signed with it are refused from `revokedAt`. */
  'credential.revoked': Type.Object({ credentialId: Type.String(), keyPrefix: KeyPrefix, revokedAt: Timestamp }),
  /** A limit was set, lowered, raised or removed (a relaxing change takes effect at `effectiveAt`). */
  'player.limits.changed': Type.Object({
    playerId: Type.String(),
    externalId: Nullable(Type.String()),
    type: LimitTypeSchema,
    period: LimitPeriodSchema,
    previousValue: Nullable(Type.String()),
    value: Nullable(Type.String()),
    effectiveAt: Timestamp,
    /** Who asked: `operator` (the player through the operator) or `team` (our team). */
    by: Type.Union([Type.Literal('operator'), Type.Literal('team')]),
  }),
  /** A deposit, a round or a game session was refused because it would pass a limit. */
  'player.limit.reached': Type.Object({
    playerId: Type.String(),
    externalId: Nullable(Type.String()),
    type: LimitTypeSchema,
    period: LimitPeriodSchema,
    value: Type.String(),
    resetsAt: Timestamp,
  }),
  'player.paused': Type.Object({ playerId: Type.String(), externalId: Nullable(Type.String()), until: Timestamp }),
  'player.self_excluded': Type.Object({ playerId: Type.String(), externalId: Nullable(Type.String()), since: Timestamp, until: Nullable(Timestamp) }),
  /** A fixed term ran out (`by: system`) or compliance lifted an indefinite one (`by: team`): status back to the one before it (ativo unless our team had suspended or blocked the player). */
  'player.self_exclusion.ended': Type.Object({
    playerId: Type.String(),
    externalId: Nullable(Type.String()),
    by: Type.Union([Type.Literal('system'), Type.Literal('team')]),
    /** The player's status after the end: the one the self-exclusion replaced, or the status as it stands (a closed account stays `encerrado`). */
    status: PlayerStatusSchema,
  }),
  /** A deposit ended `failed` without credit; `refundRequired`: money arrived and must go back to its origin (br-spa payer mismatch). */
  'deposit.failed': Type.Object({ deposit: DepositSchema, refundRequired: Type.Boolean() }),
  /** br-spa: the player may no longer deposit or play (reason code only: never which list matched); withdrawals stay open until `withdrawalsUntil`. */
  'player.restricted': Type.Object({
    playerId: Type.String(),
    externalId: Nullable(Type.String()),
    reason: Type.Literal('impeded'),
    withdrawalsUntil: Timestamp,
  }),
  /** br-spa: the player is closed for good (`encerrado`); a balance left goes to the player's own account through our review queue. */
  'player.closed': Type.Object({ playerId: Type.String(), externalId: Nullable(Type.String()), reason: Type.Literal('impeded') }),
  /**
   * Our team or one of our rules changed the player's status (never why: the status alone). The
   * player's own flows keep their events (`player.self_excluded`, `player.restricted`, …).
   */
  'player.status.changed': Type.Object({
    playerId: Type.String(),
    externalId: Nullable(Type.String()),
    previousStatus: PlayerStatusSchema,
    status: PlayerStatusSchema,
  }),
  /** A third-party sportsbook took a bet of the player (docs/webhooks.md): written in the bet's own statement, with its money. */
  'sports_bet.placed': Type.Object({
    playerId: Type.String(),
    providerId: Type.String(),
    betId: Type.String({ description: "The sportsbook's bet id (the round id of GET /players/{playerId}/rounds)" }),
    transactionId: Type.String({ description: "The sportsbook's transaction id of the stake" }),
    gameCode: Type.String(),
    currency: Type.String(),
    stake: Type.String(),
    slip: Nullable(BetSlipSchema),
    placedAt: Timestamp,
  }),
  /** A sports bet closed: settled (its win, 0.00 when lost, with the outcome) or voided (its stake rolled back); written with that money. */
  'sports_bet.settled': Type.Object({
    playerId: Type.String(),
    providerId: Type.String(),
    betId: Type.String(),
    gameCode: Type.String(),
    currency: Type.String(),
    status: Type.Union([Type.Literal('settled'), Type.Literal('voided')]),
    outcome: Nullable(Type.Union(SPORTS_OUTCOMES.map((o) => Type.Literal(o)))),
    staked: Type.String(),
    won: Type.String(),
    slip: Nullable(BetSlipSchema),
    settledAt: Timestamp,
  }),
  /**
   * br-spa: the player's registration lacks data the profile requires (a field by its name, a limit by
   * its type); deposits and bets are refused (403 RG_BLOCKED `registration_incomplete`, or `limits_required`
   * for the limits alone) until the operator completes it (PATCH /players/{playerId}, PUT …/limits).
   * Sent again when what is missing changes.
   */
  'player.registration_incomplete': Type.Object({
    playerId: Type.String(),
    externalId: Nullable(Type.String()),
    missing: Type.Array(Type.Union(REGISTRATION_ITEMS.map((i) => Type.Literal(i)))),
  }),
  /** br-spa: the registration data of a player announced incomplete is now complete: the restriction is lifted. */
  'player.registration_completed': Type.Object({ playerId: Type.String(), externalId: Nullable(Type.String()) }),
  /** The player's marketing permission changed: the bettor gave or withdrew consent, or a block forced it off. */
  'player.marketing_changed': Type.Object({
    playerId: Type.String(),
    externalId: Nullable(Type.String()),
    consent: Type.Boolean(),
    allowed: Type.Boolean(),
    blockedBy: Nullable(Type.Union(MARKETING_BLOCKS.map((b) => Type.Literal(b)))),
    reason: Type.Union(MARKETING_CHANGE_REASONS.map((r) => Type.Literal(r))),
    at: Timestamp,
  }),
  /**
   * The player's level of risk of gambling harm moved (issue #68, docs/player-protection.md), with every
   * marker fired and those that came and went; GET /players/{playerId}/harm-level reads it as it stands.
   */
  'player.risk_level_changed': HarmLevelChangedSchema,
  'player.self_exclusion_recommended': SelfExclusionRecommendedSchema,
} as const;

export type EventDataByType = { [K in EventType]: Static<(typeof EventDataSchemas)[K]> };

/** The whole event body of one type. */
export function domainEventSchema<T extends EventType>(type: T) {
  return Type.Object({
    id: Type.String({ description: 'Event id (evt_...), equal to X-Webhook-Id.' }),
    type: Type.Literal(type),
    createdAt: Timestamp,
    environment: EnvironmentSchema,
    data: EventDataSchemas[type],
  });
}

export interface DomainEvent<T extends EventType = EventType> {
  id: string;
  type: T;
  createdAt: string;
  environment: Static<typeof EnvironmentSchema>;
  data: EventDataByType[T];
}

/** Routing metadata carried in NATS headers next to the event (never sent to the operator). */
export const EVENT_HEADERS = { operatorId: 'Bo-Operator-Id', brandId: 'Bo-Brand-Id' } as const;
