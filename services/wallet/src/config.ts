// Wallet configuration: the kit's base settings, the ledger's (the key that signs transaction-list
// cursors, the clearing roll-up's pace) and the games module's (games/config.ts).
import { Type, type Static } from '@sinclair/typebox';
import { BaseConfigSchema, DEV_MASTER_KEY, secretKey } from '@bo/service-kit';
import { GamesConfigSchema } from './games/config.ts';
import { UnclaimedConfigSchema } from './unclaimed/config.ts';

/** Only for local runs and tests; production sets LEDGER_CURSOR_SECRET. */
export const DEV_LEDGER_CURSOR_SECRET = 'dev-only-ledger-cursor-secret-change-me';

export const WalletConfigSchema = Type.Composite([
  BaseConfigSchema,
  GamesConfigSchema,
  UnclaimedConfigSchema,
  Type.Object({
    LEDGER_CURSOR_SECRET: secretKey(DEV_LEDGER_CURSOR_SECRET),
    /** Seals the game providers' signing secrets at rest (docs/providers.md); the gateway holds the same key to open them. */
    SECRETS_MASTER_KEY: secretKey(DEV_MASTER_KEY),
    /** How often each replica rolls new clearing entries into the stored balances (docs/money.md). */
    CLEARING_ROLLUP_MS: Type.Integer({ default: 1000, minimum: 10, maximum: 3_600_000 }),
  }),
]);
export type WalletConfig = Static<typeof WalletConfigSchema>;
