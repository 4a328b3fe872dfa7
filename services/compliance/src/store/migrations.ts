// Schema `compliance`, listed in code and run on start: the kit's tables first, then the ORM's
// tables, generated from the entities (scripts/create-migration.ts).
import {
  kitMigration,
  Migration,
  outboxTableSql,
  processedRequestsClaimsSql,
  processedRequestsExpiryIndexSql,
  processedRequestsFingerprintSql,
  processedRequestsKeepTextSql,
  processedRequestsTableSql,
} from '@bo/service-kit';
import { caseAmountSql } from './case-amount.ts';

export const COMPLIANCE_SCHEMA = 'compliance';

/** Generated from the entities (scripts/create-migration.ts). */
export class CreateComplianceTables extends Migration {
  override async up(): Promise<void> {
    this.addSql('create schema if not exists "compliance"');
    this.addSql(
      'create table "compliance"."cases" ("id" text not null, "operator_id" text not null, "brand_id" text not null, "environment" text not null, "player_id" text not null, "risk" text not null, "status" text not null, "rules" text[] not null, "receipt" text null, "reviewed_by" text null, "opened_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"))',
    );
    this.addSql('create index "cases_by_player" on "compliance"."cases" ("player_id", "opened_at" desc, "id" desc)');
    this.addSql('create index "cases_by_status" on "compliance"."cases" ("status", "opened_at" desc, "id" desc)');
    this.addSql('create index "cases_by_time" on "compliance"."cases" ("opened_at" desc, "id" desc)');
    this.addSql(
      'create unique index "cases_one_active_per_player" on "compliance"."cases" ("brand_id", "player_id") where status in (\'open\', \'under_review\')',
    );
    this.addSql(
      'create table "compliance"."case_steps" ("id" bigserial primary key, "case_id" text not null, "status" text not null, "by" text not null, "at" timestamptz not null, "reason" text not null, "receipt" text null)',
    );
    this.addSql('create index "case_steps_by_case" on "compliance"."case_steps" ("case_id", "id")');
    this.addSql(
      'create table "compliance"."case_evidence" ("id" bigserial primary key, "case_id" text not null, "rule" text not null, "event_id" text not null, "at" timestamptz not null, "summary" text not null, "facts" jsonb not null)',
    );
    this.addSql('alter table "compliance"."case_evidence" add constraint "case_evidence_once" unique ("case_id", "rule", "event_id")');
    this.addSql(
      'create table "compliance"."brand_rules" ("brand_id" text not null, "thresholds" jsonb not null, "updated_at" timestamptz not null, "updated_by" text not null, primary key ("brand_id"))',
    );
    this.addSql(
      'create table "compliance"."player_risk" ("player_id" text not null, "brand_id" text not null, "level" text not null, "updated_at" timestamptz not null, primary key ("player_id"))',
    );
    this.addSql(
      'create table "compliance"."player_risk_history" ("id" bigserial primary key, "player_id" text not null, "level" text not null, "reason" text not null, "by" text not null, "at" timestamptz not null)',
    );
    this.addSql('create index "player_risk_history_by_player" on "compliance"."player_risk_history" ("player_id", "id")');
    this.addSql(
      'create table "compliance"."watched_money" ("event_id" text not null, "operator_id" text not null, "brand_id" text not null, "environment" text not null, "player_id" text not null, "kind" text not null, "reference" text not null, "amount" numeric(20,2) not null, "destination" text null, "occurred_at" timestamptz not null, primary key ("event_id"))',
    );
    this.addSql('create index "watched_money_by_player" on "compliance"."watched_money" ("brand_id", "player_id", "kind", "occurred_at")');
    this.addSql('create index "watched_money_by_destination" on "compliance"."watched_money" ("brand_id", "destination")');
    this.addSql('alter table "compliance"."cases" add constraint "cases_environment_check" check (environment in (\'sandbox\', \'production\'))');
    this.addSql('alter table "compliance"."cases" add constraint "cases_risk_check" check (risk in (\'low\', \'medium\', \'high\'))');
    this.addSql(
      "alter table \"compliance\".\"cases\" add constraint \"cases_status_check\" check (status in ('open', 'under_review', 'reported', 'dismissed'))",
    );
    this.addSql(
      "alter table \"compliance\".\"cases\" add constraint \"cases_rules_check\" check (rules <@ array['in_and_out', 'split_deposits', 'high_value', 'shared_destination', 'payer_mismatch', 'velocity', 'pep', 'sanctions']::text[])",
    );
    this.addSql(
      "alter table \"compliance\".\"case_steps\" add constraint \"case_steps_status_check\" check (status in ('open', 'under_review', 'reported', 'dismissed'))",
    );
    this.addSql(
      "alter table \"compliance\".\"case_evidence\" add constraint \"case_evidence_rule_check\" check (rule in ('in_and_out', 'split_deposits', 'high_value', 'shared_destination', 'payer_mismatch', 'velocity', 'pep', 'sanctions'))",
    );
    this.addSql('alter table "compliance"."player_risk" add constraint "player_risk_level_check" check (level in (\'low\', \'medium\', \'high\'))');
    this.addSql(
      'alter table "compliance"."player_risk_history" add constraint "player_risk_history_level_check" check (level in (\'low\', \'medium\', \'high\'))',
    );
    this.addSql(
      'alter table "compliance"."watched_money" add constraint "watched_money_kind_check" check (kind in (\'deposit\', \'withdrawal\', \'failed_deposit\'))',
    );
    this.addSql('alter table "compliance"."watched_money" add constraint "watched_money_amount_check" check (amount > 0)');
  }
}

/** Generated from the entities (scripts/create-migration.ts). */
export class Screening extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "compliance"."screened_players" ("player_id" text not null, "operator_id" text not null, "brand_id" text not null, "environment" text not null, "cpf" text not null, "name" text not null, "birth_date" text null, "last_hits" text[] not null, "screened_at" timestamptz not null, primary key ("player_id"))',
    );
    this.addSql(
      'create table "compliance"."screening_simulator_entries" ("id" text not null, "list" text not null, "cpf" text not null, "name" text not null, "detail" text not null, "created_at" timestamptz not null, primary key ("id"))',
    );
    this.addSql('create index "screening_simulator_entries_by_cpf" on "compliance"."screening_simulator_entries" ("cpf")');
    this.addSql(
      'alter table "compliance"."screening_simulator_entries" add constraint "screening_simulator_entries_list_check" check (list in (\'pep\', \'sanctions\'))',
    );
    this.addSql('alter table "compliance"."screening_simulator_entries" add constraint "screening_simulator_entries_cpf_check" check (cpf ~ \'^[0-9]{11}$\')');
  }
}

/** Generated from the entities (scripts/create-migration.ts). */
export class DailyReports extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "compliance"."daily_reports" ("brand_id" text not null, "date" text not null, "time_zone" text not null, "from" timestamptz not null, "to" timestamptz not null, "generated_at" timestamptz not null, "accounts" jsonb not null, primary key ("brand_id", "date"))',
    );
  }
}

/** Generated from the entities (scripts/create-migration.ts). */
export class DailyFileLines extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "compliance"."daily_file_lines" ("brand_id" text not null, "date" text not null, "part" text not null, "ref" text not null, "player_id" text not null, "at" timestamptz not null, "data" jsonb not null, primary key ("brand_id", "date", "part", "ref"))',
    );
    this.addSql('create index "daily_file_lines_in_order" on "compliance"."daily_file_lines" ("brand_id", "date", "part", "at", "ref")');
    this.addSql(
      'alter table "compliance"."daily_reports" add "operator_id" text null, add "time_zone_source" text null, add "lines_made_at" timestamptz null, add "counts" jsonb null, add "ties" boolean null, add "problems" jsonb null, add "checked_at" timestamptz null',
    );
    this.addSql('create index "daily_reports_by_date" on "compliance"."daily_reports" ("date", "brand_id")');
    this.addSql(
      'alter table "compliance"."daily_reports" add constraint "daily_reports_time_zone_source_check" check (time_zone_source in (\'query\', \'profile\', \'default\'))',
    );
    this.addSql(
      "alter table \"compliance\".\"daily_file_lines\" add constraint \"daily_file_lines_part_check\" check (part in ('bettors', 'deposits', 'withdrawals', 'rounds', 'status_changes'))",
    );
  }
}

/** Sandbox entries of the screening simulator: an operator's own (null: our team's, for every player screened against it). */
class SandboxScreeningEntries extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table "compliance"."screening_simulator_entries" add column "operator_id" text null');
  }
}

/** Four eyes on a case by identity: the reviewer's id (earlier reviews keep their name as it). */
class CaseReviewerIdentity extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table "compliance"."cases" add column "reviewer_id" text null');
    this.addSql(`update "compliance"."cases" set "reviewer_id" = 'actor:' || "reviewed_by" where "reviewed_by" is not null`);
  }
}

/** The daily regulator file's lines of third-party providers' bets, wins, rollbacks and corrections (issue #44). */
class ProviderReadsFileLines extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table "compliance"."daily_file_lines" drop constraint "daily_file_lines_part_check"');
    this.addSql(
      "alter table \"compliance\".\"daily_file_lines\" add constraint \"daily_file_lines_part_check\" check (part in ('bettors', 'deposits', 'withdrawals', 'rounds', 'provider_transactions', 'status_changes'))",
    );
  }
}

/** Who on our team works a case (issue #41: a queue that scales), and since when. */
class CaseAssignee extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table "compliance"."cases" add column "assignee" text null, add column "assigned_at" timestamptz null');
  }
}

/** SIGAP files (issue #46 item 1), each part of a version kept with SIGAP's answer. Generated from the entities (scripts/create-migration.ts). */
class SigapFiles extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "compliance"."sigap_files" ("id" text not null, "brand_id" text not null, "operator_id" text null, "environment" text null, "date" text not null, "file_type" text not null, "version" int not null, "part" int not null, "parts" int not null, "file_name" text not null, "records" int not null, "checksum" text not null, "content" text not null, "status" text not null, "via" text null, "attempts" int not null default 0, "receipt" text null, "protocol" text null, "phase" text null, "reasons" jsonb not null, "last_error" text null, "correction" text null, "made_at" timestamptz not null, "claimed_at" timestamptz null, "submitted_at" timestamptz null, "answered_at" timestamptz null, "superseded_at" timestamptz null, primary key ("id"))',
    );
    this.addSql('create index "sigap_files_by_date" on "compliance"."sigap_files" ("date", "id")');
    this.addSql('alter table "compliance"."sigap_files" add constraint "sigap_files_once" unique ("brand_id", "date", "file_type", "version", "part")');
    this.addSql('alter table "compliance"."sigap_files" add constraint "sigap_files_environment_check" check (environment in (\'sandbox\', \'production\'))');
    this.addSql(
      "alter table \"compliance\".\"sigap_files\" add constraint \"sigap_files_file_type_check\" check (file_type in ('bettors', 'wallets', 'online_games', 'sports_bets', 'legal_destinations'))",
    );
    this.addSql(
      "alter table \"compliance\".\"sigap_files\" add constraint \"sigap_files_status_check\" check (status in ('made', 'sending', 'pending', 'accepted', 'rejected', 'failed'))",
    );
    this.addSql('alter table "compliance"."sigap_files" add constraint "sigap_files_via_check" check (via in (\'simulator\', \'sigap\'))');
    this.addSql('alter table "compliance"."sigap_files" add constraint "sigap_files_phase_check" check (phase in (\'structure\', \'quality\'))');
  }
}

/**
 * AML beyond the players (issue #46, item 5): the decision to report a case and its COS deadline, the
 * risk register of team members, partners and suppliers with its ratings, and the yearly reports to the
 * SPA (generated from the entities, scripts/create-migration.ts).
 */
class AmlrestDuties extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "compliance"."annual_reports" ("operator_id" text not null, "year" int not null, "version" int not null, "time_zone" text not null, "made_at" timestamptz not null, "made_by" text not null, "file" text not null, "sha256" text not null, primary key ("operator_id", "year", "version"))',
    );
    this.addSql(
      'create table "compliance"."risk_subjects" ("id" text not null, "kind" text not null, "operator_id" text null, "name" text not null, "document" text null, "team_member_id" text null, "status" text not null, "rating" text not null, "rationale" text not null, "rated_by" text not null, "rated_at" timestamptz not null, "review_due_at" timestamptz not null, "created_at" timestamptz not null, "ended_at" timestamptz null, "ended_by" text null, "end_reason" text null, primary key ("id"))',
    );
    this.addSql('create index "risk_subjects_by_review" on "compliance"."risk_subjects" ("status", "review_due_at", "id")');
    this.addSql(
      'create unique index "risk_subjects_one_per_document" on "compliance"."risk_subjects" ("kind", coalesce("operator_id", \'\'), "document") where status = \'active\' and document is not null',
    );
    this.addSql(
      'create unique index "risk_subjects_one_per_team_member" on "compliance"."risk_subjects" (coalesce("operator_id", \'\'), "team_member_id") where status = \'active\' and team_member_id is not null',
    );
    this.addSql(
      'create table "compliance"."risk_subject_ratings" ("id" bigserial primary key, "subject_id" text not null, "rating" text not null, "rationale" text not null, "by" text not null, "at" timestamptz not null, "review_due_at" timestamptz not null)',
    );
    this.addSql('create index "risk_subject_ratings_by_subject" on "compliance"."risk_subject_ratings" ("subject_id", "id")');
    this.addSql(
      'alter table "compliance"."cases" add "report_decided_at" timestamptz null, add "report_decided_by" text null, add "report_decider_id" text null, add "report_decision_reason" text null, add "cos_due_at" timestamptz null, add "cos_filed_at" timestamptz null',
    );
    this.addSql('create index "cases_cos_awaiting" on "compliance"."cases" ("cos_due_at") where cos_due_at is not null and cos_filed_at is null');
    this.addSql('alter table "compliance"."annual_reports" add constraint "annual_reports_sha256_check" check (sha256 ~ \'^[0-9a-f]{64}$\')');
    this.addSql(
      'alter table "compliance"."risk_subjects" add constraint "risk_subjects_kind_check" check (kind in (\'team_member\', \'partner\', \'supplier\'))',
    );
    this.addSql('alter table "compliance"."risk_subjects" add constraint "risk_subjects_document_check" check (document ~ \'^([0-9]{11}|[0-9]{14})$\')');
    this.addSql('alter table "compliance"."risk_subjects" add constraint "risk_subjects_status_check" check (status in (\'active\', \'ended\'))');
    this.addSql('alter table "compliance"."risk_subjects" add constraint "risk_subjects_rating_check" check (rating in (\'low\', \'medium\', \'high\'))');
    this.addSql(
      'alter table "compliance"."risk_subject_ratings" add constraint "risk_subject_ratings_rating_check" check (rating in (\'low\', \'medium\', \'high\'))',
    );
    // Cases reported before: decided and filed at once (their reported step), so on time.
    this.addSql(
      `update "compliance"."cases" c set "report_decided_at" = s."at", "report_decided_by" = s."by", "report_decision_reason" = s."reason",
         "cos_due_at" = s."at", "cos_filed_at" = s."at"
       from "compliance"."case_steps" s where s."case_id" = c."id" and s."status" = 'reported' and c."report_decided_at" is null`,
    );
  }
}

/**
 * A console a team works in all day (issue #61): a case's amount and its risk as a rank (the queue
 * sorts by them), and a daily file's environment (the lists show production apart). Generated from
 * the entities (scripts/create-migration.ts), with the generated rank the ORM does not write and the
 * values of what was kept before: each case's amount from its evidence, each file's environment from
 * the events this service saw of its brand (null for a brand it never saw: docs/aml.md, "A file of no brand").
 */
export class ConsoleTeamDay extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "compliance"."cases" add "amount" numeric(20,2) not null default '0.00'`);
    this.addSql(`alter table "compliance"."daily_reports" add "environment" text null`);
    this.addSql(`alter table "compliance"."daily_reports" add constraint "daily_reports_environment_check" check (environment in ('sandbox', 'production'))`);
    this.addSql(
      `alter table "compliance"."cases" add "risk_rank" smallint generated always as (case risk when 'high' then 3 when 'medium' then 2 else 1 end) stored`,
    );
    this.addSql(`update "compliance"."cases" c set "amount" = ${caseAmountSql('c.id')}`);
    this.addSql(
      `update "compliance"."daily_reports" r set "environment" = coalesce(
         (select environment from "compliance"."watched_money" w where w.brand_id = r.brand_id limit 1),
         (select environment from "compliance"."screened_players" s where s.brand_id = r.brand_id limit 1))`,
    );
  }
}

/**
 * Issue #60 items 4 and 5: the operators' CNPJ the SIGAP files carry, the monthly SIGAP report, the
 * PEP and sanctions screening of the risk register's subjects, and the yearly internal risk assessment.
 */
export class RegulatorDuties extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "compliance"."operator_cnpjs" ("operator_id" text not null, "cnpj" text not null, "reason" text not null, "set_by" text not null, "set_at" timestamptz not null, primary key ("operator_id"))`,
    );
    this.addSql(`alter table "compliance"."operator_cnpjs" add constraint "operator_cnpjs_cnpj_check" check (cnpj ~ '^[0-9]{14}$')`);
    this.addSql(
      `create table "compliance"."sigap_monthly_reports" ("brand_id" text not null, "month" text not null, "version" int not null, "operator_id" text not null, "environment" text null, "content" text not null, "checksum" text not null, "made_by" text not null, "made_at" timestamptz not null, primary key ("brand_id", "month", "version"))`,
    );
    this.addSql(`alter table "compliance"."sigap_monthly_reports" add constraint "sigap_monthly_reports_month_check" check (month ~ '^[0-9]{4}-[0-9]{2}$')`);
    this.addSql(`alter table "compliance"."risk_subjects" add "screening_state" text not null default 'not_screened'`);
    this.addSql(`alter table "compliance"."risk_subjects" add "screening_hits" jsonb not null default '[]'`);
    this.addSql(`alter table "compliance"."risk_subjects" add "screened_at" timestamptz null`);
    this.addSql(
      `alter table "compliance"."risk_subjects" add constraint "risk_subjects_screening_state_check" check (screening_state in ('clear', 'hit', 'not_screened', 'failed'))`,
    );
    this.addSql(
      `create table "compliance"."risk_assessments" ("operator_id" text not null, "year" int not null, "version" int not null, "change" text null, "content" jsonb not null, "made_by" text not null, "made_at" timestamptz not null, primary key ("operator_id", "year", "version"))`,
    );
  }
}

/** Generated from the entities (scripts/create-migration.ts). */
export class HarmMarkers extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "compliance"."harm_days" ("player_id" text not null, "day" text not null, "operator_id" text not null, "brand_id" text not null, "environment" text not null, "deposits" int not null default 0, "deposit_sum" numeric(20,2) not null default \'0.00\', "failed_deposits" int not null default 0, "deposits_after_loss" int not null default 0, "withdrawals_cancelled" int not null default 0, "bets" int not null default 0, "stake_sum" numeric(20,2) not null default \'0.00\', "stake_squares" numeric(30,4) not null default \'0.0000\', "win_sum" numeric(20,2) not null default \'0.00\', "minutes_played" int not null default 0, "night_minutes" int not null default 0, "limits_raised" int not null default 0, "limits_removed" int not null default 0, "limits_reached" int not null default 0, "reality_checks_dismissed" int not null default 0, primary key ("player_id", "day"))',
    );
    this.addSql(
      'create table "compliance"."harm_events" ("event_id" text not null, "operator_id" text not null, "brand_id" text not null, "environment" text not null, "player_id" text not null, "kind" text not null, "amount" numeric(20,2) null, "day" text not null, "occurred_at" timestamptz not null, primary key ("event_id"))',
    );
    this.addSql('create index "harm_events_by_player" on "compliance"."harm_events" ("player_id", "occurred_at")');
    this.addSql(
      'create table "compliance"."harm_levels" ("player_id" text not null, "operator_id" text not null, "brand_id" text not null, "environment" text not null, "level" text not null, "score" int not null, "markers" jsonb not null, "assessed_on" text not null, "updated_at" timestamptz not null, primary key ("player_id"))',
    );
    this.addSql('create index "harm_levels_by_level" on "compliance"."harm_levels" ("level", "updated_at")');
    this.addSql(
      'create table "compliance"."harm_level_history" ("id" bigserial primary key, "player_id" text not null, "from_level" text not null, "to_level" text not null, "added" text[] not null, "removed" text[] not null, "markers" jsonb not null, "event_id" text not null, "at" timestamptz not null)',
    );
    this.addSql('create index "harm_level_history_by_player" on "compliance"."harm_level_history" ("player_id", "id")');
    this.addSql('alter table "compliance"."harm_days" add constraint "harm_days_environment_check" check (environment in (\'sandbox\', \'production\'))');
    this.addSql('alter table "compliance"."harm_events" add constraint "harm_events_environment_check" check (environment in (\'sandbox\', \'production\'))');
    this.addSql(
      'alter table "compliance"."harm_events" add constraint "harm_events_kind_check" check (kind in (\'deposit\', \'failed_deposit\', \'cancelled_withdrawal\'))',
    );
    this.addSql('alter table "compliance"."harm_events" add constraint "harm_events_day_check" check (day ~ \'^[0-9]{4}-[0-9]{2}-[0-9]{2}$\')');
    this.addSql('alter table "compliance"."harm_levels" add constraint "harm_levels_environment_check" check (environment in (\'sandbox\', \'production\'))');
    this.addSql("alter table \"compliance\".\"harm_levels\" add constraint \"harm_levels_level_check\" check (level in ('none', 'low', 'medium', 'high'))");
    this.addSql(
      "alter table \"compliance\".\"harm_level_history\" add constraint \"harm_level_history_from_level_check\" check (from_level in ('none', 'low', 'medium', 'high'))",
    );
    this.addSql(
      "alter table \"compliance\".\"harm_level_history\" add constraint \"harm_level_history_to_level_check\" check (to_level in ('none', 'low', 'medium', 'high'))",
    );
  }
}

/** Generated from the entities (scripts/create-migration.ts). */
export class HarmPending extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "compliance"."harm_pending" ("player_id" text not null, "operator_id" text not null, "brand_id" text not null, "environment" text not null, "day" text not null, "event_id" text not null, "counted_at" timestamptz not null, primary key ("player_id"))',
    );
    this.addSql('create index "harm_pending_by_counted_at" on "compliance"."harm_pending" ("counted_at")');
    this.addSql('alter table "compliance"."harm_pending" add constraint "harm_pending_environment_check" check (environment in (\'sandbox\', \'production\'))');
  }
}

/** Generated from the entities (scripts/create-migration.ts). */
export class HarmThresholds extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "compliance"."harm_thresholds" ("operator_id" text not null, "thresholds" jsonb not null, "reason" text not null, "updated_at" timestamptz not null, "updated_by" text not null, primary key ("operator_id"))',
    );
  }
}

/** Generated from the entities (scripts/create-migration.ts). */
export class HarmLimitEvents extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table "compliance"."harm_events" drop constraint "harm_events_kind_check"');
    this.addSql(
      "alter table \"compliance\".\"harm_events\" add constraint \"harm_events_kind_check\" check (kind in ('deposit', 'failed_deposit', 'cancelled_withdrawal', 'limit_raised', 'limit_removed', 'limit_reached'))",
    );
  }
}

/** Generated from the entities (scripts/create-migration.ts). */
export class HarmCases extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "compliance"."harm_cases" ("id" text not null, "operator_id" text not null, "brand_id" text not null, "environment" text not null, "player_id" text not null, "status" text not null, "level" text not null, "level_rank" int not null, "score" int not null, "markers" jsonb not null, "recent_deposits" numeric(20,2) not null, "assessed_on" text not null, "first_change_id" bigint not null, "interactions" int not null default 0, "follow_up_on" text null, "opened_at" timestamptz not null, "updated_at" timestamptz not null, "outcome" text null, "closed_at" timestamptz null, "closed_by" text null, "close_reason" text null, primary key ("id"))',
    );
    this.addSql('create index "harm_cases_by_player" on "compliance"."harm_cases" ("player_id", "opened_at")');
    this.addSql(
      'create index "harm_cases_queue" on "compliance"."harm_cases" ("status", "level_rank" desc, "score" desc, "recent_deposits" desc, "opened_at", "id")',
    );
    this.addSql('create unique index "harm_cases_one_open" on "compliance"."harm_cases" ("player_id") where status = \'open\'');
    this.addSql(
      'create table "compliance"."harm_interactions" ("id" text not null, "case_id" text not null, "channel" text not null, "summary" text not null, "operator_message_id" text null, "follow_up_on" text null, "by" text not null, "at" timestamptz not null, primary key ("id"))',
    );
    this.addSql('create index "harm_interactions_by_case" on "compliance"."harm_interactions" ("case_id", "at")');
    this.addSql('alter table "compliance"."harm_cases" add constraint "harm_cases_environment_check" check (environment in (\'sandbox\', \'production\'))');
    this.addSql('alter table "compliance"."harm_cases" add constraint "harm_cases_status_check" check (status in (\'open\', \'closed\'))');
    this.addSql("alter table \"compliance\".\"harm_cases\" add constraint \"harm_cases_level_check\" check (level in ('none', 'low', 'medium', 'high'))");
    this.addSql(
      "alter table \"compliance\".\"harm_cases\" add constraint \"harm_cases_outcome_check\" check (outcome is null or outcome in ('play_reduced', 'play_unchanged', 'self_excluded', 'not_at_risk', 'unreachable'))",
    );
    this.addSql(
      "alter table \"compliance\".\"harm_interactions\" add constraint \"harm_interactions_channel_check\" check (channel in ('operator_message', 'phone', 'email', 'chat', 'note'))",
    );
  }
}

/** Generated from the entities (scripts/create-migration.ts). */
export class HarmPlayHours extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "compliance"."harm_play_hours" ("player_id" text not null, "hour" timestamptz not null, "operator_id" text not null, "brand_id" text not null, "environment" text not null, "day" text not null, "night" boolean not null, "bets" int not null, "stake_sum" numeric(20,2) not null, "stake_squares" numeric(30,4) not null, "net_loss" numeric(20,2) not null, "seconds_played" int not null, primary key ("player_id", "hour"))',
    );
    this.addSql('create index "harm_play_hours_by_day" on "compliance"."harm_play_hours" ("player_id", "day")');
    this.addSql(
      'create table "compliance"."harm_play_read" ("id" int not null, "read_from" timestamptz not null, "passed_at" timestamptz not null, primary key ("id"))',
    );
    this.addSql(
      'alter table "compliance"."harm_play_hours" add constraint "harm_play_hours_environment_check" check (environment in (\'sandbox\', \'production\'))',
    );
    this.addSql('alter table "compliance"."harm_play_hours" add constraint "harm_play_hours_day_check" check (day ~ \'^[0-9]{4}-[0-9]{2}-[0-9]{2}$\')');
    this.addSql('alter table "compliance"."harm_play_read" add constraint "harm_play_read_id_check" check (id = 1)');
  }
}

/** Generated from the entities (scripts/create-migration.ts). */
export class HarmRealityChecks extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table "compliance"."harm_play_hours" add "reality_checks" int not null default 0');
  }
}

/** Generated from the entities (scripts/create-migration.ts). */
export class HarmMeasures extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "compliance"."harm_measures" ("id" text not null, "case_id" text not null, "player_id" text not null, "measure" text not null, "detail" jsonb not null, "reason" text not null, "status" text not null, "refusal" jsonb null, "by" text not null, "author" jsonb not null, "follow_up_on" text null, "requested_at" timestamptz not null, "settled_at" timestamptz null, primary key ("id"))',
    );
    this.addSql('create index "harm_measures_by_case" on "compliance"."harm_measures" ("case_id", "requested_at")');
    this.addSql('create index "harm_measures_pending" on "compliance"."harm_measures" ("requested_at") where status = \'pending\'');
    this.addSql('alter table "compliance"."harm_interactions" drop constraint "harm_interactions_channel_check"');
    this.addSql('alter table "compliance"."harm_interactions" add "measure_id" text null');
    this.addSql(
      "alter table \"compliance\".\"harm_interactions\" add constraint \"harm_interactions_channel_check\" check (channel in ('operator_message', 'phone', 'email', 'chat', 'note', 'measure'))",
    );
    this.addSql(
      "alter table \"compliance\".\"harm_measures\" add constraint \"harm_measures_measure_check\" check (measure in ('pause', 'stricter_limit', 'reality_check', 'recommend_self_exclusion'))",
    );
    this.addSql(
      'alter table "compliance"."harm_measures" add constraint "harm_measures_status_check" check (status in (\'pending\', \'applied\', \'refused\'))',
    );
  }
}

/** Generated from the entities (scripts/create-migration.ts). */
export class HarmPaymentMethods extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table "compliance"."harm_days" add "deposit_methods" text[] not null default \'{}\'');
    this.addSql('alter table "compliance"."harm_events" add "method" text null');
  }
}

export const complianceMigrations = [
  {
    name: '0001_kit_tables',
    class: kitMigration(
      `create schema if not exists ${COMPLIANCE_SCHEMA}`,
      outboxTableSql(COMPLIANCE_SCHEMA),
      processedRequestsTableSql(COMPLIANCE_SCHEMA),
      processedRequestsKeepTextSql(COMPLIANCE_SCHEMA),
      processedRequestsFingerprintSql(COMPLIANCE_SCHEMA),
      processedRequestsExpiryIndexSql(COMPLIANCE_SCHEMA),
    ),
  },
  { name: '0002_create_compliance_tables', class: CreateComplianceTables },
  { name: '0003_screening', class: Screening },
  { name: '0004_daily_reports', class: DailyReports },
  // Rows for requests still running (the kit keeps the answers of every keyed operation it runs: idempotency/kit-kept.ts).
  { name: '0005_running_requests', class: kitMigration(processedRequestsClaimsSql(COMPLIANCE_SCHEMA)) },
  { name: '0006_daily_file_lines', class: DailyFileLines },
  { name: '0007_sandbox_screening_entries', class: SandboxScreeningEntries },
  { name: '0008_case_reviewer_identity', class: CaseReviewerIdentity },
  { name: '0009_case_assignee', class: CaseAssignee },
  { name: '0010_providerreads_file_lines', class: ProviderReadsFileLines },
  { name: '0011_sigap_files', class: SigapFiles },
  { name: '0012_amlrest_duties', class: AmlrestDuties },
  { name: '0013_console_team_day', class: ConsoleTeamDay },
  { name: '0014_regulator_duties', class: RegulatorDuties },
  { name: '0015_harm_markers', class: HarmMarkers },
  { name: '0016_harm_pending', class: HarmPending },
  { name: '0017_harm_thresholds', class: HarmThresholds },
  { name: '0018_harm_limit_events', class: HarmLimitEvents },
  { name: '0019_harm_cases', class: HarmCases },
  { name: '0020_harm_play_hours', class: HarmPlayHours },
  { name: '0021_harm_reality_checks', class: HarmRealityChecks },
  { name: '0022_harm_measures', class: HarmMeasures },
  { name: '0023_harm_payment_methods', class: HarmPaymentMethods },
];
