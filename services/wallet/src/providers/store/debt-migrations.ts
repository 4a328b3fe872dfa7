import { Migration } from '@bo/service-kit';

/**
 * Issue #44 item 4: what a correction's debit could not take (the balance did not cover it) is the
 * player's debt to the provider, repaid by the provider's next credits to the player (wins, credit
 * corrections) in the credit's own statement. One row per provider, brand, player and currency:
 * `owed` = incurred − repaid, never below zero. A repayment is a provider transaction row of its
 * own (kind correction, `repays` naming the credit, its id the credit's id + ' repayment': a
 * provider's ids carry no space, so it never meets one of theirs), with its own ledger transaction.
 */
export class Providers0003PlayerDebts extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table wallet.provider_debts (
      provider_id text not null references wallet.providers (id),
      brand_id text not null,
      player_id text not null,
      currency text not null,
      owed numeric(20,2) not null check (owed >= 0),
      incurred numeric(20,2) not null check (incurred >= 0),
      repaid numeric(20,2) not null check (repaid >= 0),
      updated_at timestamptz not null,
      primary key (provider_id, brand_id, player_id, currency),
      check (owed = incurred - repaid)
    )`);
    this.addSql('create index provider_debts_owed on wallet.provider_debts (provider_id, updated_at) where owed > 0');
    this.addSql('alter table wallet.provider_transactions add column repays text');
    this.addSql(`alter table wallet.provider_transactions add constraint provider_transactions_repays_check
      check (repays is null or (kind = 'correction' and moved < 0 and moved = requested))`);
    // Debts recorded before this table: every correction's shortfall (requested − moved).
    this.addSql(`insert into wallet.provider_debts (provider_id, brand_id, player_id, currency, owed, incurred, repaid, updated_at)
      select provider_id, brand_id, player_id, currency, sum(moved - requested), sum(moved - requested), 0, max(created_at)
      from wallet.provider_transactions where kind = 'correction' and moved > requested and brand_id is not null
      group by provider_id, brand_id, player_id, currency`);
  }
}

export const providerDebtMigrations = [{ name: 'Providers0003PlayerDebts', class: Providers0003PlayerDebts }];
