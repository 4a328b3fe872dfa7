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

/**
 * The money statements find a provider's transaction by its primary key (provider, transaction id)
 * and update a round by its own (provider, round). Each table also had an index that leads with the
 * provider alone, and before autovacuum's first ANALYZE of a new table the planner priced both the
 * same and took the other: a prepared statement's generic plan then walked every transaction of the
 * provider to find one (2–3 ms a call after 6,000 calls in the bench, and growing), and kept that plan
 * for the life of the connection. Neither index now leads with the provider alone where a key lookup
 * could take it: a round's transactions are found by (round, provider); the open-rounds listing's
 * partial index also names `kind = 'casino'`, which no update of a round says, so only that listing
 * can use it. `provider_transactions_player` went: no query reads a player's provider transactions
 * by it (the extrato reads the ledger; the rounds list reads provider_rounds), and every bet and win
 * paid for its entry.
 */
export class ProvidersReads0003KeyLookupsOnly extends Migration {
  override async up(): Promise<void> {
    this.addSql('drop index if exists wallet.provider_transactions_round');
    this.addSql('create index provider_transactions_round on wallet.provider_transactions (round_id, provider_id, created_at)');
    this.addSql('drop index if exists wallet.provider_transactions_player');
    this.addSql('drop index if exists wallet.provider_rounds_open');
    this.addSql(`create index provider_rounds_open on wallet.provider_rounds (provider_id, opened_at) where status = 'open' and kind = 'casino'`);
  }
}

export const providerReadMigrations = [
  { name: 'ProvidersReads0001Indexes', class: ProvidersReads0001Indexes },
  { name: 'ProvidersReads0002ClearingPerProvider', class: ProvidersReads0002ClearingPerProvider },
  { name: 'ProvidersReads0003KeyLookupsOnly', class: ProvidersReads0003KeyLookupsOnly },
];
