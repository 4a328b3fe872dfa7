// Issue #59 items 1-3 (docs/providers.md, "Free bets, promotions and jackpots"; docs/money.md,
// "Provider-funded credits", "Reconciliation with a provider", "What the brand owes a provider"):
// - provider transactions of three more kinds: `free_bet` (a bet the provider funds: nothing taken
//   from the player), `promo_credit` and `jackpot_win` (credits with no bet), the provider's
//   campaign (reward, promotion or jackpot) and a bet's jackpot contribution; a round is funded by
//   the player or, for free bets, by the provider, never both;
// - the provider's revenue share, with its history (each change a row with its effective month);
// - the provider's daily statements (their lines, normalised) and what reconciling a day found.
import { Migration } from '@bo/service-kit';

export class ProvidersFunded0001 extends Migration {
  override async up(): Promise<void> {
    // The kind's column check (Postgres's name for it) gives way to one naming the seven kinds.
    this.addSql('alter table wallet.provider_transactions drop constraint if exists provider_transactions_kind_check');
    this.addSql(`alter table wallet.provider_transactions
      add column if not exists provider_funded boolean not null default false,
      add column if not exists campaign_id text,
      add column if not exists promotion_type text,
      add column if not exists jackpot_contribution numeric(20,2)`);
    this.addSql(`alter table wallet.provider_transactions add constraint provider_transactions_kind
      check (kind in ('bet', 'win', 'rollback', 'correction', 'free_bet', 'promo_credit', 'jackpot_win'))`);
    // A free bet takes nothing from the player: no money, no ledger transaction, funded by the provider.
    this.addSql(`alter table wallet.provider_transactions add constraint provider_transactions_free_bet
      check (kind <> 'free_bet' or (moved = 0 and entry_id is null and provider_funded and requested < 0))`);
    this.addSql(`alter table wallet.provider_transactions add constraint provider_transactions_promotion
      check ((promotion_type is not null) = (kind = 'promo_credit')
             and (promotion_type is null or promotion_type in ('tournament_prize', 'promo_win', 'cashback', 'free_round_winnings'))
             and (kind not in ('promo_credit', 'jackpot_win') or (campaign_id is not null and moved > 0 and moved <= requested)))`);
    // A bet's contribution to the provider's jackpots is part of its stake.
    this.addSql(`alter table wallet.provider_transactions add constraint provider_transactions_jackpot_contribution
      check (jackpot_contribution is null or (kind = 'bet' and jackpot_contribution >= 0 and jackpot_contribution <= -requested))`);
    this.addSql(`alter table wallet.provider_rounds add column if not exists funding text not null default 'player' check (funding in ('player', 'provider'))`);
    // No index of its own: the month statement and the reads by time go brand by brand on
    // (brand_id, created_at, id), the brands found from the provider's clearing accounts. A new index
    // would cost every bet an entry, and one leading with the provider alone may take a key lookup's
    // plan (store/read-migrations.ts, ProvidersReads0003KeyLookupsOnly).
  }
}

export class ProvidersRevenueShares0001 extends Migration {
  override async up(): Promise<void> {
    // Each change is a row (the history): the share in force for a month is the latest row set for
    // a month at or before it. A share changes from the first day of a month (an invoice's month).
    this.addSql(`create table wallet.provider_revenue_shares (
      id text primary key,
      provider_id text not null references wallet.providers (id),
      effective_from date not null check (extract(day from effective_from) = 1),
      share_percent numeric(5,2) not null check (share_percent >= 0 and share_percent <= 100),
      reason text not null check (reason ~ '\\S'),
      set_by text not null,
      created_at timestamptz not null default clock_timestamp()
    )`);
    this.addSql('create index provider_revenue_shares_of on wallet.provider_revenue_shares (provider_id, effective_from desc, created_at desc)');
  }
}

export class ProvidersStatements0001 extends Migration {
  override async up(): Promise<void> {
    // How a provider's daily statement reads (their column or member names, their kinds and
    // statuses, their amounts' unit, their day's zone): our team sets it per provider.
    this.addSql(`create table wallet.provider_statement_mappings (
      provider_id text primary key references wallet.providers (id),
      mapping jsonb not null,
      updated_at timestamptz not null default now()
    )`);
    // A statement of a day, in parts (each uploaded, or fetched from the provider's API, on its own;
    // a part uploaded again replaces its lines). Lines normalised by the mapping.
    this.addSql(`create table wallet.provider_statements (
      id text primary key,
      provider_id text not null references wallet.providers (id),
      environment text not null check (environment in ('sandbox', 'production')),
      statement_date date not null,
      part integer not null check (part between 1 and 1000),
      source text not null check (source in ('upload', 'hub88')),
      format text not null check (format in ('csv', 'json')),
      lines integer not null check (lines >= 0),
      uploaded_by text not null,
      uploaded_at timestamptz not null default now(),
      unique (provider_id, environment, statement_date, part)
    )`);
    this.addSql(`create table wallet.provider_statement_lines (
      statement_id text not null references wallet.provider_statements (id) on delete cascade,
      line integer not null,
      provider_id text not null,
      environment text not null,
      statement_date date not null,
      transaction_id text not null,
      kind text not null,
      amount numeric(20,2) not null,
      currency text not null,
      status text not null check (status in ('ok', 'rolled_back')),
      player_id text,
      round_id text,
      at timestamptz,
      primary key (statement_id, line)
    )`);
    this.addSql('create index provider_statement_lines_transaction on wallet.provider_statement_lines (provider_id, environment, transaction_id)');
    this.addSql('create index provider_statement_lines_day on wallet.provider_statement_lines (provider_id, environment, statement_date)');
    // What reconciling a day found: its counts, and each difference with the transaction ids.
    this.addSql(`create table wallet.provider_reconciliations (
      provider_id text not null references wallet.providers (id),
      environment text not null check (environment in ('sandbox', 'production')),
      statement_date date not null,
      time_zone text not null,
      matched integer not null,
      ours_only integer not null,
      theirs_only integer not null,
      amount_differs integer not null,
      status_differs integer not null,
      ties boolean not null,
      reconciled_at timestamptz not null,
      primary key (provider_id, environment, statement_date)
    )`);
    this.addSql(`create table wallet.provider_reconciliation_differences (
      provider_id text not null,
      environment text not null,
      statement_date date not null,
      transaction_id text not null,
      category text not null check (category in ('ours_only', 'theirs_only', 'amount_differs', 'status_differs')),
      fields text[] not null default '{}',
      ours jsonb,
      theirs jsonb,
      primary key (provider_id, environment, statement_date, transaction_id),
      foreign key (provider_id, environment, statement_date) references wallet.provider_reconciliations (provider_id, environment, statement_date) on delete cascade
    )`);
  }
}

/**
 * Records are kept five years (docs/aml.md; test/e2e/records-retention.test.ts): a part of a day's
 * statement uploaded again no longer deletes the earlier one, it marks it superseded (when, and by
 * which part), its lines kept; a day reconciled again marks the differences it found before
 * superseded instead of deleting them. What is read (the day's lines, its differences) is the
 * current rows only: one current part per (provider, environment, day, part), one current
 * difference per transaction.
 */
export class ProvidersStatements0002KeepSuperseded extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table wallet.provider_statements
      add column if not exists superseded_at timestamptz,
      add column if not exists superseded_by text references wallet.provider_statements (id),
      add constraint provider_statements_superseded check ((superseded_at is null) = (superseded_by is null))`);
    // Postgres's name for the table's unique (provider_id, environment, statement_date, part).
    this.addSql('alter table wallet.provider_statements drop constraint if exists provider_statements_provider_id_environment_statement_date__key');
    this.addSql(`create unique index provider_statements_current on wallet.provider_statements (provider_id, environment, statement_date, part)
      where superseded_at is null`);
    this.addSql(`alter table wallet.provider_reconciliation_differences
      add column if not exists id bigint generated always as identity,
      add column if not exists superseded_at timestamptz`);
    this.addSql('alter table wallet.provider_reconciliation_differences drop constraint if exists provider_reconciliation_differences_pkey');
    this.addSql('alter table wallet.provider_reconciliation_differences add primary key (id)');
    this.addSql(`create unique index provider_reconciliation_differences_current
      on wallet.provider_reconciliation_differences (provider_id, environment, statement_date, transaction_id) where superseded_at is null`);
  }
}

export const providerMoneyMigrations = [
  { name: 'ProvidersFunded0001', class: ProvidersFunded0001 },
  { name: 'ProvidersRevenueShares0001', class: ProvidersRevenueShares0001 },
  { name: 'ProvidersStatements0001', class: ProvidersStatements0001 },
  { name: 'ProvidersStatements0002KeepSuperseded', class: ProvidersStatements0002KeepSuperseded },
];
