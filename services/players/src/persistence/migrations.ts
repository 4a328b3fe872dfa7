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

export const playerMigrations = [
  { name: '0001_create_players_schema', class: CreatePlayersSchema },
  { name: '0002_stored_answers_as_text', class: kitMigration(processedRequestsKeepTextSql('players')) },
  { name: '0003_kyc_history', class: KycHistory },
  // Fingerprint and request id beside each stored answer (the kit's processedRequestsFingerprintSql).
  { name: '0004_request_fingerprints', class: kitMigration(processedRequestsFingerprintSql('players')) },
  // Stored answers by age: the kit forgets them after IDEMPOTENCY_TTL_SECONDS (retention.ts).
  { name: '0005_stored_answers_by_age', class: kitMigration(processedRequestsExpiryIndexSql('players')) },
  { name: '0006_operator_compliance', class: OperatorCompliance },
  // Rows for requests still running (the kit keeps the answers of every keyed operation it runs: idempotency.ts).
  { name: '0007_running_requests', class: kitMigration(processedRequestsClaimsSql('players')) },
];
