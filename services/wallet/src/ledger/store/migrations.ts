// The ledger's tables in the wallet schema. Names are prefixed `Ledger` because the games module
// shares this schema and its migration list (see docs/money.md).
import { kitMigration, kitTables, Migration } from '@bo/service-kit';

export const WALLET_SCHEMA = 'wallet';
const kit = kitTables(WALLET_SCHEMA);

export class Ledger0001Accounts extends Migration {
  override async up(): Promise<void> {
    // Player accounts never go below zero nor hold more than they have; brand clearing accounts
    // are the other side of every posting and may go negative, but never hold.
    this.addSql(`create table wallet.accounts (
      id text primary key,
      kind text not null check (kind in ('player', 'deposit_clearing', 'payout_clearing')),
      brand_id text not null,
      player_id text,
      currency text not null,
      available numeric(20,2) not null default 0,
      held numeric(20,2) not null default 0,
      entry_count bigint not null default 0,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      constraint accounts_player_id_iff_player check ((kind = 'player') = (player_id is not null)),
      constraint accounts_player_balances check (kind <> 'player' or (available >= 0 and held >= 0 and held <= available)),
      constraint accounts_clearing_never_holds check (kind = 'player' or held = 0)
    )`);
    this.addSql(`create unique index accounts_player_unique on wallet.accounts (brand_id, player_id, currency) where kind = 'player'`);
    this.addSql(`create unique index accounts_clearing_unique on wallet.accounts (brand_id, kind, currency) where kind <> 'player'`);
  }
}

export class Ledger0002Ledger extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table wallet.ledger_transactions (
      id text primary key,
      source text not null unique,
      type text not null,
      brand_id text not null,
      currency text not null,
      reference_id text not null,
      created_at timestamptz not null
    )`);
    this.addSql(`create table wallet.ledger_entries (
      id text primary key,
      transaction_id text not null references wallet.ledger_transactions (id),
      account_id text not null references wallet.accounts (id),
      account_seq bigint not null,
      type text not null,
      amount numeric(20,2) not null check (amount <> 0),
      balance_after numeric(20,2) not null,
      currency text not null,
      reference_id text not null,
      created_at timestamptz not null,
      unique (account_id, account_seq)
    )`);
    this.addSql('create index ledger_entries_by_account_time on wallet.ledger_entries (account_id, created_at desc, id desc)');
    this.addSql('create index ledger_entries_by_transaction on wallet.ledger_entries (transaction_id)');

    // Append-only: corrections are new entries, never edits.
    this.addSql(`create function wallet.refuse_ledger_change() returns trigger language plpgsql as $fn$
      begin
        raise exception 'the ledger is append-only: % on wallet.% refused', tg_op, tg_table_name using errcode = 'P0001';
      end
    $fn$`);
    for (const table of ['ledger_entries', 'ledger_transactions']) {
      this.addSql(`create trigger ${table}_append_only before update or delete on wallet.${table}
        for each row execute function wallet.refuse_ledger_change()`);
      this.addSql(`create trigger ${table}_no_truncate before truncate on wallet.${table}
        for each statement execute function wallet.refuse_ledger_change()`);
    }

    // Double entry: a transaction whose postings do not sum to zero cannot commit.
    this.addSql(`create function wallet.check_transaction_balanced() returns trigger language plpgsql as $fn$
      declare total numeric;
      begin
        select coalesce(sum(amount), 0) into total from wallet.ledger_entries where transaction_id = new.transaction_id;
        if total <> 0 then
          raise exception 'ledger transaction % does not balance (sum %)', new.transaction_id, total using errcode = 'P0001';
        end if;
        return null;
      end
    $fn$`);
    this.addSql(`create constraint trigger ledger_entries_balanced after insert on wallet.ledger_entries
      deferrable initially deferred for each row execute function wallet.check_transaction_balanced()`);
  }
}

export class Ledger0003Holds extends Migration {
  override async up(): Promise<void> {
    // One hold per withdrawal. `declined` records a refusal so a repeated hold answers the same.
    this.addSql(`create table wallet.holds (
      id text primary key,
      withdrawal_id text not null unique,
      account_id text not null references wallet.accounts (id),
      brand_id text not null,
      amount numeric(20,2) not null check (amount > 0),
      status text not null check (status in ('open', 'released', 'captured', 'declined')),
      transaction_id text references wallet.ledger_transactions (id),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      constraint holds_captured_has_transaction check ((status = 'captured') = (transaction_id is not null))
    )`);
    this.addSql(`create index holds_open_by_account on wallet.holds (account_id) where status = 'open'`);
    // The kit's outbox relay polls wallet.outbox; `if not exists` lets the games module add it too.
    this.addSql(kit.outbox);
    this.addSql(kit.storedAnswers);
  }
}

export class Ledger0004GameClearing extends Migration {
  override async up(): Promise<void> {
    // Real-money game rounds post BET and WIN against a brand game-clearing account (one per brand
    // and currency), like deposits and payouts against theirs. Clearing accounts may go negative
    // (players winning more than they bet) and never hold; the player CHECKs are unchanged.
    this.addSql('alter table wallet.accounts drop constraint accounts_kind_check');
    this.addSql(`alter table wallet.accounts add constraint accounts_kind_check
      check (kind in ('player', 'deposit_clearing', 'payout_clearing', 'game_clearing'))`);
  }
}

export class Ledger0005AppendOnlyClearing extends Migration {
  override async up(): Promise<void> {
    // Clearing accounts stop keeping a locked running balance (docs/money.md, "Hot accounts"):
    // their entries carry no sequence number nor balance_after, and each entry records the
    // transaction id that wrote it so a background roll-up can add committed entries to the
    // stored balance exactly once (everything below the oldest running transaction is final).
    this.addSql('alter table wallet.ledger_entries alter column account_seq drop not null, alter column balance_after drop not null');
    this.addSql('alter table wallet.ledger_entries add column posted_xid xid8 not null default pg_current_xact_id()');
    this.addSql(`alter table wallet.ledger_entries add constraint ledger_entries_seq_iff_balance
      check ((account_seq is null) = (balance_after is null))`);
    this.addSql('create index ledger_entries_unrolled on wallet.ledger_entries (posted_xid) where account_seq is null');
    // Entries with posted_xid below `through_xid` are in the clearing accounts' stored `available`.
    // Existing clearing balances already include every existing entry (all written by this
    // migration's rewrite with its own xid), hence the start one past it.
    this.addSql(`create table wallet.clearing_rollup (
      id boolean primary key default true check (id),
      through_xid xid8 not null,
      rolled_at timestamptz not null default now()
    )`);
    this.addSql(`insert into wallet.clearing_rollup (through_xid) values (((pg_current_xact_id()::text)::bigint + 1)::text::xid8)`);
    // What every report reads: a clearing account's balance is its rolled-up balance plus the
    // entries not rolled up yet; a player account's is its locked running balance.
    this.addSql(`create view wallet.account_balances as
      select a.id, a.kind, a.brand_id, a.player_id, a.currency, a.held,
        a.available + case when a.kind = 'player' then 0 else coalesce((
          select sum(e.amount) from wallet.ledger_entries e, wallet.clearing_rollup r
          where e.account_id = a.id and e.account_seq is null and e.posted_xid >= r.through_xid), 0) end as available
      from wallet.accounts a`);
  }
}

export const ledgerMigrations = [
  { name: 'Ledger0001Accounts', class: Ledger0001Accounts },
  { name: 'Ledger0002Ledger', class: Ledger0002Ledger },
  { name: 'Ledger0003Holds', class: Ledger0003Holds },
  { name: 'Ledger0004GameClearing', class: Ledger0004GameClearing },
  { name: 'Ledger0005AppendOnlyClearing', class: Ledger0005AppendOnlyClearing },
  { name: 'Ledger0006StoredAnswersAsText', class: kitMigration(kit.storedAnswersAsText) },
  // Fingerprint and request id beside each stored answer (the kit's).
  { name: 'Ledger0007RequestFingerprints', class: kitMigration(kit.requestFingerprints) },
  // Stored answers by age: the kit forgets them after IDEMPOTENCY_TTL_SECONDS (retention.ts).
  { name: 'Ledger0008StoredAnswersByAge', class: kitMigration(kit.storedAnswersByAge) },
  // Rows for requests still running (the kit keeps the answers of every keyed operation it runs: idempotency/kit-kept.ts).
  { name: 'Ledger0009RunningRequests', class: kitMigration(kit.runningRequests) },
];
