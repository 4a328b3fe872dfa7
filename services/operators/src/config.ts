// The operators service's settings: the kit's base configuration, the master key that seals the
// operators' secrets (the gateway opens the signing secrets with the same key), the default rate
// limit of a new operator, the console sessions' timeouts, the one-time passwords' lifetime and the roles that must use TOTP.
import { Type, type Static } from '@sinclair/typebox';
import { BaseConfigSchema, DEV_MASTER_KEY, loadConfig, secretKey } from '@bo/service-kit';
import { ADMIN_ROLES, type AdminRole } from '@bo/contracts';

export const OperatorsConfigSchema = Type.Composite([
  BaseConfigSchema,
  Type.Object({
    SECRETS_MASTER_KEY: secretKey(DEV_MASTER_KEY),
    DEFAULT_RATE_LIMIT_PER_MINUTE: Type.Integer({ default: 600, minimum: 1 }),
    /** Team console sessions: idle and absolute timeouts. */
    CONSOLE_IDLE_MINUTES: Type.Integer({ default: 30, minimum: 1 }),
    CONSOLE_ABSOLUTE_HOURS: Type.Integer({ default: 12, minimum: 1 }),
    /** How long a one-time password (of a new person, or of an admin's reset) signs in, if unused. */
    CONSOLE_ONE_TIME_PASSWORD_HOURS: Type.Integer({ default: 72, minimum: 1 }),
    /**
     * Roles whose people must turn on TOTP before doing anything else in the console, comma-separated
     * (`none` for no role); unset: `admin,finance` with NODE_ENV=production, none otherwise.
     */
    CONSOLE_TOTP_REQUIRED_ROLES: Type.Optional(Type.String({ pattern: `^(none|((${ADMIN_ROLES.join('|')}),)*(${ADMIN_ROLES.join('|')}))$` })),
  }),
]);
export type OperatorsConfig = Static<typeof OperatorsConfigSchema>;

export function loadOperatorsConfig(env: Record<string, string | undefined> = process.env): OperatorsConfig {
  return loadConfig(OperatorsConfigSchema, env);
}

/** The roles that must use TOTP: the setting, or its default for the environment (production: admin and finance). */
export function totpRequiredRoles(config: Pick<OperatorsConfig, 'CONSOLE_TOTP_REQUIRED_ROLES'>, env = process.env): AdminRole[] {
  const setting = config.CONSOLE_TOTP_REQUIRED_ROLES ?? (env.NODE_ENV === 'production' ? 'admin,finance' : 'none');
  return setting === 'none' ? [] : (setting.split(',') as AdminRole[]);
}
