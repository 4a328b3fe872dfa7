// Connectors (issue #58, docs/connectors.md): a provider's protocol, and per environment its
// connector's settings, keys and health. Money never lives here: a connector's calls are the
// provider wallet's (provider_transactions, rounds, the ledger), under the same transaction ids.
import { Migration } from '@bo/service-kit';

export class ProvidersConnectors0001 extends Migration {
  override async up(): Promise<void> {
    // `native` (/provider/v1) or a connector's protocol; the contracts list the names (a new
    // connector adds its own without a migration).
    this.addSql(`alter table wallet.providers add column if not exists protocol text not null default 'native' check (protocol ~ '^[a-z0-9_]+$')`);
    // What the aggregator gave us for one environment (Hub88: its operator_id, the Games API's
    // base URL), checked against the protocol's schema when our team sets it. Nothing secret.
    this.addSql(`create table wallet.provider_connectors (
      provider_id text not null references wallet.providers (id),
      environment text not null check (environment in ('sandbox', 'production')),
      settings jsonb not null,
      updated_at timestamptz not null default now(),
      primary key (provider_id, environment)
    )`);
    // Their public keys (verifying their calls) and our key pairs (our public key handed to them,
    // the private key sealed with SECRETS_MASTER_KEY, signing our calls). A rotation's overlap:
    // theirs in force end at the overlap's end; our new pair starts signing then.
    this.addSql(`create table wallet.provider_connector_keys (
      id text primary key,
      provider_id text not null references wallet.providers (id),
      environment text not null check (environment in ('sandbox', 'production')),
      owner text not null check (owner in ('theirs', 'ours')),
      public_key text not null,
      fingerprint text not null,
      private_key_sealed text,
      starts_at timestamptz not null,
      expires_at timestamptz,
      revoked_at timestamptz,
      created_at timestamptz not null default now(),
      check ((owner = 'ours') = (private_key_sealed is not null)),
      check (expires_at is null or expires_at >= starts_at)
    )`);
    this.addSql('create index provider_connector_keys_of on wallet.provider_connector_keys (provider_id, environment, owner, starts_at desc)');
    // The answers the gateways gave per hour and status (their counts, reported every few
    // seconds): our team's view of a connector's health. Kept two days.
    this.addSql(`create table wallet.provider_connector_health (
      provider_id text not null references wallet.providers (id),
      environment text not null check (environment in ('sandbox', 'production')),
      hour timestamptz not null,
      status text not null,
      calls bigint not null check (calls >= 0),
      last_at timestamptz not null,
      primary key (provider_id, environment, hour, status)
    )`);
    this.addSql('create index provider_connector_health_hour on wallet.provider_connector_health (hour)');
  }
}

/**
 * The shared secrets of a protocol authenticated by tokens instead of key pairs (Evolution's API
 * token and casino token; contracts' CONNECTOR_SECRETS), sealed with SECRETS_MASTER_KEY as our
 * private keys are, rotated with an overlap (the one in force ends when the overlap does).
 */
export class ProvidersConnectors0002 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table wallet.provider_connector_secrets (
      id text primary key,
      provider_id text not null references wallet.providers (id),
      environment text not null check (environment in ('sandbox', 'production')),
      name text not null check (name ~ '^[A-Za-z]+$'),
      owner text not null check (owner in ('theirs', 'ours')),
      sealed text not null,
      fingerprint text not null,
      starts_at timestamptz not null,
      expires_at timestamptz,
      revoked_at timestamptz,
      created_at timestamptz not null default now(),
      check (expires_at is null or expires_at >= starts_at)
    )`);
    this.addSql('create index provider_connector_secrets_of on wallet.provider_connector_secrets (provider_id, environment, name, starts_at desc)');
  }
}

/**
 * A win may name the bet it pays (a connector's: Hub88's reference_transaction_uuid), kept in
 * bet_transaction_id as part of its identity; a rollback still must name its bet, a bet or a
 * correction names none.
 */
export class ProvidersConnectors0003 extends Migration {
  override async up(): Promise<void> {
    // The first table check of provider_transactions (its name is Postgres's), found by what it says.
    this.addSql(`do $$ declare c text; begin
      select conname into c from pg_constraint
       where conrelid = 'wallet.provider_transactions'::regclass and contype = 'c'
         and pg_get_constraintdef(oid) like '%rollback%' and pg_get_constraintdef(oid) like '%bet_transaction_id IS NOT NULL%';
      if c is not null then execute format('alter table wallet.provider_transactions drop constraint %I', c); end if;
    end $$`);
    this.addSql(`alter table wallet.provider_transactions add constraint provider_transactions_bet_reference
      check ((kind <> 'rollback' or bet_transaction_id is not null) and (bet_transaction_id is null or kind in ('rollback', 'win')))`);
  }
}

/**
 * Issue #66: the game is part of a transaction's identity (Hub88's statuses: a duplicate is the same
 * transaction id with "a different … round, user or game"): the provider's game code of a bet, a
 * free bet, and a win or credit that names one. Null on rows before it (and on calls naming none):
 * not compared then.
 */
export class ProvidersConnectors0004GameCode extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table wallet.provider_transactions add column if not exists game_code text');
  }
}

export const providerConnectorMigrations = [
  { name: 'ProvidersConnectors0001', class: ProvidersConnectors0001 },
  { name: 'ProvidersConnectors0002', class: ProvidersConnectors0002 },
  { name: 'ProvidersConnectors0003', class: ProvidersConnectors0003 },
  { name: 'ProvidersConnectors0004GameCode', class: ProvidersConnectors0004GameCode },
];
