// The players service's settings: the kit's base configuration (database, NATS, prefix, timeouts,
// logging), the key of its list cursors (the KYC queue), and the pace of the self-exclusion terms' end.
import { Type, type Static } from '@sinclair/typebox';
import { BaseConfigSchema, ListCursorConfigSchema } from '@bo/service-kit';

export const PlayersConfigSchema = Type.Composite([
  BaseConfigSchema,
  ListCursorConfigSchema,
  Type.Object({
    /** How often the fixed self-exclusion terms that have run out are ended (at most this late). */
    RG_TERMS_INTERVAL_MS: Type.Integer({ minimum: 10, default: 60_000 }),
  }),
]);
export type PlayersConfig = Static<typeof PlayersConfigSchema>;
