// The players service needs nothing beyond the base configuration (database, NATS, prefix,
// timeouts); a schema of its own keeps the place for future settings.
import { BaseConfigSchema, type BaseConfig } from '@bo/service-kit';

export const PlayersConfigSchema = BaseConfigSchema;
export type PlayersConfig = BaseConfig;
