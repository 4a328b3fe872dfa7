// Schema `players`, listed in code and run on start. Invariants the database can hold are
// CHECK constraints; uniqueness of externalId per brand is a unique index (races included).
import {
  kitMigration,
  Migration,
  outboxTableSql,
  processedRequestsClaimsSql,
  processedRequestsFingerprintSql,
  processedRequestsExpiryIndexSql,
  processedRequestsKeepTextSql,
  processedRequestsTableSql,
} from '@bo/service-kit';
import { DOCUMENT_TYPES, KYC_STATUSES, PLAYER_STATUSES } from '@bo/contracts';

const list = (values: readonly string[]) => values.map((v) => `'${v}'`).join(', ');

export class CreatePlayersSchema extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table players.players (
      id text primary key,
      operator_id text not null,
      brand_id text not null,
      environment text not null check (environment in ('sandbox', 'production')),
      external_id text not null check (length(external_id) between 1 and 128),
      name text not null check (length(name) between 2 and 200),
      email text not null check (length(email) <= 254),
      cpf text not null check (cpf ~ '^[0-9]{11}$'),
      phone text,
      birth_date date,
      currency text not null check (currency ~ '^[A-Z]{3}$'),
      status text not null check (status in (${list(PLAYER_STATUSES)})),
      kyc_status text not null check (kyc_status in (${list(KYC_STATUSES)})),
      kyc_updated_at timestamptz not null,
      daily_deposit_limit numeric(20,2) check (daily_deposit_limit >= 0),
      self_excluded_until timestamptz,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql('create unique index players_brand_external_id on players.players (brand_id, external_id)');
    this.addSql(`create table players.kyc_submissions (
      id text primary key,
      player_id text not null references players.players (id),
      document_type text not null check (document_type in (${list(DOCUMENT_TYPES)})),
      reference text not null check (length(reference) between 1 and 500),
      created_at timestamptz not null
    )`);
    this.addSql('create index kyc_submissions_by_player on players.kyc_submissions (player_id, created_at desc, id desc)');
    this.addSql(outboxTableSql('players'));
    this.addSql(processedRequestsTableSql('players'));
  }
}

/** Every KYC status change with who made it and why (the compliance console's history). */
export class KycHistory extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table players.kyc_history (
      id bigint generated always as identity primary key,
      player_id text not null references players.players (id),
      previous_status text not null check (previous_status in (${list(KYC_STATUSES)})),
      status text not null check (status in (${list(KYC_STATUSES)})),
      actor text,
      reason text check (length(reason) <= 500),
      at timestamptz not null
    )`);
    this.addSql('create index kyc_history_by_player on players.kyc_history (player_id, at desc, id desc)');
    // The KYC queue: players waiting for a decision, newest change first.
    this.addSql(`create index players_kyc_queue on players.players (kyc_status, kyc_updated_at desc, id desc)
      where kyc_status in ('em_analise', 'pendente', 'documento_solicitado')`);
    this.addSql('create index players_by_cpf on players.players (cpf)');
    this.addSql('create index players_by_email on players.players (lower(email))');
    this.addSql('create index players_by_external_id on players.players (external_id)');
  }
}

/** Generated from the entities (scripts/create-migration.ts). */
export class OperatorCompliance extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "players"."operator_compliance" ("operator_id" text not null, "profile" text not null, "time_zone" text not null, "cooling_off_hours" int not null, "reality_check_minutes" int not null, "updated_at" timestamptz not null, "updated_by" text not null, primary key ("operator_id"))',
    );
    this.addSql('alter table "players"."operator_compliance" add constraint "operator_compliance_profile_check" check (profile in (\'off\', \'br-spa\'))');
    this.addSql('alter table "players"."operator_compliance" add constraint "operator_compliance_cooling_off_hours_check" check (cooling_off_hours >= 0)');
    this.addSql(
      'alter table "players"."operator_compliance" add constraint "operator_compliance_reality_check_minutes_check" check (reality_check_minutes >= 1)',
    );
  }
}

/** Generated from the entities (scripts/create-migration.ts), with the copy of the daily deposit limits added by hand. */
export class RgLimitsPauseSelfExclusion extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "players"."rg_history" ("id" bigint generated always as identity not null primary key, "player_id" text not null, "kind" text not null, "type" text null, "period" text null, "old_value" text null, "new_value" text null, "effective_at" timestamptz null, "by" text not null, "actor" text null, "reason" text null, "at" timestamptz not null)',
    );
    this.addSql('create index "rg_history_by_player" on "players"."rg_history" ("player_id", "at" desc, "id" desc)');
    this.addSql(
      'create table "players"."rg_limits" ("id" bigint generated always as identity not null primary key, "player_id" text not null, "type" text not null, "period" text not null, "value" numeric(20,2) not null, "pending_value" numeric(20,2) null, "pending_removal" boolean not null, "pending_effective_at" timestamptz null, "updated_at" timestamptz not null)',
    );
    this.addSql('alter table "players"."rg_limits" add constraint "rg_limits_player_type_period" unique ("player_id", "type", "period")');
    // Our team's daily deposit limit (v1.1) becomes the player's deposit/day limit before its column goes.
    this.addSql(`insert into players.rg_limits (player_id, type, period, value, pending_removal, updated_at)
      select id, 'deposit', 'day', daily_deposit_limit, false, updated_at from players.players where daily_deposit_limit is not null`);
    this.addSql('alter table "players"."players" drop constraint "players_daily_deposit_limit_check"');
    this.addSql('alter table "players"."players" drop column "daily_deposit_limit"');
    this.addSql('alter table "players"."players" add "self_excluded_since" timestamptz null, add "paused_until" timestamptz null');
    this.addSql(
      'alter table "players"."rg_history" add constraint "rg_history_player_id_fkey" foreign key ("player_id") references "players"."players" ("id") on update no action on delete no action',
    );
    this.addSql(
      "alter table \"players\".\"rg_history\" add constraint \"rg_history_kind_check\" check (kind in ('limit', 'pause', 'self_exclusion', 'self_exclusion_ended', 'self_exclusion_lifted'))",
    );
    this.addSql('alter table "players"."rg_history" add constraint "rg_history_by_check" check (by in (\'operator\', \'team\', \'system\'))');
    this.addSql('alter table "players"."rg_history" add constraint "rg_history_reason_check" check (length(reason) <= 500)');
    this.addSql(
      'alter table "players"."rg_limits" add constraint "rg_limits_player_id_fkey" foreign key ("player_id") references "players"."players" ("id") on update no action on delete no action',
    );
    this.addSql("alter table \"players\".\"rg_limits\" add constraint \"rg_limits_type_check\" check (type in ('deposit', 'loss', 'wager', 'time'))");
    this.addSql('alter table "players"."rg_limits" add constraint "rg_limits_period_check" check (period in (\'day\', \'week\', \'month\'))');
    this.addSql('alter table "players"."rg_limits" add constraint "rg_limits_value_check" check (value >= 0)');
  }
}

/** Generated from the entities (scripts/create-migration.ts). */
export class EligibilityImpediments extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "players"."impediment_checks" ("id" bigint generated always as identity not null primary key, "operator_id" text not null, "brand_id" text not null, "player_id" text null, "cpf" text not null, "moment" text not null, "outcome" text not null, "reasons" text null, "at" timestamptz not null)',
    );
    this.addSql('create index "impediment_checks_by_cpf" on "players"."impediment_checks" ("cpf", "at")');
    this.addSql(
      'create table "players"."impediment_sweeps" ("id" text not null, "started_at" timestamptz not null, "cursor" text null, "checked" int not null, "hits" int not null, "unavailable" int not null, "finished_at" timestamptz null, primary key ("id"))',
    );
    this.addSql('create unique index "impediment_sweeps_one_open" on "players"."impediment_sweeps" ((finished_at is null)) where finished_at is null');
    this.addSql(
      'create table "players"."simulated_impediments" ("operator_id" text not null, "cpf" text not null, "reason" text not null, "created_at" timestamptz not null, primary key ("operator_id", "cpf"))',
    );
    this.addSql(
      'alter table "players"."players" add "impediment_checked_at" timestamptz null, add "restricted_at" timestamptz null, add "closeout_done_at" timestamptz null',
    );
    this.addSql('alter table "players"."impediment_checks" add constraint "impediment_checks_cpf_check" check (cpf ~ \'^[0-9]{11}$\')');
    this.addSql(
      "alter table \"players\".\"impediment_checks\" add constraint \"impediment_checks_moment_check\" check (moment in ('registration', 'login', 'deposit', 'game_session', 'sweep'))",
    );
    this.addSql(
      'alter table "players"."impediment_checks" add constraint "impediment_checks_outcome_check" check (outcome in (\'not_impeded\', \'impeded\', \'unavailable\'))',
    );
    this.addSql('alter table "players"."simulated_impediments" add constraint "simulated_impediments_cpf_check" check (cpf ~ \'^[0-9]{11}$\')');
    this.addSql(
      'alter table "players"."simulated_impediments" add constraint "simulated_impediments_reason_check" check (reason in (\'central_self_exclusion\', \'social_program\'))',
    );
  }
}

/**
 * Generated from the entities (npm run migration:create): every status change of a player, recorded
 * by a trigger in the statement that makes it (PlayerStatusHistoryEntity). Changes made before this
 * migration have no row.
 */
export class PlayerStatusHistory extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "players"."player_status_history" ("id" bigint generated always as identity not null primary key, "player_id" text not null, "previous_status" text not null, "status" text not null, "at" timestamptz not null)',
    );
    this.addSql('create index "player_status_history_by_player" on "players"."player_status_history" ("player_id", "at" desc, "id" desc)');
    this.addSql('create index "player_status_history_by_time" on "players"."player_status_history" ("at")');
    this.addSql(
      'create or replace function "players"."players_players_status_history_fn"() returns trigger as $$ begin insert into players.player_status_history (player_id, previous_status, status, at) values (new.id, old.status, new.status, date_trunc(\'milliseconds\', clock_timestamp())); return null; end; $$ language plpgsql',
    );
    this.addSql(
      'create trigger "players_status_history" AFTER UPDATE on "players"."players" for each ROW\n  when ((old.status IS DISTINCT FROM new.status)) execute function "players"."players_players_status_history_fn"()',
    );
    this.addSql(
      'alter table "players"."player_status_history" add constraint "player_status_history_player_id_fkey" foreign key ("player_id") references "players"."players" ("id") on update no action on delete no action',
    );
    this.addSql(
      "alter table \"players\".\"player_status_history\" add constraint \"player_status_history_previous_status_check\" check (previous_status in ('ativo', 'suspenso', 'bloqueado', 'autoexcluido', 'encerrado', 'restrito'))",
    );
    this.addSql(
      "alter table \"players\".\"player_status_history\" add constraint \"player_status_history_status_check\" check (status in ('ativo', 'suspenso', 'bloqueado', 'autoexcluido', 'encerrado', 'restrito'))",
    );
    this.addSql(
      'create or replace function "players"."player_status_history_player_status_history_append_only_fn"() returns trigger as $$ begin raise exception \'player_status_history is append-only: % refused\', tg_op using errcode = \'P0001\'; end; $$ language plpgsql',
    );
    this.addSql(
      'create trigger "player_status_history_append_only" BEFORE UPDATE OR DELETE on "players"."player_status_history" for each ROW execute function "players"."player_status_history_player_status_history_append_only_fn"()',
    );
  }
}

/** Generated from the entities (npm run migration:create). */
export class PlayersBrandCpf extends Migration {
  override async up(): Promise<void> {
    this.addSql('create index "players_brand_cpf" on "players"."players" ("brand_id", "cpf")');
    // br-spa's one player per CPF per brand, held by the index instead of an advisory lock: players
    // registered under br-spa from now on (earlier ones were held by the lock and stay checked by
    // the registration's own lookup).
    this.addSql('alter table "players"."players" add column "cpf_unique" boolean not null default false');
    this.addSql(`create unique index "players_one_per_cpf" on "players"."players" ("brand_id", "cpf") where cpf_unique and status <> 'encerrado'`);
  }
}

/** Generated from the entities (npm run migration:create). */
export class InternalImpediments extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "players"."internal_impediments" ("cpf" text not null, "category" text not null, "note" text not null, "added_by" text not null, "added_at" timestamptz not null, primary key ("cpf"))',
    );
    this.addSql('create index "internal_impediments_by_added" on "players"."internal_impediments" ("added_at", "cpf")');
    this.addSql('alter table "players"."impediment_checks" drop constraint "impediment_checks_moment_check"');
    this.addSql(
      "alter table \"players\".\"impediment_checks\" add constraint \"impediment_checks_moment_check\" check (moment in ('registration', 'login', 'deposit', 'game_session', 'sweep', 'internal_listing'))",
    );
    this.addSql('alter table "players"."internal_impediments" add constraint "internal_impediments_cpf_check" check (cpf ~ \'^[0-9]{11}$\')');
    this.addSql(
      "alter table \"players\".\"internal_impediments\" add constraint \"internal_impediments_category_check\" check (category in ('operator_staff', 'regulator', 'system_access', 'athlete', 'referee', 'coach', 'sports_official', 'sports_agent', 'gambling_disorder', 'court_or_administrative_order', 'relative'))",
    );
    this.addSql(
      'alter table "players"."internal_impediments" add constraint "internal_impediments_note_check" check (length(note) >= 1 and length(note) <= 500)',
    );
  }
}

/** Generated from the entities (npm run migration:create). */
export class SanctionsFreeze extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table "players"."players" add "frozen_at" timestamptz null, add "status_before_freeze" text null');
    this.addSql(
      'alter table "players"."players" add constraint "players_frozen_at_check" check (frozen_at is null or (status = \'bloqueado\' and status_before_freeze is not null))',
    );
    this.addSql(
      "alter table \"players\".\"players\" add constraint \"players_status_before_freeze_check\" check (status_before_freeze in ('ativo', 'suspenso', 'bloqueado', 'autoexcluido', 'encerrado', 'restrito'))",
    );
  }
}

/**
 * Generated from the entities (npm run migration:create). Issue 46: gender and sign-up IP on the
 * player, the brand's terms versions and the bettors' acceptances (append-only).
 */
export class Players0014TermsRegistrationData extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "players"."terms_acceptances" ("id" text not null, "player_id" text not null, "version" text not null, "accepted_at" timestamptz not null, "ip" text not null, "created_at" timestamptz not null, primary key ("id"))',
    );
    this.addSql('create index "terms_acceptances_by_player" on "players"."terms_acceptances" ("player_id", "accepted_at" desc, "id" desc)');
    this.addSql(
      'create table "players"."terms_versions" ("id" text not null, "operator_id" text not null, "brand_id" text not null, "version" text not null, "published_at" timestamptz not null, "url" text null, "created_at" timestamptz not null, primary key ("id"))',
    );
    this.addSql('create index "terms_versions_by_brand" on "players"."terms_versions" ("brand_id", "published_at")');
    this.addSql('alter table "players"."terms_versions" add constraint "terms_versions_brand_version" unique ("brand_id", "version")');
    this.addSql('alter table "players"."players" add "gender" text null, add "signup_ip" text null');
    this.addSql(
      "alter table \"players\".\"players\" add constraint \"players_gender_check\" check (gender in ('feminino', 'masculino', 'outro', 'nao_informado'))",
    );
    this.addSql('alter table "players"."players" add constraint "players_signup_ip_check" check (length(signup_ip) <= 45)');
    this.addSql(
      'alter table "players"."terms_acceptances" add constraint "terms_acceptances_player_id_fkey" foreign key ("player_id") references "players"."players" ("id") on update no action on delete no action',
    );
    this.addSql('alter table "players"."terms_acceptances" add constraint "terms_acceptances_ip_check" check (length(ip) <= 45)');
    this.addSql(
      'create or replace function "players"."terms_acceptances_terms_acceptances_append_only_fn"() returns trigger as $$ begin raise exception \'terms_acceptances is append-only: % refused\', tg_op using errcode = \'P0001\'; end; $$ language plpgsql',
    );
    this.addSql(
      'create trigger "terms_acceptances_append_only" BEFORE UPDATE OR DELETE on "players"."terms_acceptances" for each ROW execute function "players"."terms_acceptances_terms_acceptances_append_only_fn"()',
    );
    this.addSql('alter table "players"."terms_versions" add constraint "terms_versions_version_check" check (length(version) >= 1 and length(version) <= 64)');
    this.addSql('alter table "players"."terms_versions" add constraint "terms_versions_url_check" check (length(url) <= 2048)');
  }
}

/**
 * Generated from the entities (npm run migration:create). Issue #46 item 4, after an impediment hit:
 * the communications log (kept five years: no change, no deletion before `retain_until`) and the
 * operator's own link to the central self-exclusion platform.
 */
export class Players0015AfterHitCommunications extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "players"."communications" ("id" text not null, "player_id" text not null, "channel" text not null, "kind" text not null, "sent_at" timestamptz not null, "summary" text not null, "reference" text null, "recorded_at" timestamptz not null, "retain_until" timestamptz not null, primary key ("id"))',
    );
    this.addSql('create index "communications_by_player" on "players"."communications" ("player_id", "sent_at" desc, "id" desc)');
    this.addSql('alter table "players"."operator_compliance" add "self_exclusion_platform_url" text null');
    this.addSql(
      'alter table "players"."operator_compliance" add constraint "operator_compliance_self_exclusion_platform_url_check" check (self_exclusion_platform_url ~ \'^https://\' and length(self_exclusion_platform_url) <= 2048)',
    );
    this.addSql(
      'alter table "players"."communications" add constraint "communications_player_id_fkey" foreign key ("player_id") references "players"."players" ("id") on update no action on delete no action',
    );
    this.addSql(
      "alter table \"players\".\"communications\" add constraint \"communications_channel_check\" check (channel in ('email', 'sms', 'push', 'in_app', 'whatsapp', 'phone', 'letter', 'other'))",
    );
    this.addSql(
      "alter table \"players\".\"communications\" add constraint \"communications_kind_check\" check (kind in ('impediment_notice', 'withdrawal_reminder', 'account_closed', 'funds_returned', 'funds_held', 'other'))",
    );
    this.addSql(
      'alter table "players"."communications" add constraint "communications_summary_check" check (length(summary) >= 1 and length(summary) <= 2000)',
    );
    this.addSql(
      'alter table "players"."communications" add constraint "communications_reference_check" check (length(reference) >= 1 and length(reference) <= 128)',
    );
    this.addSql(
      'create or replace function "players"."communications_communications_append_only_fn"() returns trigger as $$ begin raise exception \'communications is append-only: % refused\', tg_op using errcode = \'P0001\'; end; $$ language plpgsql',
    );
    this.addSql(
      'create trigger "communications_append_only" BEFORE UPDATE on "players"."communications" for each ROW execute function "players"."communications_communications_append_only_fn"()',
    );
    this.addSql(
      'create or replace function "players"."communications_communications_retained_fn"() returns trigger as $$ begin if old.retain_until > now() then raise exception \'communication % is kept until %\', old.id, old.retain_until using errcode = \'P0001\'; end if; return old; end; $$ language plpgsql',
    );
    this.addSql(
      'create trigger "communications_retained" BEFORE DELETE on "players"."communications" for each ROW execute function "players"."communications_communications_retained_fn"()',
    );
  }
}

/** Generated from the entities (npm run migration:create): issue #56, compliance profile changes that wait for a second person. */
export class ComplianceChanges extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "players"."compliance_changes" ("id" text not null, "operator_id" text not null, "status" text not null, "change" jsonb not null, "from_profile" text not null, "reason" text not null, "requested_by" text not null, "requested_by_id" text not null, "requested_at" timestamptz not null, "expires_at" timestamptz not null, "decided_by" text null, "decided_by_id" text null, "decided_at" timestamptz null, "decision_reason" text null, primary key ("id"))',
    );
    this.addSql('create index "compliance_changes_by_requested" on "players"."compliance_changes" ("requested_at", "id")');
    this.addSql('create unique index "compliance_changes_one_pending" on "players"."compliance_changes" ("operator_id") where status = \'pending\'');
    this.addSql(
      "alter table \"players\".\"compliance_changes\" add constraint \"compliance_changes_status_check\" check (status in ('pending', 'confirmed', 'cancelled', 'expired'))",
    );
    this.addSql(
      'alter table "players"."compliance_changes" add constraint "compliance_changes_from_profile_check" check (from_profile in (\'off\', \'br-spa\'))',
    );
    this.addSql(
      'alter table "players"."compliance_changes" add constraint "compliance_changes_reason_check" check (length(reason) >= 3 and length(reason) <= 500)',
    );
    this.addSql(
      'alter table "players"."compliance_changes" add constraint "compliance_changes_decision_reason_check" check (length(decision_reason) >= 3 and length(decision_reason) <= 500)',
    );
  }
}

/**
 * Issue #56: `autoexcluido` is reached only through a self-exclusion. A player our team set
 * `autoexcluido` by hand before (no self-exclusion behind it) is recorded as a self-exclusion
 * without end (or until a v1.1 date still ahead) from the row's last change, the latest moment the
 * status can have been set (so the lift's 30 days are never shortened), with its history row. It then
 * ends only through its flow: compliance's lift, with a reason. A data change: the statement is
 * exported for the test that runs it on such a row.
 */
export const RECORD_HAND_SET_SELF_EXCLUSIONS = `with recorded as (
    update players.players
       set self_excluded_since = updated_at,
           self_excluded_until = case when self_excluded_until > now() then self_excluded_until end
     where self_excluded_since is null and (status = 'autoexcluido' or status_before_freeze = 'autoexcluido')
    returning id, self_excluded_since, self_excluded_until)
  insert into players.rg_history (player_id, kind, old_value, new_value, effective_at, "by", actor, reason, at)
  select id, 'self_exclusion', null,
         coalesce(to_char(self_excluded_until at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'indefinite'),
         self_excluded_since, 'team', null,
         'Set autoexcluido by hand with no self-exclusion behind it, before issue #56: recorded as a self-exclusion from the player''s last change (who set it: the audit log, adminSetPlayerStatus).',
         now()
    from recorded`;

export class HandSetSelfExclusionsRecorded extends Migration {
  override async up(): Promise<void> {
    this.addSql(RECORD_HAND_SET_SELF_EXCLUSIONS);
  }
}

/**
 * Issue #56: the status a self-exclusion replaced, which its end gives back (it gave `ativo`, undoing
 * a suspension or a block of our team's). Generated from the entities (npm run migration:create), and
 * for the self-exclusions running now, the status their start replaced, read in the status history
 * (migration 0010): the transition into `autoexcluido` within a minute of the self-exclusion's start.
 * None found (begun before that history, or while a freeze held the status): left null, and its end
 * gives `ativo` as it did. A data change: the statement is exported for the test that runs it.
 */
export const RECORD_STATUS_BEFORE_SELF_EXCLUSION = `update players.players p
     set status_before_self_exclusion = (
           select h.previous_status from players.player_status_history h
            where h.player_id = p.id and h.status = 'autoexcluido'
              and h.previous_status in ('ativo', 'suspenso', 'bloqueado', 'encerrado')
              and h.at between p.self_excluded_since - interval '1 minute' and p.self_excluded_since + interval '1 minute'
            order by h.at, h.id limit 1)
   where p.self_excluded_since is not null and p.status_before_self_exclusion is null
     and (p.status = 'autoexcluido' or p.status_before_freeze = 'autoexcluido')`;

export class StatusBeforeSelfExclusion extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table "players"."players" add "status_before_self_exclusion" text null');
    this.addSql(
      "alter table \"players\".\"players\" add constraint \"players_status_before_self_exclusion_check\" check (status_before_self_exclusion in ('ativo', 'suspenso', 'bloqueado', 'encerrado'))",
    );
    this.addSql(RECORD_STATUS_BEFORE_SELF_EXCLUSION);
  }
}

/**
 * Issue #60: the marketing suppressions of the players already blocked when the table begins: a running
 * self-exclusion (from its start until its end), a pause (from its last history row until its end), an
 * impediment restriction (from the hit) and a closing (from the status change into `encerrado`), so the
 * day's list names them from the first day. A data change: the statement is exported for the test.
 */
export const RECORD_RUNNING_MARKETING_BLOCKS = `insert into players.marketing_suppressions (player_id, brand_id, reason, from_at, until_at)
  select id, brand_id, 'self_exclusion', coalesce(self_excluded_since, updated_at), self_excluded_until from players.players
   where self_excluded_since is not null or status = 'autoexcluido' or status_before_freeze = 'autoexcluido' or self_excluded_until > now()
  union all
  select p.id, p.brand_id, 'pause', least(coalesce((select max(h.at) from players.rg_history h where h.player_id = p.id and h.kind = 'pause'), now()), p.paused_until), p.paused_until
    from players.players p where p.paused_until > now()
  union all
  select id, brand_id, 'impediment', restricted_at, null from players.players where restricted_at is not null
  union all
  select p.id, p.brand_id, 'closed',
         coalesce((select max(h.at) from players.player_status_history h where h.player_id = p.id and h.status = 'encerrado'), p.updated_at), null
    from players.players p where p.status = 'encerrado'`;

/** Generated from the entities (npm run migration:create), then the blocks running at the time (above). */
export class RegistrationDataAndMarketing extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "players"."marketing_suppressions" ("id" bigint generated always as identity not null primary key, "player_id" text not null, "brand_id" text not null, "reason" text not null, "from_at" timestamptz not null, "until_at" timestamptz null)',
    );
    this.addSql('create index "marketing_suppressions_by_brand" on "players"."marketing_suppressions" ("brand_id", "player_id")');
    this.addSql('create index "marketing_suppressions_by_player" on "players"."marketing_suppressions" ("player_id", "reason")');
    this.addSql(
      'create table "players"."registration_changes" ("id" bigint generated always as identity not null primary key, "player_id" text not null, "field" text not null, "old_value" jsonb null, "new_value" jsonb null, "by" text not null, "actor" text null, "request_id" text null, "at" timestamptz not null)',
    );
    this.addSql('create index "registration_changes_by_player" on "players"."registration_changes" ("player_id", "at" desc, "id" desc)');
    this.addSql(
      'alter table "players"."players" add "address" jsonb null, add "registration_announced" jsonb null, add "marketing_consent" boolean not null default false, add "marketing_consent_changed_at" timestamptz null',
    );
    this.addSql(
      'alter table "players"."marketing_suppressions" add constraint "marketing_suppressions_player_id_fkey" foreign key ("player_id") references "players"."players" ("id") on update no action on delete no action',
    );
    this.addSql(
      "alter table \"players\".\"marketing_suppressions\" add constraint \"marketing_suppressions_reason_check\" check (reason in ('self_exclusion', 'pause', 'impediment', 'closed', 'consent_withdrawn'))",
    );
    this.addSql(
      'alter table "players"."marketing_suppressions" add constraint "marketing_suppressions_until_at_check" check (until_at is null or until_at >= from_at)',
    );
    this.addSql(
      'alter table "players"."registration_changes" add constraint "registration_changes_player_id_fkey" foreign key ("player_id") references "players"."players" ("id") on update no action on delete no action',
    );
    this.addSql(
      'alter table "players"."registration_changes" add constraint "registration_changes_field_check" check (length(field) >= 1 and length(field) <= 64)',
    );
    this.addSql(
      'alter table "players"."registration_changes" add constraint "registration_changes_by_check" check (by in (\'operator\', \'team\', \'system\'))',
    );
    this.addSql(
      'create or replace function "players"."registration_changes_registration_changes_append_only_fn"() returns trigger as $$ begin raise exception \'registration_changes is append-only: % refused\', tg_op using errcode = \'P0001\'; end; $$ language plpgsql',
    );
    this.addSql(
      'create trigger "registration_changes_append_only" BEFORE UPDATE OR DELETE on "players"."registration_changes" for each ROW execute function "players"."registration_changes_registration_changes_append_only_fn"()',
    );
    this.addSql(RECORD_RUNNING_MARKETING_BLOCKS);
  }
}

/** Generated from the entities (npm run migration:create). */
export class AfterHitPlayersRestricted extends Migration {
  override async up(): Promise<void> {
    this.addSql('create index "players_restricted" on "players"."players" ("brand_id", "restricted_at") where restricted_at is not null');
  }
}

/** Generated from the entities (npm run migration:create). */
export class DataRequestsAndAnonymisation extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "players"."data_requests" ("id" text not null, "operator_id" text not null, "brand_id" text not null, "environment" text not null, "player_id" text not null, "type" text not null, "status" text not null, "reference" text null, "corrections" jsonb null, "received_at" timestamptz not null, "due_at" timestamptz not null, "answered_at" timestamptz null, "answer" jsonb null, "answer_file" text null, "request_id" text not null, primary key ("id"))',
    );
    this.addSql('create index "data_requests_by_player" on "players"."data_requests" ("player_id", "received_at" desc, "id" desc)');
    this.addSql('create index "data_requests_open" on "players"."data_requests" ("due_at") where status = \'received\'');
    this.addSql('alter table "players"."players" add "anonymised_at" timestamptz null');
    this.addSql('drop trigger if exists "registration_changes_append_only" on "players"."registration_changes"');
    this.addSql('drop function if exists "players"."registration_changes_registration_changes_append_only_fn"()');
    this.addSql(
      "create or replace function \"players\".\"registration_changes_registration_changes_append_only_fn\"() returns trigger as $$ begin if tg_op = 'UPDATE' and current_setting('bo.anonymising', true) = 'on' then return new; end if; raise exception 'registration_changes is append-only: % refused', tg_op using errcode = 'P0001'; end; $$ language plpgsql",
    );
    this.addSql(
      'create trigger "registration_changes_append_only" BEFORE UPDATE OR DELETE on "players"."registration_changes" for each ROW execute function "players"."registration_changes_registration_changes_append_only_fn"()',
    );
    this.addSql('drop trigger if exists "terms_acceptances_append_only" on "players"."terms_acceptances"');
    this.addSql('drop function if exists "players"."terms_acceptances_terms_acceptances_append_only_fn"()');
    this.addSql(
      "create or replace function \"players\".\"terms_acceptances_terms_acceptances_append_only_fn\"() returns trigger as $$ begin if tg_op = 'UPDATE' and current_setting('bo.anonymising', true) = 'on' then return new; end if; raise exception 'terms_acceptances is append-only: % refused', tg_op using errcode = 'P0001'; end; $$ language plpgsql",
    );
    this.addSql(
      'create trigger "terms_acceptances_append_only" BEFORE UPDATE OR DELETE on "players"."terms_acceptances" for each ROW execute function "players"."terms_acceptances_terms_acceptances_append_only_fn"()',
    );
    this.addSql(
      'alter table "players"."data_requests" add constraint "data_requests_player_id_fkey" foreign key ("player_id") references "players"."players" ("id") on update no action on delete no action',
    );
    this.addSql(
      "alter table \"players\".\"data_requests\" add constraint \"data_requests_type_check\" check (type in ('access', 'portability', 'correction', 'deletion'))",
    );
    this.addSql(
      'alter table "players"."data_requests" add constraint "data_requests_status_check" check (status in (\'received\', \'answered\', \'partly_refused\'))',
    );
    this.addSql(
      'alter table "players"."data_requests" add constraint "data_requests_reference_check" check (length(reference) >= 1 and length(reference) <= 200)',
    );
  }
}

/** Generated from the entities (npm run migration:create). */
export class RealityCheckMinutes extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table "players"."players" add "reality_check_minutes" int null');
    this.addSql('alter table "players"."players" add constraint "players_reality_check_minutes_check" check (reality_check_minutes >= 1)');
    this.addSql('alter table "players"."rg_history" drop constraint "rg_history_kind_check"');
    this.addSql(
      "alter table \"players\".\"rg_history\" add constraint \"rg_history_kind_check\" check (kind in ('limit', 'pause', 'self_exclusion', 'self_exclusion_ended', 'self_exclusion_lifted', 'reality_check'))",
    );
  }
}

/** Generated from the entities (npm run migration:create). */
export class TeamMeasures extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "players"."team_measures" ("id" text not null, "player_id" text not null, "case_id" text not null, "measure" text not null, "applied_at" timestamptz not null, primary key ("id"))',
    );
    this.addSql('create index "team_measures_by_player" on "players"."team_measures" ("player_id", "applied_at" desc, "id" desc)');
    this.addSql(
      'alter table "players"."team_measures" add constraint "team_measures_player_id_fkey" foreign key ("player_id") references "players"."players" ("id") on update no action on delete no action',
    );
  }
}

export const playerMigrations = [
  { name: '0001_create_players_schema', class: CreatePlayersSchema },
  { name: '0002_stored_answers_as_text', class: kitMigration(processedRequestsKeepTextSql('players')) },
  { name: '0003_kyc_history', class: KycHistory },
  // Fingerprint and request id beside each stored answer (the kit's processedRequestsFingerprintSql).
  { name: '0004_request_fingerprints', class: kitMigration(processedRequestsFingerprintSql('players')) },
  // Stored answers by age: the kit forgets them after IDEMPOTENCY_TTL_SECONDS (retention.ts).
  { name: '0005_stored_answers_by_age', class: kitMigration(processedRequestsExpiryIndexSql('players')) },
  { name: '0006_operator_compliance', class: OperatorCompliance },
  { name: '0007_rg_limits_pause_self_exclusion', class: RgLimitsPauseSelfExclusion },
  { name: '0008_eligibility_impediments', class: EligibilityImpediments },
  // Rows for requests still running (the kit keeps the answers of every keyed operation it runs: idempotency/kit-kept.ts).
  { name: '0009_running_requests', class: kitMigration(processedRequestsClaimsSql('players')) },
  { name: '0010_player_status_history', class: PlayerStatusHistory },
  { name: '0011_internal_impediments', class: InternalImpediments },
  { name: '0012_players_brand_cpf', class: PlayersBrandCpf },
  { name: '0013_sanctions_freeze', class: SanctionsFreeze },
  { name: '0014_terms_registration_data', class: Players0014TermsRegistrationData },
  { name: '0015_after_hit_communications', class: Players0015AfterHitCommunications },
  { name: '0016_compliance_changes', class: ComplianceChanges },
  { name: '0017_hand_set_self_exclusions_recorded', class: HandSetSelfExclusionsRecorded },
  { name: '0018_status_before_self_exclusion', class: StatusBeforeSelfExclusion },
  { name: '0019_registration_data_and_marketing', class: RegistrationDataAndMarketing },
  { name: '0020_after_hit_players_restricted', class: AfterHitPlayersRestricted },
  { name: '0021_data_requests_and_anonymisation', class: DataRequestsAndAnonymisation },
  { name: '0022_reality_check_minutes', class: RealityCheckMinutes },
  { name: '0023_team_measures', class: TeamMeasures },
];
