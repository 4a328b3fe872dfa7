// Issue #59 items 5 and 6 (docs/games.md, "Certified games and RTP as measured"): the game register,
// a row per certificate of a provider's game. A certificate is valid from the start of its issue day
// to the end of its last day, in Brasília (the regulator's days): `valid_from` and `valid_to` are
// those instants, computed by the database from the dates, so a bet's statement checks one range.
import { GAME_REGISTER_TIME_ZONE } from '@bo/contracts';
import { Migration } from '@bo/service-kit';

export class ProvidersGameRegister0001 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table wallet.game_certificates (
      id text primary key,
      provider_id text not null references wallet.providers (id),
      game_id text not null references wallet.games (id),
      laboratory text not null check (laboratory ~ '\\S'),
      certificate_number text not null check (certificate_number ~ '\\S'),
      certified_rtp numeric(5,2) not null check (certified_rtp > 0 and certified_rtp <= 100),
      volatility numeric(5,2) check (volatility is null or volatility > 0),
      version text not null check (version ~ '\\S'),
      issued_on date not null,
      valid_until date not null,
      regulator_reference text,
      valid_from timestamptz not null generated always as (issued_on::timestamp at time zone '${GAME_REGISTER_TIME_ZONE}') stored,
      valid_to timestamptz not null generated always as ((valid_until + 1)::timestamp at time zone '${GAME_REGISTER_TIME_ZONE}') stored,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (game_id, certificate_number),
      check (valid_until >= issued_on)
    )`);
    // A bet's check and the register read a game's certificates by their end.
    this.addSql('create index game_certificates_game on wallet.game_certificates (game_id, valid_to desc)');
    // RTP as measured reads a month's settled casino rounds (a round enters this index when its win settles it).
    this.addSql(`create index provider_rounds_settled_casino on wallet.provider_rounds (closed_at) where status = 'settled' and kind = 'casino'`);
  }
}

export const providerGameRegisterMigrations = [{ name: 'ProvidersGameRegister0001', class: ProvidersGameRegister0001 }];
