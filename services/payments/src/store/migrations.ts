// The payments schema. Transitional statuses (confirming, reserving, cancelling, rejecting,
// paying) mark an intent recorded before a wallet effect; the reconciler finishes them.
import { kitMigration, kitTables, Migration } from '@bo/service-kit';

export const PAYMENTS_SCHEMA = 'payments';
const kit = kitTables(PAYMENTS_SCHEMA);

export class Payments0001Deposits extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table payments.deposits (
      id text primary key,
      operator_id text not null,
      brand_id text not null,
      environment text not null check (environment in ('sandbox', 'production')),
      player_id text not null,
      amount numeric(20,2) not null check (amount > 0 and amount <= 1000000),
      currency text not null,
      method text not null,
      external_reference text not null,
      status text not null check (status in ('pending', 'confirming', 'confirmed', 'failed')),
      -- who asked for the confirm (operator:environment + Idempotency-Key), to answer it later
      confirm_scope text,
      confirm_key text,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      touched_at timestamptz not null default now(),
      confirmed_at timestamptz,
      failed_at timestamptz,
      failure_reason text,
      constraint deposits_confirmed_has_time check ((status = 'confirmed') = (confirmed_at is not null)),
      constraint deposits_failed_has_time check ((status = 'failed') = (failed_at is not null))
    )`);
    this.addSql('create unique index deposits_brand_external_reference on payments.deposits (brand_id, external_reference)');
    this.addSql('create index deposits_by_player_day on payments.deposits (brand_id, player_id, created_at)');
    this.addSql(`create index deposits_confirming on payments.deposits (touched_at) where status = 'confirming'`);
    this.addSql(kit.outbox);
    this.addSql(kit.storedAnswers);
  }
}

export class Payments0002Withdrawals extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table payments.withdrawals (
      id text primary key,
      operator_id text not null,
      brand_id text not null,
      environment text not null check (environment in ('sandbox', 'production')),
      player_id text not null,
      amount numeric(20,2) not null check (amount > 0 and amount <= 1000000),
      currency text not null,
      method text not null,
      destination text not null,
      status text not null check (status in (
        'reserving', 'declined', 'under_review', 'approved', 'paid', 'rejected', 'cancelled', 'failed',
        'cancelling', 'rejecting', 'paying')),
      -- the create request's key, and the key of an in-flight cancel, to answer them later
      request_scope text,
      request_key text,
      action_scope text,
      action_key text,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      touched_at timestamptz not null default now()
    )`);
    this.addSql('create unique index withdrawals_request_key on payments.withdrawals (request_scope, request_key)');
    this.addSql('create index withdrawals_queue on payments.withdrawals (status, created_at, id)');
    this.addSql(`create index withdrawals_transitional on payments.withdrawals (touched_at)
      where status in ('reserving', 'cancelling', 'rejecting', 'paying')`);
  }
}

/** Four eyes on money out: who approved a withdrawal, and each operator's threshold (docs/decisions.md). */
export class Payments0004FourEyes extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table payments.withdrawals add column approved_by text');
    this.addSql(`create table payments.four_eyes (
      operator_id text primary key,
      min_amount numeric(20,2) not null check (min_amount >= 0),
      updated_at timestamptz not null,
      updated_by text not null
    )`);
    this.addSql('create index withdrawals_by_player on payments.withdrawals (player_id, created_at desc)');
  }
}

/** Fingerprint and request id beside each stored answer (the kit's). */
export class Payments0005RequestFingerprints extends Migration {
  override async up(): Promise<void> {
    this.addSql(kit.requestFingerprints);
    // The confirm's key is remembered on the deposit; so is its fingerprint, for the answer stored at completion.
    this.addSql('alter table payments.deposits add column if not exists confirm_fingerprint text');
  }
}

/**
 * The fingerprint of the request that started a withdrawal move, beside its key: withdrawals'
 * create and cancel keep their idempotency records here (the answer is the effect's: docs/architecture.md, "Idempotency"), so a key
 * reused for another request is refused by comparing fingerprints, also before the answer is
 * stored (a move still under way). The create's request id too: a declined create's stored 422,
 * written by the move's completion, keeps it when replayed.
 */
export class Payments0006WithdrawalKeyFingerprints extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table payments.withdrawals add column if not exists request_fingerprint text, add column if not exists request_id text,
      add column if not exists action_fingerprint text`);
  }
}

/**
 * Keys are kept 24 h here as at the gateway (the kit's retention.ts): stored answers by age, and
 * the withdrawals whose create's key is still remembered on the row, by age (the partial index
 * holds only those: a key is cleared once forgotten).
 */
export class Payments0007KeysByAge extends Migration {
  override async up(): Promise<void> {
    this.addSql(kit.storedAnswersByAge);
    this.addSql('create index withdrawals_remembered_keys on payments.withdrawals (created_at) where request_key is not null');
  }
}

/**
 * br-spa (docs/eligibility.md): the payer a confirm reported, kept on the deposit for our
 * compliance team (a mismatch included); the simulated PSP's PIX key directory of the sandbox.
 */
export class PaymentsOwnAccount extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table payments.deposits add column if not exists payer_cpf text check (payer_cpf ~ '^[0-9]{11}$'),
      add column if not exists payer_name text, add column if not exists payer_bank text, add column if not exists payer_account text`);
    this.addSql(`create table if not exists payments.simulated_pix_keys (
      operator_id text not null,
      key text not null check (length(key) between 1 and 77),
      owner_cpf text not null check (owner_cpf ~ '^[0-9]{11}$'),
      created_at timestamptz not null,
      primary key (operator_id, key)
    )`);
  }
}

/** br-spa: the player's CPF on the deposit at create, the payer a confirm must report (deposit-store.ts). */
export class Payments0009DepositOwnerCpf extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table payments.deposits add column if not exists owner_cpf text check (owner_cpf ~ '^[0-9]{11}$')`);
  }
}

/**
 * Decisions by people: the approver's identity (four eyes compares it, not a name), and who asked
 * for a reject or pay under way (its completion writes the decision's audit row). Earlier approvals
 * keep the name they were made under as their identity.
 */
export class Payments0010DecisionsByPeople extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table payments.withdrawals add column if not exists approver_id text, add column if not exists decided_by jsonb`);
    this.addSql(`update payments.withdrawals set approver_id = 'actor:' || approved_by where approved_by is not null and approver_id is null`);
  }
}

/**
 * The prize clock (issue #46 item 3; docs/eligibility.md): a br-spa withdrawal's payout deadline
 * (null under the profile off); the review queue by deadline (rows without one last); the rows the
 * clock's gauge counts (waiting for their payout); each operator's automatic approval amount (none:
 * off, every withdrawal waits for a person).
 */
export class PaymentsPrizeClock0011 extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table payments.withdrawals add column if not exists payout_due_at timestamptz');
    this.addSql(`create index if not exists withdrawals_queue_payout_due on payments.withdrawals
      (status, (coalesce(payout_due_at, 'infinity'::timestamptz)), id)`);
    this.addSql(`create index if not exists withdrawals_payout_clock on payments.withdrawals (payout_due_at)
      where payout_due_at is not null and status in ('under_review', 'approved', 'paying')`);
    this.addSql(`create table if not exists payments.auto_approval (
      operator_id text primary key,
      below_amount numeric(20,2) check (below_amount is null or below_amount > 0),
      updated_at timestamptz not null,
      updated_by text not null
    )`);
  }
}

/**
 * Issue #60 item 6: the transfers of unclaimed funds to FIES and FUNCAP are paid, not only recorded.
 * Each transfer's half is a payout to the fund's account set in configuration, `pending` until the
 * rail paid it (its receipt) and the wallet posted it (its ledger transaction), or `failed` when the
 * rail refused it. Money records: never deleted. The simulated rail keeps one payment per payout.
 */
export class PaymentsFundPayouts0012 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table payments.fund_payouts (
      id text primary key,
      transfer_id text not null,
      fund text not null check (fund in ('fies', 'funcap')),
      operator_id text not null,
      brand_id text not null,
      environment text not null check (environment in ('sandbox', 'production')),
      currency text not null check (currency ~ '^[A-Z]{3}$'),
      amount numeric(20,2) not null check (amount > 0),
      destination text not null check (length(destination) between 1 and 200),
      status text not null default 'pending' check (status in ('pending', 'paid', 'failed')),
      receipt text check (length(receipt) between 1 and 200),
      ledger_transaction_id text,
      failure_reason text check (length(failure_reason) between 1 and 500),
      requested_at timestamptz not null,
      paid_at timestamptz,
      updated_at timestamptz not null,
      unique (transfer_id, fund),
      check ((status = 'paid') = (receipt is not null and ledger_transaction_id is not null and paid_at is not null)),
      check ((status = 'failed') = (failure_reason is not null))
    )`);
    this.addSql(`create index fund_payouts_pending on payments.fund_payouts (id) where status = 'pending'`);
    this.addSql('create index fund_payouts_by_time on payments.fund_payouts (requested_at desc, id desc)');
    this.addSql(`create function payments.refuse_fund_payout_delete() returns trigger language plpgsql as $fn$
      begin
        raise exception 'fund payouts are money records: % refused', tg_op using errcode = 'P0001';
      end
    $fn$`);
    this.addSql(`create trigger fund_payouts_kept before delete on payments.fund_payouts
      for each row execute function payments.refuse_fund_payout_delete()`);
    this.addSql(`create table payments.simulated_fund_transfers (
      payout_id text primary key,
      fund text not null,
      destination text not null,
      amount numeric(20,2) not null,
      currency text not null,
      receipt text not null,
      sent_at timestamptz not null
    )`);
  }
}

export const paymentsMigrations = [
  { name: 'Payments0001Deposits', class: Payments0001Deposits },
  { name: 'Payments0002Withdrawals', class: Payments0002Withdrawals },
  { name: 'Payments0003StoredAnswersAsText', class: kitMigration(kit.storedAnswersAsText) },
  { name: 'Payments0004FourEyes', class: Payments0004FourEyes },
  { name: 'Payments0005RequestFingerprints', class: Payments0005RequestFingerprints },
  { name: 'Payments0006WithdrawalKeyFingerprints', class: Payments0006WithdrawalKeyFingerprints },
  { name: 'Payments0007KeysByAge', class: Payments0007KeysByAge },
  { name: 'PaymentsOwnAccount', class: PaymentsOwnAccount },
  // Rows for requests still running (the kit keeps the answers of every keyed operation it runs: idempotency/kit-kept.ts).
  { name: 'Payments0008RunningRequests', class: kitMigration(kit.runningRequests) },
  { name: 'Payments0009DepositOwnerCpf', class: Payments0009DepositOwnerCpf },
  { name: 'Payments0010DecisionsByPeople', class: Payments0010DecisionsByPeople },
  { name: 'PaymentsPrizeClock0011', class: PaymentsPrizeClock0011 },
  { name: 'PaymentsFundPayouts0012', class: PaymentsFundPayouts0012 },
];
