// Issue #66 item 6: a sportsbook's bet data updates (Betsy's `PUT /payment/bet` type 5,
// docs/connectors-betsy.md "Bet data updates"): the bet's latest actual state (its odds, selections,
// status), sent before or after its settle, moving no money. The bet as placed stays in
// `provider_rounds.slip` (what the regulator's lines and a place bet sent again compare); each update
// is a row beside it, never changed: the bet's history, in order of `version` (the update's own
// version or time; null: older than any with one), then of arrival (`id`). `state` is the request as
// sent but its requestId and token; the same state again is the row already there (`digest`), so
// twenty copies at once keep one.
import { Migration } from '@bo/service-kit';

export class Providers0005BetUpdates extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table wallet.provider_bet_updates (
      id bigint generated always as identity primary key,
      provider_id text not null,
      round_id text not null,
      version bigint check (version is null or version >= 0),
      digest text not null,
      state jsonb not null check (jsonb_typeof(state) = 'object'),
      slip jsonb,
      status text,
      received_at timestamptz not null default clock_timestamp(),
      foreign key (provider_id, round_id) references wallet.provider_rounds (provider_id, round_id),
      unique (provider_id, round_id, digest)
    )`);
  }
}

export const providerBetUpdateMigrations = [{ name: 'Providers0005BetUpdates', class: Providers0005BetUpdates }];
