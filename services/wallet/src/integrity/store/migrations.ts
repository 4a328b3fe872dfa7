// The integrity module's tables in schema `wallet` (issue #60 item 3; docs/games.md, "Integrity
// holds"). Names start with Integrity so they never clash with the other modules' migrations in the
// same bookkeeping table; the module comes last in the wallet's composition (after unclaimed, which
// set the accounts' kinds before).
// - integrity_holds: a sports slip's prize held by our compliance team, with the reason and the
//   evidence, who placed it, and the decision (released or forfeited) by another person;
// - integrity_held_wins: each provider win of a held slip, kept on the brand's integrity-hold
//   account instead of the player's, with its paused prize clock;
// - provider_rounds.integrity_hold_id: the hold on the slip while it lasts, and a trigger that
//   refuses (`must:round`, the win path reads again and takes the held path) a credit of a held
//   slip's winnings that did not go through the held path (a win that read the slip before the
//   hold committed). Holds and held wins are money records: never deleted.
import { Migration } from '@bo/service-kit';

export class Integrity0001Holds extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table wallet.accounts drop constraint accounts_kind_check');
    this.addSql(`alter table wallet.accounts add constraint accounts_kind_check
      check (kind in ('player', 'deposit_clearing', 'payout_clearing', 'game_clearing', 'provider_clearing', 'unclaimed_impeded', 'fund_transfer_payable',
                      'integrity_hold', 'integrity_forfeited'))`);
    this.addSql(`create table wallet.integrity_holds (
      id text primary key,
      provider_id text not null,
      round_id text not null,
      operator_id text not null,
      brand_id text not null,
      environment text not null check (environment in ('sandbox', 'production')),
      player_id text not null,
      currency text not null check (currency ~ '^[A-Z]{3}$'),
      status text not null default 'held' check (status in ('held', 'released', 'forfeited')),
      reason text not null check (length(reason) between 3 and 2000),
      evidence text check (evidence is null or length(evidence) between 1 and 8000),
      placed_by text not null,
      placed_by_id text not null,
      placed_at timestamptz not null,
      decided_by text,
      decided_by_id text,
      decided_at timestamptz,
      decision_reason text,
      decision_transaction_id text unique references wallet.ledger_transactions (id),
      foreign key (provider_id, round_id) references wallet.provider_rounds (provider_id, round_id),
      check ((status = 'held') = (decided_at is null)),
      check ((status = 'held') = (decided_by_id is null and decision_reason is null)),
      check (status = 'held' or decided_by_id <> placed_by_id)
    )`);
    this.addSql(`create unique index integrity_holds_one_held on wallet.integrity_holds (provider_id, round_id) where status = 'held'`);
    this.addSql('create index integrity_holds_by_time on wallet.integrity_holds (placed_at desc, id desc)');
    this.addSql(`create table wallet.integrity_held_wins (
      provider_id text not null,
      transaction_id text not null,
      hold_id text not null references wallet.integrity_holds (id),
      provider_transaction_id text not null unique,
      amount numeric(20,2) not null check (amount > 0),
      round_closed boolean not null,
      outcome text,
      event_ended_at timestamptz,
      prize_due_at timestamptz,
      arrived_on_time boolean,
      held_at timestamptz not null,
      hold_transaction_id text not null unique references wallet.ledger_transactions (id),
      primary key (provider_id, transaction_id),
      foreign key (provider_id, transaction_id) references wallet.provider_transactions (provider_id, transaction_id),
      check ((event_ended_at is null) = (prize_due_at is null) and (prize_due_at is null) = (arrived_on_time is null))
    )`);
    this.addSql('create index integrity_held_wins_hold on wallet.integrity_held_wins (hold_id)');
    this.addSql('alter table wallet.provider_rounds add column integrity_hold_id text');
    this.addSql(`create function wallet.integrity_guard() returns trigger language plpgsql as $$
      begin
        if new.integrity_hold_id is not null and new.won > old.won then
          raise exception using errcode = 'P0001', message = 'must:round';
        end if;
        return new;
      end $$`);
    this.addSql(`create trigger provider_rounds_integrity_guard before update on wallet.provider_rounds
      for each row when (new.integrity_hold_id is not null) execute function wallet.integrity_guard()`);
  }
}

export const integrityMigrations = [{ name: 'Integrity0001Holds', class: Integrity0001Holds }];
