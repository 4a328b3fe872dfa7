// Games tables in schema `wallet`. Names start with Games so they never clash with the ledger
// module's migrations in the same bookkeeping table. Invariants the database can hold are
// CHECK constraints: a demo session (and only one) has a fictitious balance that never goes
// negative, and a round's balance moves by exactly payout − amount. Rounds are append-only.
import { Migration } from '@bo/service-kit';
import { GAME_KINDS, PLAY_IDLE_SECONDS } from '@bo/contracts';

const list = (values: readonly string[]) => values.map((v) => `'${v}'`).join(', ');

export class Games0001CreateTables extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table wallet.games (
      id text primary key check (id ~ '^gm_[a-z0-9_]+$'),
      name text not null,
      provider text not null,
      category text not null,
      kind text not null check (kind in (${list(GAME_KINDS)})),
      adapter text not null check (adapter in ('local', 'remote')),
      launch_url text check (launch_url is null or launch_url ~ '^https?://'),
      enabled boolean not null default true,
      sort_order integer not null default 0,
      created_at timestamptz not null default now(),
      check ((adapter = 'local') = (kind <> 'external'))
    )`);
    this.addSql(`create table wallet.game_sessions (
      id text primary key,
      operator_id text not null,
      brand_id text not null,
      environment text not null check (environment in ('sandbox', 'production')),
      player_id text not null,
      game_id text not null references wallet.games (id),
      mode text not null check (mode in ('demo', 'real')),
      currency text not null check (currency ~ '^[A-Z]{3}$'),
      demo_balance numeric(20,2) check (demo_balance >= 0),
      provider_url text,
      expires_at timestamptz not null,
      created_at timestamptz not null,
      check ((mode = 'demo') = (environment = 'sandbox')),
      check ((mode = 'demo') = (demo_balance is not null)),
      check (expires_at > created_at)
    )`);
    this.addSql('create index game_sessions_player on wallet.game_sessions (brand_id, player_id, created_at desc)');
    this.addSql(`create table wallet.game_rounds (
      id text primary key,
      session_id text not null references wallet.game_sessions (id),
      seq integer not null check (seq > 0),
      client_round_id text,
      amount numeric(20,2) not null check (amount > 0),
      payout numeric(20,2) not null check (payout >= 0),
      win boolean not null,
      outcome jsonb not null,
      balance_before numeric(20,2),
      balance_after numeric(20,2) check (balance_after >= 0),
      created_at timestamptz not null,
      unique (session_id, seq),
      unique (session_id, client_round_id),
      check ((balance_before is null) = (balance_after is null)),
      check (balance_after is null or balance_after = balance_before - amount + payout),
      check (win = (payout > 0))
    )`);
    this.addSql(`create function wallet.game_rounds_append_only() returns trigger language plpgsql as $$
      begin raise exception 'game_rounds is append-only'; end $$`);
    this.addSql(`create trigger game_rounds_append_only before update or delete on wallet.game_rounds
      for each row execute function wallet.game_rounds_append_only()`);
  }
}

/** The catalogue. Ids are stable: operators store them. */
export class Games0002SeedCatalogue extends Migration {
  override async up(): Promise<void> {
    const games: Array<[id: string, name: string, provider: string, category: string, kind: string, adapter: string, order: number]> = [
      ['gm_aviator_demo', 'Aviator', 'bo-studio', 'crash', 'crash', 'local', 10],
      ['gm_dice_classic', 'Classic Dice', 'bo-studio', 'dice', 'dice', 'local', 20],
      ['gm_roulette_demo', 'European Roulette', 'bo-studio', 'table', 'roulette', 'local', 30],
      ['gm_slots_fruit', 'Fruit Slots', 'bo-studio', 'slots', 'slots', 'local', 40],
      ['gm_blackjack_live', 'Live Blackjack', 'northwind-live', 'live', 'external', 'remote', 50],
    ];
    for (const [id, name, provider, category, kind, adapter, order] of games) {
      this.addSql(
        `insert into wallet.games (id, name, provider, category, kind, adapter, sort_order) values ('${id}', '${name}', '${provider}', '${category}', '${kind}', '${adapter}', ${order})`,
      );
    }
  }
}

/**
 * Real-money rounds: the round row names its ledger entries (BET, and WIN when it paid). A trigger
 * makes the session's mode decide it: a real round cannot be stored without its BET entry and a
 * demo round cannot carry one, so demo play can never reach the ledger.
 */
export class Games0003RealRounds extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table wallet.game_rounds
      add column bet_entry_id text unique references wallet.ledger_entries (id),
      add column win_entry_id text unique references wallet.ledger_entries (id),
      add constraint game_rounds_win_entry_iff_paid check (win_entry_id is null or (bet_entry_id is not null and payout > 0)),
      add constraint game_rounds_real_win_posted check (bet_entry_id is null or (win_entry_id is not null) = (payout > 0))`);
    this.addSql(`create function wallet.game_rounds_money_matches_mode() returns trigger language plpgsql as $$
      declare m text;
      begin
        select mode into m from wallet.game_sessions where id = new.session_id;
        if (m = 'real') <> (new.bet_entry_id is not null) then
          raise exception 'game round % of a % session: ledger entries must exist exactly for real rounds', new.id, m using errcode = 'P0001';
        end if;
        return new;
      end $$`);
    this.addSql(`create trigger game_rounds_money_matches_mode before insert on wallet.game_rounds
      for each row execute function wallet.game_rounds_money_matches_mode()`);
  }
}

/**
 * A session counts its rounds on its own row. A real round takes its number from this counter in
 * the round's statement, after the player's row lock: a row updated after a lock wait is read at
 * its latest version, whereas `max(seq) + 1` read the statement's snapshot from before the wait,
 * so concurrent clicks of one session took the same number and had to be retried (and under load
 * a click could lose every retry).
 */
export class Games0004SessionRoundCounter extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table wallet.game_sessions add column rounds_played integer not null default 0 check (rounds_played >= 0)`);
    this.addSql(`update wallet.game_sessions s set rounds_played = r.n
      from (select session_id, max(seq) as n from wallet.game_rounds group by session_id) r where r.session_id = s.id`);
  }
}

/**
 * Responsible gaming (docs/responsible-gaming.md): what each player account staked, lost net and
 * played (seconds), by UTC hour, written by the round's own statement (games/store/game-round.ts) so it
 * never drifts from the ledger (verifyLedger recomputes it from the rounds); a limit's period in
 * the operator's time zone is a range of hours. A session keeps the time of its last activity
 * (a round or the page's heartbeat) for the time played.
 */
export class Games0005ResponsibleGaming extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table wallet.rg_usage (
      account_id text not null references wallet.accounts (id),
      hour timestamptz not null check (hour = date_trunc('hour', hour, 'UTC')),
      wagered numeric(20,2) not null default 0 check (wagered >= 0),
      net_loss numeric(20,2) not null default 0,
      seconds_played integer not null default 0 check (seconds_played >= 0),
      primary key (account_id, hour)
    )`);
    this.addSql('alter table wallet.game_sessions add column last_activity_at timestamptz');
    // The rounds played before this migration, so the check of verifyLedger holds from the start.
    this.addSql(`insert into wallet.rg_usage (account_id, hour, wagered, net_loss)
      select e.account_id, date_trunc('hour', r.created_at, 'UTC'), sum(r.amount), sum(r.amount - r.payout)
      from wallet.game_rounds r join wallet.ledger_entries e on e.id = r.bet_entry_id group by 1, 2`);
  }
}

/**
 * Responsible gaming's counters on the player's account row (rg/store/counters.ts): the usage of
 * the current day, week and month, each with the range of time it covers (`rg_day` …, null when
 * not counted), and the player's last play activity. A round checks its limits against them in
 * its own statement, on the row it locks (rg_usage stays the record they are seeded from). The
 * columns are null for every account without limits, so they cost its rows nothing.
 * `rg_period` is the one definition of a period in a time zone; `rg_gap` the seconds an activity
 * at `at` counts after the previous one at `prev` (none after PLAY_IDLE_SECONDS idle). The time
 * is now counted per player, not per session: game_sessions.last_activity_at is no longer written
 * (kept, so a replica still running the previous version keeps working through a rolling update).
 */
export class Games0006RoundCounters extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table wallet.accounts
      add column rg_last_activity_at timestamptz,
      add column rg_gap_seconds integer,
      add column rg_day tstzrange, add column rg_week tstzrange, add column rg_month tstzrange,
      add column rg_day_wagered numeric(20,2), add column rg_week_wagered numeric(20,2), add column rg_month_wagered numeric(20,2),
      add column rg_day_net_loss numeric(20,2), add column rg_week_net_loss numeric(20,2), add column rg_month_net_loss numeric(20,2),
      add column rg_day_seconds integer, add column rg_week_seconds integer, add column rg_month_seconds integer`);
    this.addSql(`create function wallet.rg_period(unit text, at timestamptz, tz text) returns tstzrange language sql stable as $$
      select tstzrange(date_trunc(unit, at at time zone tz) at time zone tz, (date_trunc(unit, at at time zone tz) + ('1 ' || unit)::interval) at time zone tz) $$`);
    this.addSql(`create function wallet.rg_gap(prev timestamptz, at timestamptz) returns integer language sql immutable as $$
      select case when at - prev >= interval '1 second' and at - prev < interval '${PLAY_IDLE_SECONDS + 1} seconds' then floor(extract(epoch from at - prev))::int else 0 end $$`);
  }
}

/**
 * A round's outcome keeps its JSON text as written (json, not jsonb, which reorders keys): a retried
 * click answers the recorded round with the same bytes as the first answer. Rounds recorded before
 * keep jsonb's order. Rewrites game_rounds once (its lock is held for that time at the rollout).
 */
export class Games0007RoundOutcomeAsText extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table wallet.game_rounds alter column outcome type json using outcome::json');
  }
}

/**
 * When a session was ended before its time (a self-exclusion, an impediment hit: games.sessions.endForPlayer);
 * null for one that ran to its end. A round or the page on such a session says it ended, not that it expired.
 */
export class Games0008SessionEndedAt extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table wallet.game_sessions add column ended_at timestamptz');
  }
}

/**
 * Responsible gaming in the sandbox (docs/responsible-gaming.md, "Sandbox"): demo rounds count toward the
 * sandbox player's limits and time played, apart from the real money's record. `rg_demo_usage` is
 * `rg_usage`'s twin for demo play (stakes and net loss of the fictitious balance, seconds played), by
 * UTC hour; `rg_demo_players` holds the player's last demo activity (its row lock serialises the
 * player's demo rounds across sessions). Both are keyed by the id the player's account has or would
 * have (ledger `playerAccountId` of the brand, player and currency), with no reference to
 * wallet.accounts: a sandbox player plays demo without a wallet account. verifyLedger never reads
 * them: nothing of the ledger backs them.
 */
export class Games0009SandboxRgUsage extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table wallet.rg_demo_players (
      account_id text primary key,
      brand_id text not null,
      player_id text not null,
      last_activity_at timestamptz not null,
      gap_seconds integer not null default 0
    )`);
    this.addSql('create index rg_demo_players_player on wallet.rg_demo_players (brand_id, player_id)');
    this.addSql(`create table wallet.rg_demo_usage (
      account_id text not null,
      hour timestamptz not null check (hour = date_trunc('hour', hour, 'UTC')),
      wagered numeric(20,2) not null default 0 check (wagered >= 0),
      net_loss numeric(20,2) not null default 0,
      seconds_played integer not null default 0 check (seconds_played >= 0),
      primary key (account_id, hour)
    )`);
  }
}

/**
 * Play into the harm days (issue #68; docs/player-protection.md): each hour's usage also counts its
 * bets and the sum of their stakes squared (with the stakes' sum, their spread without keeping every
 * stake), in the same statement that adds the stake. The compliance service reads the hours played
 * since its last pass (`rg_usage_hour`). The hours played before it are counted from their rounds and
 * providers' bets, as verifyLedger recomputes them (rg/store/usage.ts usageDrift, as of this migration).
 */
export class Games0010RgUsageBets extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table wallet.rg_usage
      add column bets integer not null default 0 check (bets >= 0),
      add column stake_squares numeric not null default 0 check (stake_squares >= 0)`);
    this.addSql('create index rg_usage_hour on wallet.rg_usage (hour)');
    // On a new database the providers module's tables come later, and there is nothing to count yet.
    this.addSql(`do $$ begin
      if to_regclass('wallet.provider_transactions') is not null then
        with m as (select e.account_id, date_trunc('hour', g.created_at, 'UTC') as hour, g.amount as wagered
                     from wallet.game_rounds g join wallet.ledger_entries e on e.id = g.bet_entry_id
                   union all
                   select e.account_id, date_trunc('hour', coalesce(b.created_at, e.created_at), 'UTC'),
                          case p.kind when 'bet' then -p.moved when 'rollback' then -p.moved else 0 end
                     from wallet.provider_transactions p join wallet.ledger_entries e on e.id = p.entry_id
                     left join wallet.provider_transactions b
                       on p.kind = 'rollback' and b.provider_id = p.provider_id and b.transaction_id = p.bet_transaction_id),
             r as (select account_id, hour, sum(sign(wagered))::int as bets, sum(sign(wagered) * wagered * wagered) as stake_squares from m group by 1, 2)
        update wallet.rg_usage u set bets = greatest(r.bets, 0), stake_squares = greatest(r.stake_squares, 0)
          from r where r.account_id = u.account_id and r.hour = u.hour;
      end if;
    end $$`);
  }
}

/** Reality checks the player acknowledged to play on, by hour (the play page's heartbeat; issue #68's harm markers). */
export class Games0011RgUsageRealityChecks extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table wallet.rg_usage add column reality_checks integer not null default 0 check (reality_checks >= 0)');
  }
}

export const gameMigrations = [
  { name: 'Games0001CreateTables', class: Games0001CreateTables },
  { name: 'Games0002SeedCatalogue', class: Games0002SeedCatalogue },
  { name: 'Games0003RealRounds', class: Games0003RealRounds },
  { name: 'Games0004SessionRoundCounter', class: Games0004SessionRoundCounter },
  { name: 'Games0005ResponsibleGaming', class: Games0005ResponsibleGaming },
  { name: 'Games0006RoundCounters', class: Games0006RoundCounters },
  { name: 'Games0007RoundOutcomeAsText', class: Games0007RoundOutcomeAsText },
  { name: 'Games0008SessionEndedAt', class: Games0008SessionEndedAt },
  { name: 'Games0009SandboxRgUsage', class: Games0009SandboxRgUsage },
  { name: 'Games0010RgUsageBets', class: Games0010RgUsageBets },
  { name: 'Games0011RgUsageRealityChecks', class: Games0011RgUsageRealityChecks },
];
