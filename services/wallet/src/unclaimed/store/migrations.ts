// The unclaimed module's tables in schema `wallet` (issue #46 item 4, docs/eligibility.md "After a
// hit"). Names start with Unclaimed so they never clash with the other modules' migrations in the
// same bookkeeping table; the module comes last in the wallet's composition, so these run after the
// providers' (which set the accounts' kinds before).
// - impeded_accounts: a player account closed after an impediment hit (one row per account, whether
//   or not money ever moved on it), with the deadline of the return to the bettor's own account;
// - unclaimed_holds: a balance the return did not take, moved to the brand's unclaimed-funds account,
//   held 180 days: returned to the bettor, or transferred to the funds;
// - fund_transfers: each transfer to FIES and FUNCAP, with its split and ledger transaction.
// Holds and transfers are money records: never deleted; a transfer never changes.
import { Migration } from '@bo/service-kit';

export class Unclaimed0001ImpededFunds extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table wallet.accounts drop constraint accounts_kind_check');
    this.addSql(`alter table wallet.accounts add constraint accounts_kind_check
      check (kind in ('player', 'deposit_clearing', 'payout_clearing', 'game_clearing', 'provider_clearing', 'unclaimed_impeded', 'fund_transfer_payable'))`);
    this.addSql(`create table wallet.impeded_accounts (
      account_id text primary key,
      operator_id text not null,
      brand_id text not null,
      environment text not null check (environment in ('sandbox', 'production')),
      player_id text not null,
      currency text not null check (currency ~ '^[A-Z]{3}$'),
      closed_at timestamptz not null,
      return_due_at timestamptz not null check (return_due_at >= closed_at),
      created_at timestamptz not null default now()
    )`);
    this.addSql('create index impeded_accounts_due on wallet.impeded_accounts (return_due_at)');
    this.addSql(`create table wallet.unclaimed_holds (
      id text primary key,
      account_id text not null references wallet.accounts (id),
      operator_id text not null,
      brand_id text not null,
      environment text not null check (environment in ('sandbox', 'production')),
      player_id text not null,
      currency text not null,
      amount numeric(20,2) not null check (amount > 0),
      status text not null default 'held' check (status in ('held', 'returned', 'transferred')),
      held_at timestamptz not null,
      release_due_at timestamptz not null check (release_due_at > held_at),
      hold_transaction_id text not null unique references wallet.ledger_transactions (id),
      ended_at timestamptz,
      end_transaction_id text unique references wallet.ledger_transactions (id),
      return_reference text check (length(return_reference) between 1 and 128),
      returned_by text,
      check ((status = 'held') = (ended_at is null)),
      check ((status = 'held') = (end_transaction_id is null)),
      check ((status = 'returned') = (return_reference is not null and returned_by is not null))
    )`);
    this.addSql(`create index unclaimed_holds_due on wallet.unclaimed_holds (release_due_at, id) where status = 'held'`);
    this.addSql('create index unclaimed_holds_by_time on wallet.unclaimed_holds (held_at desc, id desc)');
    this.addSql('create index unclaimed_holds_player on wallet.unclaimed_holds (brand_id, player_id, held_at desc)');
    this.addSql(`create table wallet.fund_transfers (
      id text primary key,
      hold_id text not null unique references wallet.unclaimed_holds (id),
      operator_id text not null,
      brand_id text not null,
      environment text not null check (environment in ('sandbox', 'production')),
      player_id text not null,
      currency text not null,
      amount numeric(20,2) not null check (amount > 0),
      fies numeric(20,2) not null check (fies >= 0),
      funcap numeric(20,2) not null check (funcap >= 0),
      transaction_id text not null unique references wallet.ledger_transactions (id),
      recorded_at timestamptz not null,
      check (fies + funcap = amount)
    )`);
    this.addSql('create index fund_transfers_by_time on wallet.fund_transfers (recorded_at desc, id desc)');
    this.addSql(`create function wallet.refuse_unclaimed_change() returns trigger language plpgsql as $fn$
      begin
        raise exception 'unclaimed funds are money records: % on wallet.% refused', tg_op, tg_table_name using errcode = 'P0001';
      end
    $fn$`);
    this.addSql(`create trigger unclaimed_holds_kept before delete on wallet.unclaimed_holds
      for each row execute function wallet.refuse_unclaimed_change()`);
    this.addSql(`create trigger fund_transfers_kept before update or delete on wallet.fund_transfers
      for each row execute function wallet.refuse_unclaimed_change()`);
    for (const table of ['unclaimed_holds', 'fund_transfers']) {
      this.addSql(`create trigger ${table}_no_truncate before truncate on wallet.${table}
        for each statement execute function wallet.refuse_unclaimed_change()`);
    }
  }
}

/**
 * Issue #60 item 6. The 180 days count from the communication to the bettor (the SPA's FAQ), not from
 * the hold: a hold records the notice (`notice_sent_at`, from the players service's communications log)
 * and is due 180 days after it; without a reported notice its clock has not started (`release_due_at`
 * null). Holds still held start again from their notice (the job asks for it). A transfer to the funds
 * is paid through payments: its request (`fund_payout_requests`, one per transfer) and each half's
 * ledger move (`fund_payouts`, FUND_PAYOUT: the brand's fund-transfer account to its payout clearing,
 * once per payout of payments'), never changed nor deleted.
 */
export class Unclaimed0002NoticeClockAndPayouts extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table wallet.unclaimed_holds add column notice_sent_at timestamptz');
    this.addSql('alter table wallet.unclaimed_holds alter column release_due_at drop not null');
    // A communication made long before the hold puts its due date before the hold itself (due at once).
    this.addSql('alter table wallet.unclaimed_holds drop constraint unclaimed_holds_check');
    this.addSql(
      'alter table wallet.unclaimed_holds add constraint unclaimed_holds_clock_check check (notice_sent_at is null or release_due_at > notice_sent_at)',
    );
    this.addSql("update wallet.unclaimed_holds set release_due_at = null where status = 'held'");
    this.addSql(`create index unclaimed_holds_awaiting_notice on wallet.unclaimed_holds (id) where status = 'held' and release_due_at is null`);
    this.addSql(`create table wallet.fund_payout_requests (
      transfer_id text primary key references wallet.fund_transfers (id),
      requested_at timestamptz not null
    )`);
    this.addSql(`create table wallet.fund_payouts (
      id text primary key,
      transfer_id text not null references wallet.fund_transfers (id),
      fund text not null check (fund in ('fies', 'funcap')),
      brand_id text not null,
      currency text not null,
      amount numeric(20,2) not null check (amount > 0),
      transaction_id text not null unique references wallet.ledger_transactions (id),
      posted_at timestamptz not null,
      unique (transfer_id, fund)
    )`);
    for (const table of ['fund_payout_requests', 'fund_payouts']) {
      this.addSql(`create trigger ${table}_kept before update or delete on wallet.${table}
        for each row execute function wallet.refuse_unclaimed_change()`);
      this.addSql(`create trigger ${table}_no_truncate before truncate on wallet.${table}
        for each statement execute function wallet.refuse_unclaimed_change()`);
    }
  }
}

export const unclaimedMigrations = [
  { name: 'Unclaimed0001ImpededFunds', class: Unclaimed0001ImpededFunds },
  { name: 'Unclaimed0002NoticeClockAndPayouts', class: Unclaimed0002NoticeClockAndPayouts },
];
