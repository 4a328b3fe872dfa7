// The gateway's schema of before, for the test of the move into the operators service
// (operators-move.test.ts): the gateway's migrations 0001 to 0007 as they shipped. The gateway no
// longer opens a database (issue #43), so they live here, as the fixture of that test, only.
import { WEBHOOK_ENDPOINT_CHANGED } from '@bo/contracts';
import { Migration, outboxTableSql } from '@bo/service-kit';

class Gateway0001Init extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table gateway.operators (
      id text primary key,
      name text not null,
      status text not null check (status in ('active', 'suspended')),
      rate_limit_per_minute integer not null check (rate_limit_per_minute > 0),
      allowed_ips jsonb not null default '[]',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`);
    this.addSql(`create table gateway.brands (
      id text primary key,
      operator_id text not null references gateway.operators(id),
      name text not null,
      environment text not null check (environment in ('sandbox', 'production')),
      currency text not null,
      -- The webhook endpoint of this environment. The webhooks service keeps its own sealed copy
      -- for delivery; this one is the issuer's, pushed again until webhook_synced_at is set.
      webhook_url text,
      webhook_secret_sealed text not null,
      webhook_synced_at timestamptz,
      created_at timestamptz not null default now(),
      unique (operator_id, environment)
    )`);
    // Keys are looked up by their SHA-256; the secret is sealed (AES-GCM under SECRETS_MASTER_KEY).
    this.addSql(`create table gateway.credentials (
      key_hash text primary key,
      key_prefix text not null,
      operator_id text not null references gateway.operators(id),
      brand_id text not null references gateway.brands(id),
      environment text not null check (environment in ('sandbox', 'production')),
      secret_sealed text not null,
      revoked_at timestamptz,
      created_at timestamptz not null default now()
    )`);
    this.addSql(`create table gateway.idempotency_keys (
      operator_id text not null,
      environment text not null,
      idempotency_key text not null,
      fingerprint text not null,
      state text not null check (state in ('in_progress', 'completed')),
      status integer,
      headers jsonb,
      body text,
      locked_until timestamptz not null,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      primary key (operator_id, environment, idempotency_key)
    )`);
    this.addSql(`create index idempotency_keys_expiry on gateway.idempotency_keys (expires_at)`);
    this.addSql(`create table gateway.audit_log (
      id text primary key,
      actor text not null,
      action text not null,
      target text not null,
      before jsonb,
      after jsonb,
      request_id text not null,
      at timestamptz not null default now()
    )`);
    this.addSql(`create index audit_log_target on gateway.audit_log (target, at desc)`);
  }
}

/** Our team: people with a role and a slow password hash, and named, revocable service tokens. */
class Gateway0002Team extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table gateway.team_members (
      id text primary key,
      email text not null,
      role text not null check (role in ('compliance', 'finance', 'support', 'admin')),
      password_hash text not null,
      created_at timestamptz not null default now(),
      disabled_at timestamptz
    )`);
    this.addSql(`create unique index team_members_email on gateway.team_members (lower(email))`);
    this.addSql(`create table gateway.service_tokens (
      id text primary key,
      name text not null unique,
      role text not null check (role in ('compliance', 'finance', 'support', 'admin')),
      secret_hash text not null unique,
      created_at timestamptz not null default now(),
      revoked_at timestamptz,
      last_used_at timestamptz
    )`);
  }
}

/** Browser sessions of the team console, and the lock-out counters of sign-in. */
class Gateway0003ConsoleSessions extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table gateway.team_members add column failed_sign_ins integer not null default 0, add column locked_until timestamptz`);
    this.addSql(`create table gateway.console_sessions (
      token_hash text primary key,
      member_id text not null references gateway.team_members (id),
      csrf_token text not null,
      created_at timestamptz not null default now(),
      last_seen_at timestamptz not null default now(),
      expires_at timestamptz not null
    )`);
    this.addSql(`create index console_sessions_member on gateway.console_sessions (member_id)`);
  }
}

/**
 * Endpoint changes reach the webhooks service as internal events written in the transaction of
 * the change (operators/endpoint-events.ts), instead of a loop pushing unsynced brands: the
 * gateway's own outbox, and a version per endpoint. Every existing endpoint is sent once.
 */
class Gateway0004EndpointEvents extends Migration {
  override async up(): Promise<void> {
    this.addSql(outboxTableSql('gateway'));
    this.addSql('alter table gateway.brands add column webhook_version integer not null default 1, drop column webhook_synced_at');
    this.addSql(`insert into gateway.outbox (event_id, subject_type, environment, operator_id, brand_id, payload)
      select e.id, '${WEBHOOK_ENDPOINT_CHANGED}', e.environment, e.operator_id, e.brand_id,
        json_build_object('id', e.id, 'type', '${WEBHOOK_ENDPOINT_CHANGED}', 'createdAt', to_char(now() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
          'data', json_build_object('operatorId', e.operator_id, 'environment', e.environment, 'brandId', e.brand_id, 'url', e.webhook_url,
            'secretSealed', e.webhook_secret_sealed, 'version', e.webhook_version))::text
      from (select 'evt_' || replace(gen_random_uuid()::text, '-', '') as id, b.operator_id, b.environment, b.id as brand_id,
              b.webhook_url, b.webhook_secret_sealed, b.webhook_version from gateway.brands b) e`);
  }
}

/** API 1.2.0: a rotated webhook secret keeps signing, next to the new one, until its overlap ends. */
class Gateway0005WebhookSecretRotation extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table gateway.brands
      add column webhook_previous_secret_sealed text,
      add column webhook_previous_secret_expires_at timestamptz`);
  }
}

/** The console's optional TOTP second factor: the secret sealed at rest, the last time step used (no replay). */
class Gateway0006SecondFactor extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table gateway.team_members add column totp_secret_sealed text, add column totp_pending_sealed text,
      add column totp_enabled_at timestamptz, add column totp_last_step bigint`);
  }
}

/**
 * Operator keys can be rotated and revoked: each credential gets a public id (what our team and the
 * operator's webhook name it by) and an end set by a rotation. Keys issued before keep no end.
 */
class Gateway0007CredentialRotation extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table gateway.credentials add column id text, add column expires_at timestamptz');
    this.addSql(`update gateway.credentials set id = 'cred_' || replace(gen_random_uuid()::text, '-', '')`);
    this.addSql('alter table gateway.credentials alter column id set not null');
    this.addSql('create unique index credentials_id on gateway.credentials (id)');
    this.addSql('create index credentials_operator on gateway.credentials (operator_id, environment)');
  }
}

/** The gateway's migrations 0001 to 0007, in their order: the schema as it was before the operators service. */
export const gatewaySchemaOfBefore = [
  { name: 'Gateway0001Init', class: Gateway0001Init },
  { name: 'Gateway0002Team', class: Gateway0002Team },
  { name: 'Gateway0003ConsoleSessions', class: Gateway0003ConsoleSessions },
  { name: 'Gateway0004EndpointEvents', class: Gateway0004EndpointEvents },
  { name: 'Gateway0005WebhookSecretRotation', class: Gateway0005WebhookSecretRotation },
  { name: 'Gateway0006SecondFactor', class: Gateway0006SecondFactor },
  { name: 'Gateway0007CredentialRotation', class: Gateway0007CredentialRotation },
];
