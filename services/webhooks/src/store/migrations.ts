// The webhooks schema. Events are kept as the exact bytes received (signatures are computed over
// them); every attempt is a row, inserted `in_flight` when the attempt starts, so an attempt cut
// short by a crash still shows in the log (as `interrupted`).
import { kitMigration, kitTables, Migration } from '@bo/service-kit';

/**
 * The Postgres schema this service owns. Every table in it is read and written with the kit's
 * `sql` (the delivery path: claims, leases, the intake's statements), so the service has no
 * MikroORM entities; the ORM runs these migrations.
 */
export const WEBHOOKS_SCHEMA = 'webhooks';
const kit = kitTables(WEBHOOKS_SCHEMA);

class CreateWebhooksSchema extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table webhooks.endpoints (
      operator_id text not null,
      environment text not null check (environment in ('sandbox', 'production')),
      brand_id text not null,
      url text,
      -- sealSecret(whsec_..., SECRETS_MASTER_KEY); never the plain secret
      secret_sealed text check (secret_sealed is null or secret_sealed like 'v1.%'),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (operator_id, environment)
    )`);
    this.addSql(`create table webhooks.events (
      id text primary key,
      type text not null,
      environment text not null check (environment in ('sandbox', 'production')),
      operator_id text not null,
      brand_id text not null,
      body bytea not null,
      created_at timestamptz not null,
      received_at timestamptz not null default now(),
      source text not null check (source in ('stream', 'test'))
    )`);
    this.addSql('create index events_operator on webhooks.events (operator_id, received_at desc)');
    this.addSql(`create table webhooks.deliveries (
      id text primary key,
      event_id text not null references webhooks.events (id),
      operator_id text not null,
      environment text not null check (environment in ('sandbox', 'production')),
      kind text not null check (kind in ('event', 'redelivery', 'test')),
      status text not null check (status in ('pending', 'delivered', 'failed', 'no_endpoint')),
      attempts integer not null default 0 check (attempts >= 0),
      max_attempts integer not null check (max_attempts >= 1),
      -- due time while pending; while an attempt is in flight, the end of its lease
      next_attempt_at timestamptz,
      lease_token text,
      last_status_code integer,
      last_error text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      completed_at timestamptz,
      check ((status = 'pending') = (next_attempt_at is not null)),
      check (status = 'pending' or lease_token is null),
      check (attempts <= max_attempts)
    )`);
    this.addSql(`create index deliveries_due on webhooks.deliveries (next_attempt_at) where status = 'pending'`);
    this.addSql(`create index deliveries_endpoint_due on webhooks.deliveries (operator_id, environment, next_attempt_at) where status = 'pending'`);
    this.addSql('create index deliveries_event on webhooks.deliveries (event_id)');
    this.addSql(`create table webhooks.attempts (
      id bigserial primary key,
      delivery_id text not null references webhooks.deliveries (id),
      event_id text not null references webhooks.events (id),
      operator_id text not null,
      attempt integer not null check (attempt >= 1),
      url text not null,
      outcome text not null check (outcome in ('in_flight', 'delivered', 'failed', 'interrupted')),
      status_code integer,
      error text,
      duration_ms integer check (duration_ms >= 0),
      started_at timestamptz not null default now(),
      finished_at timestamptz,
      unique (delivery_id, attempt)
    )`);
    this.addSql('create index attempts_event on webhooks.attempts (event_id, id)');
    this.addSql('create index attempts_operator on webhooks.attempts (operator_id, id)');
    // The kit's outbox relay runs in every service; this service publishes no events of its own.
    this.addSql(kit.outbox);
    this.addSql(`create index attempts_in_flight on webhooks.attempts (delivery_id) where outcome = 'in_flight'`);
  }
}

/** The gateway's version of each endpoint: a change applies only over an older one (endpoint-sync.ts). */
class EndpointVersions extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table webhooks.endpoints add column version integer not null default 0');
  }
}

/**
 * API 1.2.0: the secret before a rotation, signed with too until it expires; stored answers of the
 * operator's redeliveries (the kit's runOnce); events listed per operator + environment.
 */
class OperatorWebhookTools extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table webhooks.endpoints
      add column previous_secret_sealed text check (previous_secret_sealed is null or previous_secret_sealed like 'v1.%'),
      add column previous_secret_expires_at timestamptz`);
    this.addSql(kit.storedAnswers);
    this.addSql(kit.storedAnswersAsText);
    this.addSql('create index events_operator_environment on webhooks.events (operator_id, environment, received_at desc, id desc)');
  }
}

/**
 * Issue 10: the per-endpoint in-flight limit as slot rows (store/endpoint-slots.ts), so the
 * intake can lease a delivery's first attempt in its own statement. 100 = MAX_ENDPOINT_CONCURRENCY
 * (raising that needs a migration adding slots). A trigger gives every endpoint its slots however
 * the row is inserted; leases live when this runs are copied into slots.
 */
class EndpointSlots extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table webhooks.endpoint_slots (
      operator_id text not null,
      environment text not null,
      slot smallint not null check (slot between 1 and 100),
      delivery_id text,
      lease_token text,
      lease_until timestamptz,
      primary key (operator_id, environment, slot),
      foreign key (operator_id, environment) references webhooks.endpoints on delete cascade,
      check ((lease_token is null) = (lease_until is null))
    ) with (fillfactor = 50)`); // updated all the time: room on each page keeps the updates HOT
    this.addSql(`create function webhooks.add_endpoint_slots() returns trigger language plpgsql as $$
      begin
        insert into webhooks.endpoint_slots (operator_id, environment, slot)
        select new.operator_id, new.environment, g from generate_series(1, 100) g on conflict do nothing;
        return null;
      end $$`);
    this.addSql(`create trigger endpoint_slots_added after insert on webhooks.endpoints
      for each row execute function webhooks.add_endpoint_slots()`);
    this.addSql(`insert into webhooks.endpoint_slots (operator_id, environment, slot)
      select e.operator_id, e.environment, g from webhooks.endpoints e cross join generate_series(1, 100) g`);
    this.addSql(`with live as (
        select id, operator_id, environment, lease_token, next_attempt_at,
               row_number() over (partition by operator_id, environment order by next_attempt_at, id) as n
        from webhooks.deliveries
        where status = 'pending' and lease_token is not null and next_attempt_at > now() and kind <> 'test'
      )
      update webhooks.endpoint_slots s set delivery_id = live.id, lease_token = live.lease_token, lease_until = live.next_attempt_at
      from live where s.operator_id = live.operator_id and s.environment = live.environment and s.slot = live.n`);
  }
}

/**
 * Issue 10: an attempt's record can be a HOT update (no index entries). The partial index on
 * in-flight attempts made every record a new row version with an entry in each of the table's
 * five indexes (its predicate column changes); the lookups it served all name the delivery, which
 * the (delivery_id, attempt) key serves. Pages keep room for the update. `events_operator` is
 * covered by `events_operator_environment` (every query names the environment).
 */
class LeanerDeliveryIndexes extends Migration {
  override async up(): Promise<void> {
    this.addSql('drop index webhooks.attempts_in_flight');
    this.addSql('alter table webhooks.attempts set (fillfactor = 70)');
    this.addSql('drop index webhooks.events_operator');
  }
}

/**
 * Issue 24: a 2xx from any delivery of an event ends the schedules of the event's other pending
 * deliveries (delivery-queue.ts, END_OTHER_SCHEDULES). `acknowledged_by` names the delivery whose
 * 2xx did: set on a delivery closed at once, and on one whose attempt was in flight then, which that
 * attempt's record (or the claim, if its lease lapses) ends `delivered` instead of scheduling more.
 */
class ScheduleEndedByAcknowledgement extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table webhooks.deliveries add column acknowledged_by text');
  }
}

export const webhookMigrations = [
  { name: 'CreateWebhooksSchema', class: CreateWebhooksSchema },
  { name: 'EndpointVersions', class: EndpointVersions },
  { name: 'OperatorWebhookTools', class: OperatorWebhookTools },
  { name: 'EndpointSlots', class: EndpointSlots },
  // Fingerprint and request id beside each stored answer (the kit's).
  { name: 'RequestFingerprints', class: kitMigration(kit.requestFingerprints) },
  { name: 'LeanerDeliveryIndexes', class: LeanerDeliveryIndexes },
  // Stored answers by age: the kit forgets them after IDEMPOTENCY_TTL_SECONDS (retention.ts).
  { name: 'StoredAnswersByAge', class: kitMigration(kit.storedAnswersByAge) },
  { name: 'ScheduleEndedByAcknowledgement', class: ScheduleEndedByAcknowledgement },
  // Rows for requests still running (the kit keeps the answers of every keyed operation it runs: idempotency/kit-kept.ts).
  { name: 'RunningRequests', class: kitMigration(kit.runningRequests) },
];
