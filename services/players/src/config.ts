// The players service needs nothing beyond the kit's base configuration (database, NATS, prefix,
// timeouts, logging); a schema of its own keeps the place for its settings.
import { BaseConfigSchema, type BaseConfig } from '@bo/service-kit';

export const PlayersConfigSchema = BaseConfigSchema;
export type PlayersConfig = BaseConfig;
