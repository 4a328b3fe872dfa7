// Issue #59 item 4: a provider session ends after its inactivity window without play (docs/providers.md,
// "Sessions end on inactivity"). `expires_at` is the session's end as it stands now: each bet,
// refresh and authenticate moves it to their time + `idle_seconds` (never back); `last_activity_at`
// is the last of them (null until the first).
import { Migration } from '@bo/service-kit';

export class ProvidersSessions0001 extends Migration {
  override async up(): Promise<void> {
    // Sessions launched before keep the 30 minutes they were launched with (the window then, from their start).
    this.addSql(`alter table wallet.provider_sessions
      add column if not exists idle_seconds integer not null default 1800 check (idle_seconds between 1 and 86400),
      add column if not exists last_activity_at timestamptz`);
  }
}

// Issue #66 item 9: a session ended before its time (the operator's end, our team's, the player's
// self-exclusion, pause or impediment: games/store/session-ends.ts) keeps its end. `ended_at` is when;
// its `expires_at` is moved to that time in the same statement. A bet that read the session a moment
// before the end and posts after it (its statement moves the end on: greatest(expires_at, at + window))
// would otherwise revive it: the trigger keeps an ended session's end as it is, whatever updates the row.
export class ProvidersSessions0002EndedAt extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table wallet.provider_sessions add column if not exists ended_at timestamptz');
    // A game session's provider sessions, found when it ends.
    this.addSql('create index if not exists provider_sessions_game_session on wallet.provider_sessions (game_session_id)');
    this.addSql(`create or replace function wallet.provider_session_stays_ended() returns trigger language plpgsql as $$
      begin
        new.expires_at := old.expires_at;
        new.ended_at := old.ended_at;
        return new;
      end $$`);
    this.addSql('drop trigger if exists provider_sessions_stay_ended on wallet.provider_sessions');
    this.addSql(`create trigger provider_sessions_stay_ended before update on wallet.provider_sessions
      for each row when (old.ended_at is not null) execute function wallet.provider_session_stays_ended()`);
  }
}

export const providerSessionMigrations = [
  { name: 'ProvidersSessions0001', class: ProvidersSessions0001 },
  { name: 'ProvidersSessions0002EndedAt', class: ProvidersSessions0002EndedAt },
];
