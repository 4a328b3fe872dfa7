// The compliance service's settings: the kit's base configuration, the key of its list cursors
// (the case queue), and how long it trusts an operator's compliance profile before asking again.
import { Type, type Static } from '@sinclair/typebox';
import { BaseConfigSchema, ListCursorConfigSchema } from '@bo/service-kit';

export const ComplianceConfigSchema = Type.Composite([
  BaseConfigSchema,
  ListCursorConfigSchema,
  Type.Object({
    /**
     * How long the watch reuses an operator's profile (off or br-spa) before asking the players
     * service again: switching an operator to br-spa takes effect on its events within this time.
     */
    PROFILE_CACHE_MS: Type.Integer({ minimum: 0, default: 5000 }),
    /** How long an event handed to a watch replica may stay unacknowledged (a replica that died holding it) before another gets it. */
    WATCH_ACK_WAIT_MS: Type.Integer({ minimum: 1000, default: 30_000 }),
  }),
]);
export type ComplianceConfig = Static<typeof ComplianceConfigSchema>;
