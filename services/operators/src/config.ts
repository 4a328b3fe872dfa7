// The operators service's settings: the kit's base configuration, the master key that seals the
// operators' secrets (the gateway opens the signing secrets with the same key), the default rate
// limit of a new operator, and the console sessions' timeouts.
import { Type, type Static } from '@sinclair/typebox';
import { BaseConfigSchema, DEV_MASTER_KEY, loadConfig, secretKey } from '@bo/service-kit';

export const OperatorsConfigSchema = Type.Composite([
  BaseConfigSchema,
  Type.Object({
    SECRETS_MASTER_KEY: secretKey(DEV_MASTER_KEY),
    DEFAULT_RATE_LIMIT_PER_MINUTE: Type.Integer({ default: 600, minimum: 1 }),
    /** Team console sessions: idle and absolute timeouts. */
    CONSOLE_IDLE_MINUTES: Type.Integer({ default: 30, minimum: 1 }),
    CONSOLE_ABSOLUTE_HOURS: Type.Integer({ default: 12, minimum: 1 }),
  }),
]);
export type OperatorsConfig = Static<typeof OperatorsConfigSchema>;

export function loadOperatorsConfig(env: Record<string, string | undefined> = process.env): OperatorsConfig {
  return loadConfig(OperatorsConfigSchema, env);
}
