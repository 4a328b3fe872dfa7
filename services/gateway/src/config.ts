import { Type, type Static } from '@sinclair/typebox';
import { BaseConfigSchema, configOf, DEV_MASTER_KEY, loadConfig, secretKey } from '@bo/service-kit/edge';

// The edge keeps no data (issue #43): the kit's base settings without DATABASE_URL.
export const GatewayConfigSchema = Type.Composite([
  Type.Omit(BaseConfigSchema, ['DATABASE_URL']),
  Type.Object({
    PORT: Type.Integer({ default: 3000, minimum: 0, maximum: 65535 }),
    ADMIN_PORT: Type.Integer({ default: 3001, minimum: 0, maximum: 65535 }),
    HOST: Type.String({ default: '127.0.0.1' }),
    ADMIN_HOST: Type.String({ default: '127.0.0.1' }),
    PUBLIC_BASE_URL: Type.String({ default: 'http://127.0.0.1:3000' }),
    /** Secrets: production refuses their development defaults (the kit's production-secrets.ts). */
    ADMIN_TOKEN: secretKey('dev-admin-token-change-me'),
    SECRETS_MASTER_KEY: secretKey(DEV_MASTER_KEY),
    /** Trust X-Forwarded-For from a proxy in front (true, a hop count, or addresses). */
    TRUST_PROXY: Type.String({ default: 'false' }),
    /** The console cookie's lifetime (the operators service's absolute session timeout, set alike there); cookies are Secure unless the admin port is on loopback (override with CONSOLE_COOKIE_SECURE). */
    CONSOLE_ABSOLUTE_HOURS: Type.Integer({ default: 12, minimum: 1 }),
    CONSOLE_COOKIE_SECURE: Type.Optional(Type.Boolean()),
    /** `production`: ADMIN_TOKEN is refused on decisions, and X-Admin-Actor names nobody (a person decides: a console session or a personal token). */
    NODE_ENV: Type.Optional(Type.String()),
    /** Cached credentials are re-read at least this often, so a change is seen within it on every replica. */
    CREDENTIAL_CACHE_TTL_MS: Type.Integer({ default: 1000, minimum: 0 }),
  }),
]);
export type GatewayConfig = Static<typeof GatewayConfigSchema>;

export function loadGatewayConfig(env: Record<string, string | undefined> = process.env): GatewayConfig {
  return loadConfig(GatewayConfigSchema, env);
}

/** Settings given in code (tests, tools): the schema's defaults fill the rest. */
export function gatewayConfigOf(values: Partial<GatewayConfig>): GatewayConfig {
  return configOf(GatewayConfigSchema, values);
}
