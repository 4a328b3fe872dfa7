import { Migration } from '@bo/service-kit';
import { SANDBOX_PROVIDER } from '@bo/contracts';

/**
 * The built-in sandbox provider and its game (docs/providers.md, "The built-in sandbox provider"):
 * rows like a registered provider's, so its bets go through the same provider wallet. It has no
 * keys and no launch URL: its game page is ours (the gateway's /play/sandbox-provider), and the
 * catalogue offers it to sandbox brands only (games' store/catalogue.ts).
 */
export class Providers0004SandboxProvider extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `insert into wallet.providers (id, name, kind, status) values ('${SANDBOX_PROVIDER.id}', 'Sandbox provider (built-in)', 'casino', 'enabled')
       on conflict (id) do nothing`,
    );
    this.addSql(
      `insert into wallet.games (id, name, provider, category, kind, adapter, enabled, sort_order, provider_id, game_code)
       values ('${SANDBOX_PROVIDER.gameId}', 'Sandbox Slot (provider wallet)', 'Sandbox provider (built-in)', 'slots', 'external', 'remote', true, 900,
               '${SANDBOX_PROVIDER.id}', '${SANDBOX_PROVIDER.gameCode}')
       on conflict (id) do nothing`,
    );
  }
}

export const providerSandboxMigrations = [{ name: 'Providers0004SandboxProvider', class: Providers0004SandboxProvider }];
