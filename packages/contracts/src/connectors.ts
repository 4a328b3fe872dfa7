// Connectors (issue #58, docs/connectors.md): an aggregator that calls the operator in its own
// protocol (Hub88's Wallet API, later Evolution's One Wallet, a sportsbook's seamless wallet)
// reaches the same provider wallet handlers as /provider/v1, through a room of its own in the
// gateway that speaks the protocol. What every protocol shares lives here:
// - a provider's `protocol` (`native` for /provider/v1, one name per connector);
// - its connector per environment: the protocol's settings (Hub88: its operator_id and the Games
//   API's base URL), their public keys (to verify their calls) and our key pairs (our public key
//   handed to them, our private key signing our calls, sealed at rest), both rotated with an
//   overlap like every key we keep;
// - the admin API our team sets them with, and the messages between the gateway and the wallet.
import { Type, type Static } from '@sinclair/typebox';
import { EnvironmentSchema, Nullable, Timestamp } from './common.ts';
import { defineOperations } from './operations.ts';
import { defineMessages } from './messages.ts';
import { KEY_ROTATION_OVERLAP_MINUTES } from './admin.ts';
import { ProviderTransactionResultSchema, ProviderWinBody } from './providers.ts';
import { BetSlipSchema } from './bet-slip.ts';
import type { HUB88_STATUSES } from './hub88.ts';
import type { EVOLUTION_STATUSES } from './evolution.ts';
import type { BetsyHealthStatus } from './betsy.ts';

import { PROVIDER_PROTOCOLS, ProviderProtocolSchema, type ConnectorProtocol, type ProviderProtocol } from './provider-protocols.ts';
export { PROVIDER_PROTOCOLS, ProviderProtocolSchema, type ConnectorProtocol, type ProviderProtocol };

/** The base path of every connector on the public port: `/connectors/<protocol>/<providerId>/<environment>`. */
export const CONNECTORS_PREFIX = '/connectors';
export const connectorBasePath = (protocol: ConnectorProtocol, providerId: string, environment: string) =>
  `${CONNECTORS_PREFIX}/${protocol}/${providerId}/${environment}`;

// ---- each protocol's settings (what their side gave us, not secret) -----------------------------

/** Hub88: the operator_id Hub88 gave us for this environment, and its Games API's base URL. */
export const Hub88SettingsSchema = Type.Object(
  {
    operatorId: Type.Integer({
      minimum: 1,
      maximum: 2_147_483_647,
      description: "The operator_id Hub88 gave us (per environment: Hub88's staging and production differ).",
    }),
    apiBaseUrl: Type.String({
      format: 'uri',
      pattern: '^https?://',
      maxLength: 2048,
      description: "Hub88's Games API base URL, e.g. https://api.hub88.io (we POST /operator/generic/v2/game/list and /game/url there).",
    }),
    /** The language of the game page Hub88 opens (ISO 639-1); `pt` unless set. */
    lang: Type.Optional(Type.String({ pattern: '^[a-z]{2}$' })),
    /** Where the game page's lobby button goes (optional). */
    lobbyUrl: Type.Optional(Type.String({ format: 'uri', pattern: '^https?://', maxLength: 2048 })),
  },
  { additionalProperties: false, $id: 'Hub88Settings' },
);
export type Hub88Settings = Static<typeof Hub88SettingsSchema>;

/** Evolution: the casino key it gave us for this environment and its host (the launch's User Authentication API). */
export const EvolutionSettingsSchema = Type.Object(
  {
    casinoKey: Type.String({
      minLength: 1,
      maxLength: 64,
      pattern: '^[A-Za-z0-9_.-]+$',
      description: 'The casino key Evolution gave us (per environment).',
    }),
    apiBaseUrl: Type.String({
      format: 'uri',
      pattern: '^https?://',
      maxLength: 2048,
      description: "Evolution's host, e.g. https://yourcasino.evo-games.com (we POST /ua/v1/<casinoKey>/<casinoToken> there at launch).",
    }),
    /** The language of Evolution's game page (ISO 639-1); `pt` unless set. */
    lang: Type.Optional(Type.String({ pattern: '^[a-z]{2}$' })),
    /** Where the game page's lobby button goes (optional). */
    lobbyUrl: Type.Optional(Type.String({ format: 'uri', pattern: '^https?://', maxLength: 2048 })),
  },
  { additionalProperties: false, $id: 'EvolutionSettings' },
);
export type EvolutionSettings = Static<typeof EvolutionSettingsSchema>;

/**
 * Betsy's sportsbook (its partner backend API): nothing of theirs but the partner secret (a shared
 * secret, below). `frameUrl`: the page the player is sent to at launch, with the session token as
 * `token` (the page that starts Betsy's frame with it, docs/connectors-betsy.md "Launch").
 */
export const BetsySettingsSchema = Type.Object(
  {
    frameUrl: Type.String({
      format: 'uri',
      pattern: '^https?://',
      maxLength: 2048,
      description: "The page that opens the sportsbook's frame: the player is sent there with `token` (our session token) and `lang`.",
    }),
    /** The frame's language (ISO 639-1); `pt` unless set. */
    lang: Type.Optional(Type.String({ pattern: '^[a-z]{2}$' })),
  },
  { additionalProperties: false, $id: 'BetsySettings' },
);
export type BetsySettings = Static<typeof BetsySettingsSchema>;

/** Settings per connector protocol (a protocol added here adds its member). */
export const CONNECTOR_SETTINGS_SCHEMAS = {
  hub88: Hub88SettingsSchema,
  evolution: EvolutionSettingsSchema,
  betsy: BetsySettingsSchema,
} as const satisfies Record<ConnectorProtocol, unknown>;
export type ConnectorSettings = Hub88Settings | EvolutionSettings | BetsySettings;
/** Any protocol's settings (the provider's protocol picks which one a change must be: checked by the wallet). */
const AnyConnectorSettingsSchema = Type.Union([Hub88SettingsSchema, EvolutionSettingsSchema, BetsySettingsSchema]);

// ---- shared secrets (a protocol authenticated by a token instead of key pairs) -----------------

/**
 * The shared secrets a protocol keeps per environment, sealed at rest like our private keys, and
 * whose they are: `theirs` verifies their calls (the gateway has it), `ours` goes with our calls to
 * them (the wallet's launch). Evolution: the API token it sends as `authToken`, and the casino token
 * of its User Authentication API.
 */
export const CONNECTOR_SECRETS = {
  hub88: {},
  evolution: { authToken: 'theirs', casinoToken: 'ours' },
  // Betsy: the PARTNER_SECRET its account manager gives us, the HS256 key of its calls' x-sign-jws.
  betsy: { partnerSecret: 'theirs' },
} as const satisfies Record<ConnectorProtocol, Record<string, ConnectorKeyOwner>>;
export const CONNECTOR_SECRET_NAMES = ['authToken', 'casinoToken', 'partnerSecret'] as const;
export type ConnectorSecretName = (typeof CONNECTOR_SECRET_NAMES)[number];

// ---- keys ---------------------------------------------------------------------------------------

/**
 * `theirs`: the aggregator's public key, verifying its calls; `ours`: our key pair, its public key
 * handed to them, its private key (sealed at rest, never answered) signing our calls to them.
 */
export const CONNECTOR_KEY_OWNERS = ['theirs', 'ours'] as const;
export type ConnectorKeyOwner = (typeof CONNECTOR_KEY_OWNERS)[number];
/** `pending`: our new key pair, signing once the rotation's overlap ends; the others as for every key. */
export const CONNECTOR_KEY_STATUSES = ['pending', 'active', 'expiring', 'expired', 'revoked'] as const;

export const ConnectorKeySchema = Type.Object(
  {
    id: Type.String({ description: 'Opaque identifier (ck_...)' }),
    environment: EnvironmentSchema,
    owner: Type.Union(CONNECTOR_KEY_OWNERS.map((o) => Type.Literal(o))),
    status: Type.Union(CONNECTOR_KEY_STATUSES.map((s) => Type.Literal(s))),
    /** SPKI PEM of the public key (ours: what we hand the aggregator). */
    publicKey: Type.String(),
    /** SHA-256 of the public key's DER, hex: the same key at both ends has the same fingerprint. */
    fingerprint: Type.String({ pattern: '^[0-9a-f]{64}$' }),
    /** Ours: when it starts signing (after the rotation's overlap); theirs: when it was added. */
    startsAt: Timestamp,
    expiresAt: Nullable(Timestamp),
    revokedAt: Nullable(Timestamp),
    createdAt: Timestamp,
  },
  { $id: 'ConnectorKey' },
);
export type ConnectorKey = Static<typeof ConnectorKeySchema>;

/** A shared secret of a connector (CONNECTOR_SECRETS): its value is never answered, only a fingerprint. */
export const ConnectorSecretSchema = Type.Object(
  {
    id: Type.String({ description: 'Opaque identifier (cs_...)' }),
    environment: EnvironmentSchema,
    name: Type.String({ description: "The protocol's name for it (Evolution: authToken, casinoToken)." }),
    owner: Type.Union(CONNECTOR_KEY_OWNERS.map((o) => Type.Literal(o))),
    status: Type.Union(CONNECTOR_KEY_STATUSES.map((s) => Type.Literal(s))),
    /** The first 16 hex digits of the value's SHA-256: the same secret at both ends has the same fingerprint. */
    fingerprint: Type.String({ pattern: '^[0-9a-f]{16}$' }),
    startsAt: Timestamp,
    expiresAt: Nullable(Timestamp),
    revokedAt: Nullable(Timestamp),
    createdAt: Timestamp,
  },
  { $id: 'ConnectorSecret' },
);
export type ConnectorSecret = Static<typeof ConnectorSecretSchema>;

/** Hub88's statuses as counted by the connector's health. */
const HealthCounts = Type.Record(Type.String(), Type.Integer({ minimum: 0 }));

/** What the connector answered in the last 24 hours (every gateway replica's counts), for our team. */
export const ConnectorHealthSchema = Type.Object(
  {
    /** When the aggregator last called this connector (any answer), null when it never did. */
    lastCallAt: Nullable(Timestamp),
    calls: Type.Integer({ minimum: 0 }),
    /** Answers by the protocol's status, the successful one included (Hub88: `RS_OK`, `RS_ERROR_…`). */
    byStatus: HealthCounts,
    /** Share of calls answered with a fault of the call or ours (bad signature or syntax, unknown partner, our errors), 0 to 1; player refusals (money, limits) are not faults. */
    errorRate: Type.Number({ minimum: 0, maximum: 1 }),
  },
  { $id: 'ConnectorHealth' },
);
export type ConnectorHealth = Static<typeof ConnectorHealthSchema>;

/** The statuses that count in a Hub88 connector's error rate: the call's or our fault, never a player's refusal. */
export const HUB88_FAULT_STATUSES: ReadonlySet<string> = new Set<(typeof HUB88_STATUSES)[number]>([
  'RS_ERROR_UNKNOWN',
  'RS_ERROR_INVALID_PARTNER',
  'RS_ERROR_INVALID_SIGNATURE',
  'RS_ERROR_WRONG_SYNTAX',
  'RS_ERROR_WRONG_TYPES',
]);

/** Evolution's statuses that count in its error rate: the call's or our fault (bad token or body, our outage), never a player's refusal. */
export const EVOLUTION_FAULT_STATUSES: ReadonlySet<string> = new Set<(typeof EVOLUTION_STATUSES)[number]>([
  'UNKNOWN_ERROR',
  'TEMPORARY_ERROR',
  'INVALID_TOKEN_ID',
  'INVALID_PARAMETER',
]);
/** Betsy's answers that count in its error rate: a bad signature or body, our system error; never a player's refusal. */
export const BETSY_FAULT_STATUSES: ReadonlySet<string> = new Set<BetsyHealthStatus>(['CODE_1', 'CODE_5', 'CODE_100']);
/** Per protocol, the statuses that count in its connector's error rate. */
export const CONNECTOR_FAULT_STATUSES: Record<ConnectorProtocol, ReadonlySet<string>> = {
  hub88: HUB88_FAULT_STATUSES,
  evolution: EVOLUTION_FAULT_STATUSES,
  betsy: BETSY_FAULT_STATUSES,
};

export const ConnectorEnvironmentSchema = Type.Object({
  environment: EnvironmentSchema,
  /** What we hand the aggregator as the wallet's base URL for this environment. */
  endpointUrl: Type.String(),
  /** Null until our team sets them (the protocol's settings: CONNECTOR_SETTINGS_SCHEMAS). */
  settings: Nullable(AnyConnectorSettingsSchema),
  /** Theirs and ours, newest first. */
  keys: Type.Array(ConnectorKeySchema),
  /** The protocol's shared secrets (Evolution's tokens), newest first; never their values. */
  secrets: Type.Array(ConnectorSecretSchema),
  health: ConnectorHealthSchema,
  updatedAt: Nullable(Timestamp),
});

export const ProviderConnectorSchema = Type.Object(
  {
    providerId: Type.String(),
    protocol: ProviderProtocolSchema,
    environments: Type.Array(ConnectorEnvironmentSchema),
  },
  { $id: 'ProviderConnector' },
);
export type ProviderConnector = Static<typeof ProviderConnectorSchema>;

// ---- the admin API ------------------------------------------------------------------------------

const ConnectorParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }), environment: EnvironmentSchema });
const Overlap = Type.Optional(
  Type.Integer({
    minimum: 0,
    maximum: KEY_ROTATION_OVERLAP_MINUTES.max,
    description: 'Minutes the keys in force keep working beside the new one (0: the new one alone at once).',
  }),
);
/** A PEM public key, as the aggregator sends it (SPKI `BEGIN PUBLIC KEY` or PKCS #1 `BEGIN RSA PUBLIC KEY`). */
const PemPublicKey = Type.String({ minLength: 100, maxLength: 4096, pattern: '-----BEGIN (RSA )?PUBLIC KEY-----' });

export const connectorAdminOperations = defineOperations({
  adminGetProviderConnector: {
    id: 'adminGetProviderConnector',
    subject: 'wallet.admin.providers.connector',
    method: 'GET',
    path: '/admin/providers/:id/connector',
    tag: 'Admin',
    summary: "A connector provider's settings, keys and health per environment, and the endpoint URL to hand the aggregator",
    params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }),
    response: ProviderConnectorSchema,
    status: 200,
    errors: ['PROVIDER_NOT_FOUND'],
  },
  adminSetConnectorSettings: {
    id: 'adminSetConnectorSettings',
    subject: 'wallet.admin.providers.connectorSettings',
    method: 'PUT',
    path: '/admin/providers/:id/connector/:environment',
    tag: 'Admin',
    summary:
      "Set a connector's settings for an environment (Hub88: its operator_id and Games API base URL; Evolution: its casino key and host; Betsy: the page that opens its frame)",
    params: ConnectorParams,
    body: Type.Object({ settings: AnyConnectorSettingsSchema }, { additionalProperties: false }),
    response: ProviderConnectorSchema,
    status: 200,
    errors: ['PROVIDER_NOT_FOUND'],
  },
  adminAddConnectorTheirKey: {
    id: 'adminAddConnectorTheirKey',
    subject: 'wallet.admin.providers.connectorTheirKey',
    method: 'POST',
    path: '/admin/providers/:id/connector/:environment/their-keys',
    tag: 'Admin',
    summary: "Upload the aggregator's public key for an environment; with overlapMinutes its keys in force keep verifying that long",
    params: ConnectorParams,
    body: Type.Object({ publicKey: PemPublicKey, overlapMinutes: Overlap }, { additionalProperties: false }),
    response: ConnectorKeySchema,
    status: 201,
    errors: ['PROVIDER_NOT_FOUND'],
  },
  adminRotateConnectorOurKey: {
    id: 'adminRotateConnectorOurKey',
    subject: 'wallet.admin.providers.connectorOurKey',
    method: 'POST',
    path: '/admin/providers/:id/connector/:environment/our-keys',
    tag: 'Admin',
    summary: 'Make a new key pair of ours for an environment (its public key answered to hand the aggregator); it signs once overlapMinutes have passed',
    params: ConnectorParams,
    body: Type.Object({ overlapMinutes: Overlap }, { additionalProperties: false }),
    response: ConnectorKeySchema,
    status: 201,
    errors: ['PROVIDER_NOT_FOUND'],
  },
  adminSetConnectorSecret: {
    id: 'adminSetConnectorSecret',
    subject: 'wallet.admin.providers.connectorSecret',
    method: 'POST',
    path: '/admin/providers/:id/connector/:environment/secrets',
    tag: 'Admin',
    summary:
      'Keep a shared secret the aggregator gave us for an environment (Evolution: authToken, casinoToken; Betsy: partnerSecret), sealed; with overlapMinutes the one in force keeps working that long',
    params: ConnectorParams,
    body: Type.Object(
      {
        name: Type.Union(CONNECTOR_SECRET_NAMES.map((n) => Type.Literal(n))),
        value: Type.String({ minLength: 8, maxLength: 512, pattern: '^[\\x21-\\x7e]+$', description: 'The secret as they gave it (printable, no spaces).' }),
        overlapMinutes: Overlap,
      },
      { additionalProperties: false },
    ),
    response: ConnectorSecretSchema,
    status: 201,
    errors: ['PROVIDER_NOT_FOUND'],
  },
  adminRevokeConnectorKey: {
    id: 'adminRevokeConnectorKey',
    subject: 'wallet.admin.providers.connectorRevokeKey',
    method: 'POST',
    path: '/admin/providers/:id/connector/:environment/keys/:keyId/revoke',
    tag: 'Admin',
    summary: "Revoke one of a connector's keys or shared secrets at once (theirs stops verifying; ours stops signing)",
    params: Type.Object({
      id: Type.String({ minLength: 1, maxLength: 64 }),
      environment: EnvironmentSchema,
      keyId: Type.String({ minLength: 1, maxLength: 64 }),
    }),
    response: Type.Union([ConnectorKeySchema, ConnectorSecretSchema]),
    status: 200,
    errors: ['PROVIDER_NOT_FOUND', 'CREDENTIAL_NOT_FOUND'],
  },
  adminSyncConnectorGames: {
    id: 'adminSyncConnectorGames',
    subject: 'wallet.admin.providers.connectorSyncGames',
    method: 'POST',
    path: '/admin/providers/:id/connector/:environment/sync-games',
    tag: 'Admin',
    summary: "Copy the aggregator's game list into our catalogue (Hub88: /game/list, signed with our key): new games added, names and availability updated",
    params: ConnectorParams,
    response: Type.Object({ added: Type.Integer(), updated: Type.Integer(), disabled: Type.Integer(), total: Type.Integer() }),
    status: 200,
    timeoutMs: 30_000,
    errors: ['PROVIDER_NOT_FOUND', 'PROVIDER_UNAVAILABLE'],
  },
});

// ---- the gateway ↔ wallet messages --------------------------------------------------------------

/** What a gateway needs to answer a connector's call for a provider and environment (cached, dropped with the provider's keys). */
export const ConnectorRecordSchema = Type.Object({
  providerId: Type.String(),
  protocol: ProviderProtocolSchema,
  providerStatus: Type.Union([Type.Literal('enabled'), Type.Literal('disabled')]),
  environment: EnvironmentSchema,
  allowedIps: Type.Array(Type.String()),
  settings: Nullable(AnyConnectorSettingsSchema),
  /** Their public keys verifying calls now (PEM), each with its end (a rotation's overlap). */
  theirKeys: Type.Array(Type.Object({ publicKey: Type.String(), expiresAt: Nullable(Timestamp) })),
  /** Their shared secrets verifying calls now (Evolution's authToken), sealed with SECRETS_MASTER_KEY, each with its end. */
  theirSecrets: Type.Array(Type.Object({ name: Type.String(), sealed: Type.String(), expiresAt: Nullable(Timestamp) })),
});
export type ConnectorRecord = Static<typeof ConnectorRecordSchema>;

/** A provider transaction as a connector may learn of it (a win's or rollback's reference). */
export const ConnectorTransactionSchema = Type.Object({
  transactionId: Type.String(),
  // Issue #59 item 1: a free bet, a promotional credit and a jackpot win are transactions of a provider too.
  kind: Type.Union((['bet', 'win', 'rollback', 'correction', 'free_bet', 'promo_credit', 'jackpot_win'] as const).map((k) => Type.Literal(k))),
  playerId: Type.String(),
  roundId: Type.String(),
  /** A bet rolled back (or one a rollback cancelled before it arrived). */
  rolledBack: Type.Boolean(),
  /** A placeholder of a bet never received (a rollback reached us first). */
  neverReceived: Type.Boolean(),
  /** What it asked, unsigned (a bet's stake, a win's credit), and in which currency. */
  amount: Type.String(),
  currency: Type.String(),
  /** When it was first taken: what a copy of the call that made it is answered with. */
  createdAt: Timestamp,
});

/** A round (bet slip) as a sportsbook connector reads it (connectorMessages.round). */
export const ConnectorRoundSchema = Type.Object({
  roundId: Type.String(),
  playerId: Type.String(),
  currency: Type.String(),
  status: Type.Union([Type.Literal('open'), Type.Literal('settled'), Type.Literal('voided')]),
  staked: Type.String(),
  /** Its wins plus its corrections as asked (a correction's debit the balance did not cover included). */
  payout: Type.String(),
  /** How many corrections it has (the next one's sequence number is this + 1). */
  corrections: Type.Integer({ minimum: 0 }),
  /** Its last transaction's time. */
  lastAt: Timestamp,
});
export type ConnectorRound = Static<typeof ConnectorRoundSchema>;

export const connectorMessages = defineMessages({
  /** The gateway: a provider's connector for an environment, or null (unknown provider). Internal scope. */
  connector: {
    subject: 'wallet.connector.get',
    body: Type.Object({ providerId: Type.String({ minLength: 1, maxLength: 64 }), environment: EnvironmentSchema }),
    reply: Type.Object({ connector: Nullable(ConnectorRecordSchema) }),
  },
  /** A player this provider had a session of (provider scope): its brand, currency and balance, or null. */
  player: {
    subject: 'wallet.connector.player',
    body: Type.Object({ playerId: Type.String({ minLength: 1, maxLength: 64 }) }),
    reply: Type.Object({ player: Nullable(Type.Object({ playerId: Type.String(), brandId: Type.String(), currency: Type.String(), balance: Type.String() })) }),
  },
  /** One of this provider's transactions by its id (provider scope), or null. */
  transaction: {
    subject: 'wallet.connector.transaction',
    body: Type.Object({ transactionId: Type.String({ minLength: 1, maxLength: 256 }) }),
    reply: Type.Object({ transaction: Nullable(ConnectorTransactionSchema) }),
  },
  /**
   * A win that names the bet it pays (Hub88's reference_transaction_uuid), provider scope: the
   * provider wallet's win (wallet.provider.win, the same handler and statement) with the bet as part
   * of its identity, so the same transaction id naming another bet is a conflict.
   */
  win: {
    subject: 'wallet.connector.win',
    body: Type.Object(
      {
        ...ProviderWinBody.properties,
        betTransactionId: Type.String({ minLength: 1, maxLength: 128, pattern: '^[\\x21-\\x7e]+$', description: 'The bet this win pays.' }),
        gameCode: Type.Optional(
          Type.String({
            minLength: 1,
            maxLength: 128,
            pattern: '^[\\x21-\\x7e]+$',
            description: "The win's game, when the connector's call names one: part of its identity.",
          }),
        ),
      },
      { additionalProperties: false },
    ),
    reply: ProviderTransactionResultSchema,
  },
  /**
   * One of this provider's rounds (a bet slip) by id (provider scope), or null: what a sportsbook's
   * settle, resettle, unsettle or rollback of it must know (Betsy names a bet, not a settlement):
   * its status, stake, the payout it was settled with (its wins plus its corrections as asked, a
   * debt included) and how many corrections it has.
   */
  round: {
    subject: 'wallet.connector.round',
    body: Type.Object({ roundId: Type.String({ minLength: 1, maxLength: 256 }) }),
    reply: Type.Object({ round: Nullable(ConnectorRoundSchema) }),
  },
  /**
   * A sportsbook's data update of one of its bets (Betsy's "Bet data update"; provider scope): kept
   * with the bet's earlier ones, no money. `state` is the request's JSON text as sent (its numbers
   * exact); the same state again (its requestId and token aside) is the update already kept,
   * answered with its time. `version` orders the bet's updates (null: older than any with one); `slip` is the state's
   * legs as our slip when they read as one. `update` null: no such bet of the player's.
   */
  betUpdate: {
    subject: 'wallet.connector.betUpdate',
    body: Type.Object(
      {
        roundId: Type.String({ minLength: 1, maxLength: 256 }),
        playerId: Type.String({ minLength: 1, maxLength: 64 }),
        version: Nullable(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
        state: Type.String({ minLength: 2, maxLength: 65_536 }),
        slip: Nullable(BetSlipSchema),
        status: Nullable(Type.String({ maxLength: 64 })),
      },
      { additionalProperties: false },
    ),
    reply: Type.Object({ update: Nullable(Type.Object({ receivedAt: Timestamp })) }),
  },
  /** The gateway's counts of answers since its last report (internal scope), added to the last 24 hours' health. */
  health: {
    subject: 'wallet.connector.health',
    body: Type.Object({
      counts: Type.Array(
        Type.Object({
          providerId: Type.String({ minLength: 1, maxLength: 64 }),
          environment: EnvironmentSchema,
          status: Type.String({ minLength: 1, maxLength: 64 }),
          calls: Type.Integer({ minimum: 1 }),
          lastAt: Timestamp,
        }),
        { maxItems: 10_000 },
      ),
    }),
    reply: Type.Object({ recorded: Type.Integer() }),
  },
});
