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

export const providerConnectorMigrations = [{ name: 'ProvidersConnectors0001', class: ProvidersConnectors0001 }];
