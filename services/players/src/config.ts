// The players service's settings: the kit's base configuration (database, NATS, prefix, timeouts,
// logging), the key of its list cursors (the KYC queue), and the br-spa eligibility rules'
// registry and periods (docs/eligibility.md), and the pace of the self-exclusion terms' end.
import { Type, type Static } from '@sinclair/typebox';
import { BaseConfigSchema, ListCursorConfigSchema, providerSecret } from '@bo/service-kit';

/** The gov.br page of the Plataforma Centralizada de Autoexclusão (in service since 10 December 2025). */
export const DEFAULT_CENTRAL_SELF_EXCLUSION_URL = 'https://www.gov.br/autoexclusaoapostas';

export const EligibilityConfigSchema = Type.Object({
  /**
   * Who answers the impediment checks of production brands: `simulator` (no network, the
   * default) or `spa` (the SPA's registry over HTTPS, SPA_* below). Sandbox brands always ask the simulator.
   */
  IMPEDIMENT_REGISTRY: Type.Union([Type.Literal('simulator'), Type.Literal('spa')], { default: 'simulator' }),
  /** The SPA registry's base URL (https://…), required with IMPEDIMENT_REGISTRY=spa. */
  SPA_BASE_URL: Type.Optional(Type.String({ minLength: 1 })),
  /** The operator's SPA credential (a secret: from the Secret, never logged), required with IMPEDIMENT_REGISTRY=spa. */
  SPA_TOKEN: providerSecret(),
  /** Per attempt. */
  SPA_TIMEOUT_MS: Type.Integer({ default: 3000, minimum: 100 }),
  /** Further attempts after an outage answer (5xx, timeout, network). */
  SPA_RETRIES: Type.Integer({ default: 2, minimum: 0, maximum: 10 }),
  /** The simulator answers every question `unavailable` (an outage drill). */
  IMPEDIMENT_SIMULATOR_DOWN: Type.Boolean({ default: false }),
  /** The simulator waits this long before each answer. */
  IMPEDIMENT_SIMULATOR_LATENCY_MS: Type.Integer({ default: 0, minimum: 0 }),
  /** An existing player whose last successful check is younger than this may go on while the registry is down. */
  IMPEDIMENT_GRACE_DAYS: Type.Integer({ default: 15, minimum: 0 }),
  /** After a hit, withdrawals stay open this long. */
  IMPEDIMENT_WITHDRAWAL_DAYS: Type.Integer({ default: 2, minimum: 0 }),
  /** After a hit, the player is closed (`encerrado`) this long after. */
  IMPEDIMENT_CLOSE_DAYS: Type.Integer({ default: 3, minimum: 0 }),
  /** Every active br-spa player is checked again at least this often (the sweep). */
  IMPEDIMENT_SWEEP_EVERY_DAYS: Type.Integer({ default: 15, minimum: 1 }),
  /** CPFs per registry question in a sweep (one committed step each). */
  IMPEDIMENT_SWEEP_BATCH: Type.Integer({ default: 100, minimum: 1, maximum: 1000 }),
  /** How often each replica looks for sweep and closing work. */
  IMPEDIMENT_LOOP_MS: Type.Integer({ default: 60_000, minimum: 10 }),
});

export const PlayersConfigSchema = Type.Composite([
  BaseConfigSchema,
  ListCursorConfigSchema,
  EligibilityConfigSchema,
  Type.Object({
    /** How often the fixed self-exclusion terms that have run out are ended (at most this late). */
    RG_TERMS_INTERVAL_MS: Type.Integer({ minimum: 10, default: 60_000 }),
    /** br-spa: how often the players whose registration lacks data (or completed it) are announced to the operator (issue #60). */
    REGISTRATION_NOTICE_INTERVAL_MS: Type.Integer({ minimum: 10, default: 60_000 }),
    /**
     * br-spa: the link to the SPA's central self-exclusion platform in every responsible-gaming view
     * (IN SPA/MF 31/2025), unless the operator's compliance settings name their own (issue #46 item 4).
     */
    CENTRAL_SELF_EXCLUSION_URL: Type.String({ default: DEFAULT_CENTRAL_SELF_EXCLUSION_URL, pattern: '^https://', maxLength: 2048 }),
    /** How often data requests a service did not answer are tried again and the retention sweep runs (issue #69). */
    PRIVACY_LOOP_MS: Type.Integer({ minimum: 10, default: 300_000 }),
    /** Players per retention sweep step (each anonymised in every service). */
    RETENTION_SWEEP_BATCH: Type.Integer({ minimum: 1, maximum: 1000, default: 50 }),
  }),
]);
export type PlayersConfig = Static<typeof PlayersConfigSchema>;
