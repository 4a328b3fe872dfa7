// The games module's settings, part of the wallet's configuration (config.ts). Defaults suit local
// runs; production sets GAME_LAUNCH_SECRET and PUBLIC_BASE_URL.
import { Type, type Static } from '@sinclair/typebox';
import { secretKey } from '@bo/service-kit';

export const DEV_GAME_LAUNCH_SECRET = 'dev-only-game-launch-secret-change-me';

export const GamesConfigSchema = Type.Object({
  /** HMAC-SHA256 key of the launch tokens in gameUrl. */
  GAME_LAUNCH_SECRET: secretKey(DEV_GAME_LAUNCH_SECRET),
  /** Public address of the gateway; gameUrl = `${PUBLIC_BASE_URL}/play/<token>` (a trailing slash is ignored). */
  PUBLIC_BASE_URL: Type.String({ default: 'http://127.0.0.1:3000', pattern: '^https?://[^\\s]+$' }),
  GAME_SESSION_TTL_SECONDS: Type.Integer({ default: 1800, minimum: 1, maximum: 86_400 }),
  /** Fictitious balance a sandbox (demo) session starts with. */
  GAME_DEMO_BALANCE: Type.String({ default: '1000.00', pattern: '^[0-9]{1,9}\\.[0-9]{2}$' }),
  /** Base URL of the external game provider (games whose row has no launch_url of its own). */
  GAME_PROVIDER_URL: Type.String({ default: '' }),
  GAME_PROVIDER_TIMEOUT_MS: Type.Integer({ default: 5000, minimum: 50, maximum: 60_000 }),
});
export type GamesConfig = Static<typeof GamesConfigSchema>;
