// Wallet configuration: the base settings plus the key that signs ledger cursors.
import { Type, type Static } from '@sinclair/typebox';
import { BaseConfigSchema, type BaseConfig } from '@bo/service-kit';

/** Only for local runs and tests; production sets LEDGER_CURSOR_SECRET. */
export const DEV_LEDGER_CURSOR_SECRET = 'dev-only-ledger-cursor-secret-change-me';

export const WalletConfigSchema = Type.Composite([BaseConfigSchema, Type.Object({
  LEDGER_CURSOR_SECRET: Type.String({ default: DEV_LEDGER_CURSOR_SECRET, minLength: 16 }),
  /** How often each replica rolls new clearing entries into the stored balances (docs/money.md). */
  CLEARING_ROLLUP_MS: Type.Integer({ default: 1000, minimum: 10, maximum: 3_600_000 }),
})]);
export type WalletConfig = Static<typeof WalletConfigSchema>;

/** The ledger's settings from whatever config the service was started with (tests pass the base one). */
export function ledgerSettings(config: BaseConfig): { cursorSecret: string; rollupMs: number } {
  const secret = (config as Partial<WalletConfig>).LEDGER_CURSOR_SECRET;
  const rollupMs = (config as Partial<WalletConfig>).CLEARING_ROLLUP_MS;
  return { cursorSecret: secret && secret.length >= 16 ? secret : DEV_LEDGER_CURSOR_SECRET, rollupMs: rollupMs ?? 1000 };
}
