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

export const providerSessionMigrations = [{ name: 'ProvidersSessions0001', class: ProvidersSessions0001 }];
