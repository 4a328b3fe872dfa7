// The providers module's tables in schema `wallet` (docs/providers.md). Names start with Providers
// so they never clash with the other modules' migrations in the same bookkeeping table.
// - providers, their credentials (keys by SHA-256, secrets sealed with SECRETS_MASTER_KEY), the
//   operators they serve, and their games (rows of wallet.games with provider_id and game_code);
// - provider sessions: the opaque token (by SHA-256) a provider authenticates a player with;
// - provider rounds (a casino round or a sports bet slip) and provider transactions. A transaction
//   is keyed by (provider, the provider's transaction id): the key that makes every call
//   idempotent. Its money is one ledger transaction whose source names that key.
import { Migration } from '@bo/service-kit';

export class Providers0001Tables extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table wallet.providers (
      id text primary key,
      name text not null unique,
      kind text not null check (kind in ('casino', 'sportsbook')),
      status text not null default 'enabled' check (status in ('enabled', 'disabled')),
      launch_url text check (launch_url is null or launch_url ~ '^https?://'),
      launch_timeout_ms integer not null default 3000 check (launch_timeout_ms between 100 and 30000),
      allowed_ips text[] not null default '{}',
      open_round_limit_minutes integer not null default 60 check (open_round_limit_minutes > 0),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`);
    this.addSql(`create table wallet.provider_credentials (
      id text primary key,
      provider_id text not null references wallet.providers (id),
      environment text not null check (environment in ('sandbox', 'production')),
      key_hash text not null unique,
      key_prefix text not null,
      secret_sealed text not null,
      expires_at timestamptz,
      revoked_at timestamptz,
      created_at timestamptz not null default now()
    )`);
    this.addSql('create index provider_credentials_provider on wallet.provider_credentials (provider_id, created_at)');
    this.addSql(`create table wallet.provider_operators (
      provider_id text not null references wallet.providers (id),
      operator_id text not null,
      enabled_at timestamptz not null default now(),
      primary key (provider_id, operator_id)
    )`);
    // A provider's game is a catalogue row like the built-in ones (launched through the remote
    // adapter), named by the provider's own game code.
    this.addSql('alter table wallet.games add column provider_id text references wallet.providers (id), add column game_code text');
    this.addSql('alter table wallet.games add constraint games_provider_code check ((provider_id is null) = (game_code is null))');
    this.addSql('create unique index games_provider_game_code on wallet.games (provider_id, game_code) where provider_id is not null');
    this.addSql('alter table wallet.games drop constraint if exists games_id_check');
    this.addSql(`alter table wallet.games add constraint games_id_check check (id ~ '^gm_[a-z0-9_]+$')`);

    this.addSql(`create table wallet.provider_sessions (
      id text primary key,
      token_hash text not null unique,
      provider_id text not null references wallet.providers (id),
      game_session_id text not null references wallet.game_sessions (id),
      operator_id text not null,
      brand_id text not null,
      environment text not null check (environment in ('sandbox', 'production')),
      player_id text not null,
      game_id text not null references wallet.games (id),
      currency text not null check (currency ~ '^[A-Z]{3}$'),
      expires_at timestamptz not null,
      created_at timestamptz not null,
      check (expires_at > created_at)
    )`);
    this.addSql(`create table wallet.provider_rounds (
      provider_id text not null references wallet.providers (id),
      round_id text not null,
      kind text not null check (kind in ('casino', 'sports')),
      operator_id text not null,
      brand_id text not null,
      environment text not null check (environment in ('sandbox', 'production')),
      player_id text not null,
      currency text not null,
      game_id text not null references wallet.games (id),
      status text not null default 'open' check (status in ('open', 'settled', 'voided')),
      bets integer not null default 0 check (bets >= 0),
      wins integer not null default 0 check (wins >= 0),
      staked numeric(20,2) not null default 0 check (staked >= 0),
      won numeric(20,2) not null default 0 check (won >= 0),
      corrected numeric(20,2) not null default 0,
      slip jsonb,
      outcome text check (outcome is null or outcome in ('won', 'lost', 'void', 'cashout', 'half_won', 'half_lost')),
      opened_at timestamptz not null,
      closed_at timestamptz,
      primary key (provider_id, round_id),
      check ((status = 'open') = (closed_at is null))
    )`);
    this.addSql(`create index provider_rounds_player on wallet.provider_rounds (brand_id, player_id, opened_at desc)`);
    this.addSql(`create index provider_rounds_open on wallet.provider_rounds (provider_id, opened_at) where status = 'open'`);
    // One row per provider call that was accepted. A rollback of a bet never received also writes a
    // placeholder bet row (kind bet, amount 0, rolled back): the bet arriving later finds its id
    // taken and is refused. moved: what the call moved on the player (signed); requested: what the
    // provider asked (a correction's debit can be more than the balance).
    this.addSql(`create table wallet.provider_transactions (
      environment text not null check (environment in ('sandbox', 'production')),
      provider_id text not null references wallet.providers (id),
      transaction_id text not null,
      id text not null unique,
      kind text not null check (kind in ('bet', 'win', 'rollback', 'correction')),
      round_id text not null,
      bet_transaction_id text,
      brand_id text,
      player_id text not null,
      currency text not null,
      requested numeric(20,2) not null,
      moved numeric(20,2) not null,
      balance_after numeric(20,2) not null,
      entry_id text,
      rolled_back_by text,
      never_received boolean not null default false,
      created_at timestamptz not null,
      primary key (provider_id, transaction_id),
      check ((kind = 'rollback') = (bet_transaction_id is not null)),
      check (never_received = false or (kind = 'bet' and moved = 0 and rolled_back_by is not null)),
      check ((entry_id is null) = (moved = 0))
    )`);
    this.addSql('create index provider_transactions_round on wallet.provider_transactions (provider_id, round_id, created_at)');
    this.addSql('create index provider_transactions_player on wallet.provider_transactions (player_id, created_at desc)');
    // A condition of a one-statement posting that must hold on a row the statement locked (the
    // round, the bet): false aborts the whole statement, so nothing of it is written.
    this.addSql(`create function wallet.must(ok boolean, what text) returns boolean language plpgsql as $$
      begin
        if ok is not true then raise exception using errcode = 'P0001', message = 'must:' || what; end if;
        return true;
      end $$`);
    this.addSql(`alter table wallet.accounts drop constraint accounts_kind_check`);
    this.addSql(`alter table wallet.accounts add constraint accounts_kind_check
      check (kind in ('player', 'deposit_clearing', 'payout_clearing', 'game_clearing', 'provider_clearing'))`);
  }
}

export const providerMigrations = [{ name: 'Providers0001Tables', class: Providers0001Tables }];

/**
 * The prize clock (issue #46 item 3; Portaria SPA/MF 615/2024, art. 7 §4): a win that names when its
 * event ended records it, the prize's deadline (120 minutes after) and whether the credit met it
 * (its own statement's time against the deadline). A win without the event's end, a 0.00 win (a lost
 * bet: no prize) and the other kinds leave the three null.
 */
export class ProvidersPrizeClock0001 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table wallet.provider_transactions add column if not exists event_ended_at timestamptz,
      add column if not exists prize_due_at timestamptz, add column if not exists prize_on_time boolean`);
    this.addSql(`alter table wallet.provider_transactions add constraint provider_transactions_prize_clock
      check ((event_ended_at is null) = (prize_due_at is null) and (prize_due_at is null) = (prize_on_time is null) and (prize_due_at is null or kind = 'win'))`);
    // Our team's look at late prizes (docs/runbook.md, PrizeCreditsLate): few rows, by time.
    this.addSql('create index if not exists provider_transactions_late_prizes on wallet.provider_transactions (created_at) where prize_on_time = false');
  }
}

export const prizeClockMigrations = [{ name: 'ProvidersPrizeClock0001', class: ProvidersPrizeClock0001 }];
