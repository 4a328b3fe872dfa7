// Schema `operators`, listed in code and run on start. The tables are the ORM's: their migrations
// are generated from the entities (scripts/create-migration.ts); the kit's outbox is the kit's;
// the move of the data the gateway kept before this service existed is written by hand.
import { kitMigration, kitTables, Migration } from '@bo/service-kit';

const kit = kitTables('operators');

/** Generated from the entities (scripts/create-migration.ts). */
export class CreateOperatorsSchema extends Migration {
  override async up(): Promise<void> {
    this.addSql('create schema if not exists "operators"');
    this.addSql(
      'create table "operators"."audit_log" ("id" text not null, "actor" text not null, "action" text not null, "target" text not null, "before" jsonb null, "after" jsonb null, "request_id" text not null, "at" timestamptz not null, primary key ("id"))',
    );
    this.addSql('create index "audit_log_target" on "operators"."audit_log" ("target", "at" desc)');
    this.addSql(
      'create table "operators"."operators" ("id" text not null, "name" text not null, "status" text not null, "rate_limit_per_minute" int not null, "allowed_ips" jsonb not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"))',
    );
    this.addSql(
      'create table "operators"."brands" ("id" text not null, "operator_id" text not null, "name" text not null, "environment" text not null, "currency" text not null, "webhook_url" text null, "webhook_secret_sealed" text not null, "webhook_version" int not null, "webhook_previous_secret_sealed" text null, "webhook_previous_secret_expires_at" timestamptz null, "created_at" timestamptz not null, primary key ("id"))',
    );
    this.addSql('alter table "operators"."brands" add constraint "brands_operator_environment" unique ("operator_id", "environment")');
    this.addSql(
      'create table "operators"."credentials" ("key_hash" text not null, "id" text not null, "key_prefix" text not null, "operator_id" text not null, "brand_id" text not null, "environment" text not null, "secret_sealed" text not null, "revoked_at" timestamptz null, "expires_at" timestamptz null, "created_at" timestamptz not null, primary key ("key_hash"))',
    );
    this.addSql('alter table "operators"."credentials" add constraint "credentials_id" unique ("id")');
    this.addSql('create index "credentials_operator" on "operators"."credentials" ("operator_id", "environment")');
    this.addSql(
      'create table "operators"."service_tokens" ("id" text not null, "name" text not null, "role" text not null, "secret_hash" text not null, "created_at" timestamptz not null, "revoked_at" timestamptz null, "last_used_at" timestamptz null, primary key ("id"))',
    );
    this.addSql('alter table "operators"."service_tokens" add constraint "service_tokens_name" unique ("name")');
    this.addSql('alter table "operators"."service_tokens" add constraint "service_tokens_secret_hash" unique ("secret_hash")');
    this.addSql(
      'create table "operators"."team_members" ("id" text not null, "email" text not null, "role" text not null, "password_hash" text not null, "created_at" timestamptz not null, "disabled_at" timestamptz null, "failed_sign_ins" int not null default 0, "locked_until" timestamptz null, "totp_secret_sealed" text null, "totp_pending_sealed" text null, "totp_enabled_at" timestamptz null, "totp_last_step" bigint null, primary key ("id"))',
    );
    this.addSql('create unique index "team_members_email" on "operators"."team_members" (lower(email))');
    this.addSql(
      'create table "operators"."console_sessions" ("token_hash" text not null, "member_id" text not null, "csrf_token" text not null, "created_at" timestamptz not null default now(), "last_seen_at" timestamptz not null default now(), "expires_at" timestamptz not null, primary key ("token_hash"))',
    );
    this.addSql('create index "console_sessions_member" on "operators"."console_sessions" ("member_id")');
    this.addSql('alter table "operators"."operators" add constraint "operators_status_check" check (status in (\'active\', \'suspended\'))');
    this.addSql('alter table "operators"."operators" add constraint "operators_rate_limit_per_minute_check" check (rate_limit_per_minute > 0)');
    this.addSql(
      'alter table "operators"."brands" add constraint "brands_operator_id_fkey" foreign key ("operator_id") references "operators"."operators" ("id") on update no action on delete no action',
    );
    this.addSql('alter table "operators"."brands" add constraint "brands_environment_check" check (environment in (\'sandbox\', \'production\'))');
    this.addSql(
      'alter table "operators"."credentials" add constraint "credentials_operator_id_fkey" foreign key ("operator_id") references "operators"."operators" ("id") on update no action on delete no action',
    );
    this.addSql(
      'alter table "operators"."credentials" add constraint "credentials_brand_id_fkey" foreign key ("brand_id") references "operators"."brands" ("id") on update no action on delete no action',
    );
    this.addSql('alter table "operators"."credentials" add constraint "credentials_environment_check" check (environment in (\'sandbox\', \'production\'))');
    this.addSql(
      "alter table \"operators\".\"service_tokens\" add constraint \"service_tokens_role_check\" check (role in ('compliance', 'finance', 'support', 'admin'))",
    );
    this.addSql(
      "alter table \"operators\".\"team_members\" add constraint \"team_members_role_check\" check (role in ('compliance', 'finance', 'support', 'admin'))",
    );
    this.addSql(
      'alter table "operators"."console_sessions" add constraint "console_sessions_member_id_fkey" foreign key ("member_id") references "operators"."team_members" ("id") on update no action on delete no action',
    );
  }
}

/**
 * The data the gateway kept before this service existed (schema `gateway`, its migrations 0001 to
 * 0007) moves here, as it is: keys keep their hashes and sealed secrets (the same
 * SECRETS_MASTER_KEY opens them), people their password hashes and second factors, sessions stay
 * signed in, the audit log keeps its rows, and the endpoint and key events the gateway had not
 * yet published are published from here. Then the gateway's tables go. A database that never had
 * them (a new one) has nothing to move. One cross-schema statement, run once, on purpose.
 */
export class MoveFromGateway extends Migration {
  override async up(): Promise<void> {
    this.addSql(`do $move$ begin
  if to_regclass('gateway.operators') is null then return; end if;
  lock table gateway.operators, gateway.brands, gateway.credentials, gateway.audit_log, gateway.team_members,
    gateway.service_tokens, gateway.console_sessions, gateway.outbox in access exclusive mode;
  insert into operators.operators (id, name, status, rate_limit_per_minute, allowed_ips, created_at, updated_at)
    select id, name, status, rate_limit_per_minute, allowed_ips, created_at, updated_at from gateway.operators;
  insert into operators.brands (id, operator_id, name, environment, currency, webhook_url, webhook_secret_sealed, webhook_version,
      webhook_previous_secret_sealed, webhook_previous_secret_expires_at, created_at)
    select id, operator_id, name, environment, currency, webhook_url, webhook_secret_sealed, webhook_version,
      webhook_previous_secret_sealed, webhook_previous_secret_expires_at, created_at from gateway.brands;
  insert into operators.credentials (key_hash, id, key_prefix, operator_id, brand_id, environment, secret_sealed, revoked_at, expires_at, created_at)
    select key_hash, id, key_prefix, operator_id, brand_id, environment, secret_sealed, revoked_at, expires_at, created_at from gateway.credentials;
  insert into operators.audit_log (id, actor, action, target, before, after, request_id, at)
    select id, actor, action, target, before, after, request_id, at from gateway.audit_log;
  insert into operators.team_members (id, email, role, password_hash, created_at, disabled_at, failed_sign_ins, locked_until,
      totp_secret_sealed, totp_pending_sealed, totp_enabled_at, totp_last_step)
    select id, email, role, password_hash, created_at, disabled_at, failed_sign_ins, locked_until,
      totp_secret_sealed, totp_pending_sealed, totp_enabled_at, totp_last_step from gateway.team_members;
  insert into operators.service_tokens (id, name, role, secret_hash, created_at, revoked_at, last_used_at)
    select id, name, role, secret_hash, created_at, revoked_at, last_used_at from gateway.service_tokens;
  insert into operators.console_sessions (token_hash, member_id, csrf_token, created_at, last_seen_at, expires_at)
    select token_hash, member_id, csrf_token, created_at, last_seen_at, expires_at from gateway.console_sessions;
  insert into operators.outbox (event_id, subject_type, environment, operator_id, brand_id, payload, created_at)
    select event_id, subject_type, environment, operator_id, brand_id, payload, created_at from gateway.outbox
     where published_at is null order by seq;
  drop table gateway.console_sessions, gateway.credentials, gateway.brands, gateway.operators, gateway.audit_log,
    gateway.service_tokens, gateway.team_members, gateway.outbox;
end $move$`);
  }
}

/**
 * Generated from the entities (npm run migration:create), plus one hand-written line: the sign-in
 * back-off replaces the per-person lock-out, and every password of before was the one-time one
 * `users create` printed (nobody could change it), so each person chooses their own at their next
 * sign-in.
 */
export class AccountSecurity extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "operators"."sign_in_throttle" ("key" text not null, "failures" int not null, "last_failure_at" timestamptz not null, "blocked_until" timestamptz null, primary key ("key"))',
    );
    this.addSql('alter table "operators"."team_members" drop column "failed_sign_ins", drop column "locked_until"');
    this.addSql('alter table "operators"."team_members" add "password_must_change" boolean not null default false');
    this.addSql('update "operators"."team_members" set "password_must_change" = true');
  }
}

/**
 * Generated from the entities (npm run migration:create), plus one hand-written line: a one-time
 * password of before (not yet replaced) expires like a new one, counted from now.
 */
export class OneTimePasswordLimits extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table "operators"."team_members" add "one_time_password_expires_at" timestamptz null, add "one_time_password_used_at" timestamptz null');
    this.addSql(`update "operators"."team_members" set "one_time_password_expires_at" = now() + interval '72 hours' where "password_must_change"`);
  }
}

/** Decisions by people: a personal token names its team member; an audit row names the member who acted. */
export class DecisionsByPeople extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table "operators"."service_tokens" add column "member_id" text null');
    this.addSql('alter table "operators"."audit_log" add column "actor_id" text null');
  }
}

/**
 * Four eyes that one admin cannot defeat (issue #69): who added a person, who issued their current
 * credential, the confirmations of their power. The people of before were given their power by the
 * rules of before: they are confirmed here (their audit rows say who added them; GET /admin/users
 * shows them confirmed by nobody), so a deployment keeps deciding after the upgrade.
 */
export class ConfirmedPeople extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "operators"."team_member_confirmations" ("member_id" text not null, "confirmed_by_id" text not null, "confirmed_by" text not null, "confirmed_at" timestamptz not null, primary key ("member_id", "confirmed_by_id"))',
    );
    this.addSql(
      'alter table "operators"."team_members" add "added_by" text null, add "added_by_id" text null, add "issued_by_id" text null, add "confirmed_at" timestamptz null',
    );
    this.addSql('update "operators"."team_members" set "confirmed_at" = now()');
  }
}

/** The regulator's read-only role (issue #69): a person or a service token may carry it. */
export class RegulatorRole extends Migration {
  override async up(): Promise<void> {
    for (const table of ['team_members', 'service_tokens']) {
      this.addSql(`alter table "operators"."${table}" drop constraint "${table}_role_check"`);
      this.addSql(
        `alter table "operators"."${table}" add constraint "${table}_role_check" check (role in ('compliance', 'finance', 'support', 'admin', 'regulator'))`,
      );
    }
  }
}

/** Who read what (issue #69): our team's reads of players' personal data, and every read of a regulator. */
export class PersonalDataReads extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "operators"."personal_data_reads" ("id" text not null, "actor" text not null, "actor_id" text null, "role" text not null, "player_id" text null, "fields" text[] not null, "revealed" text[] not null, "operation" text not null, "route" text not null, "request_id" text not null, "at" timestamptz not null, primary key ("id"))',
    );
    this.addSql('create index "personal_data_reads_player" on "operators"."personal_data_reads" ("player_id", "at" desc)');
    this.addSql('create index "personal_data_reads_actor" on "operators"."personal_data_reads" ("actor_id", "at" desc)');
  }
}

export const operatorMigrations = [
  { name: '0001_create_operators_schema', class: CreateOperatorsSchema },
  // The kit's tables: the outbox, and the stored answers its retention loop keeps trimmed.
  {
    name: '0002_kit_tables',
    class: kitMigration(kit.outbox, kit.storedAnswers, kit.storedAnswersAsText, kit.requestFingerprints, kit.storedAnswersByAge),
  },
  { name: '0003_move_from_gateway', class: MoveFromGateway },
  { name: '0004_account_security', class: AccountSecurity },
  // Rows for requests still running (the kit keeps the answers of every keyed operation it runs: idempotency/kit-kept.ts).
  { name: '0005_running_requests', class: kitMigration(kit.runningRequests) },
  { name: '0006_one_time_password_limits', class: OneTimePasswordLimits },
  { name: '0007_decisions_by_people', class: DecisionsByPeople },
  { name: '0008_confirmed_people', class: ConfirmedPeople },
  { name: '0009_regulator_role', class: RegulatorRole },
  { name: '0010_personal_data_reads', class: PersonalDataReads },
];
