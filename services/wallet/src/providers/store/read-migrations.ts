// Indexes of what operators, our team and the regulator file read of providers' play (issue #44,
// items 6 and 7), in a migration of their own after the module's tables (store/migrations.ts).
import { Migration } from '@bo/service-kit';

export class ProvidersReads0001Indexes extends Migration {
  override async up(): Promise<void> {
    // The daily regulator file: a brand's provider transactions of a day, by time then id.
    this.addSql('create index provider_transactions_brand_time on wallet.provider_transactions (brand_id, created_at, id)');
    // A player's rounds, newest first, paged by (opened_at, provider, round).
    this.addSql('drop index if exists wallet.provider_rounds_player');
    // Our team's daily report: the clearing accounts with providers, without a scan of every player's account.
    this.addSql(`create index accounts_provider_clearing on wallet.accounts (id) where kind = 'provider_clearing'`);
    this.addSql('create index provider_rounds_player on wallet.provider_rounds (brand_id, player_id, opened_at desc, provider_id desc, round_id desc)');
  }
}

/**
 * A brand's clearing account with each provider (acct:provider_clearing:<brand>:<provider>:<currency>):
 * the one-clearing-account-per-brand-kind-currency index made the second provider's account a
 * silent `on conflict do nothing`, and its first bet failed on the entries' foreign key. The
 * brand-wide clearing accounts keep their index; a provider's is unique by its id.
 */
export class ProvidersReads0002ClearingPerProvider extends Migration {
  override async up(): Promise<void> {
    this.addSql('drop index if exists wallet.accounts_clearing_unique');
    this.addSql(`create unique index accounts_clearing_unique on wallet.accounts (brand_id, kind, currency) where kind not in ('player', 'provider_clearing')`);
  }
}

export const providerReadMigrations = [
  { name: 'ProvidersReads0001Indexes', class: ProvidersReads0001Indexes },
  { name: 'ProvidersReads0002ClearingPerProvider', class: ProvidersReads0002ClearingPerProvider },
];
