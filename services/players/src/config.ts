// The players service's settings: the kit's base configuration (database, NATS, prefix, timeouts,
// logging) and the key of its list cursors (the KYC queue).
import { Type, type Static } from '@sinclair/typebox';
import { BaseConfigSchema, ListCursorConfigSchema } from '@bo/service-kit';

export const PlayersConfigSchema = Type.Composite([BaseConfigSchema, ListCursorConfigSchema]);
export type PlayersConfig = Static<typeof PlayersConfigSchema>;
