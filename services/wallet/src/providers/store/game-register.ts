// The game register's SQL (issue #59 items 5 and 6; docs/games.md, "Certified games and RTP as
// measured"): a game's certificates, the register of a provider's games, the counts by state that
// the metrics serve, and a month's settled casino rounds per game for RTP as measured.
import { GAME_REGISTER_TIME_ZONE, SANDBOX_PROVIDER, type GameCertificate, type PutGameCertificate } from '@bo/contracts';
import { isoTime, type SqlRunner } from '@bo/service-kit';

const CERTIFICATE_FIELDS = `c.id, c.provider_id as "providerId", c.game_id as "gameId", g.game_code as "gameCode", c.laboratory,
  c.certificate_number as "certificateNumber", c.certified_rtp::text as "certifiedRtp", c.volatility::text as volatility, c.version,
  to_char(c.issued_on, 'YYYY-MM-DD') as "issuedOn", to_char(c.valid_until, 'YYYY-MM-DD') as "validUntil",
  c.regulator_reference as "regulatorReference", c.created_at as "createdAt", c.updated_at as "updatedAt",
  c.valid_from as "validFrom", c.valid_to as "validTo"`;

/** A certificate as stored, with the instants its dates stand for. */
export type CertificateRow = GameCertificate & { validFrom: Date; validTo: Date };

/** A row as read (timestamps come back as text or dates, by driver settings): its instants as dates. */
const withInstants = (r: CertificateRow): CertificateRow => ({ ...r, validFrom: new Date(r.validFrom), validTo: new Date(r.validTo) });

const asCertificate = ({ validFrom: _f, validTo: _t, ...c }: CertificateRow): GameCertificate => ({
  ...c,
  createdAt: isoTime(c.createdAt),
  updatedAt: isoTime(c.updatedAt),
});
export { asCertificate };

export async function findCertificate(sql: SqlRunner, gameId: string, certificateNumber: string): Promise<CertificateRow | undefined> {
  const [row] = await sql.query<CertificateRow>(
    `select ${CERTIFICATE_FIELDS} from wallet.game_certificates c join wallet.games g on g.id = c.game_id where c.game_id = ? and c.certificate_number = ?`,
    [gameId, certificateNumber],
  );
  return row && withInstants(row);
}

/** Records a certificate, or corrects the one of this number; returns it. */
export async function putCertificate(
  tx: SqlRunner,
  c: PutGameCertificate & { id: string; providerId: string; gameId: string; certificateNumber: string },
): Promise<CertificateRow> {
  await tx.query(
    `insert into wallet.game_certificates (id, provider_id, game_id, laboratory, certificate_number, certified_rtp, volatility, version, issued_on, valid_until, regulator_reference)
     values (?, ?, ?, ?, ?, ?::numeric, ?::numeric, ?, ?::date, ?::date, ?)
     on conflict (game_id, certificate_number) do update
       set laboratory = excluded.laboratory, certified_rtp = excluded.certified_rtp, volatility = excluded.volatility, version = excluded.version,
           issued_on = excluded.issued_on, valid_until = excluded.valid_until, regulator_reference = excluded.regulator_reference, updated_at = now()`,
    [
      c.id,
      c.providerId,
      c.gameId,
      c.laboratory.trim(),
      c.certificateNumber,
      c.certifiedRtp,
      c.volatility ?? null,
      c.version.trim(),
      c.issuedOn,
      c.validUntil,
      c.regulatorReference?.trim() ?? null,
    ],
  );
  return (await findCertificate(tx, c.gameId, c.certificateNumber))!;
}

/** A provider's games, each with its certificates (newest end first). */
export async function providerGamesWithCertificates(
  sql: SqlRunner,
  providerId: string,
): Promise<Array<{ gameId: string; gameCode: string; name: string; enabled: boolean; certificates: CertificateRow[] }>> {
  const games = await sql.query<{ gameId: string; gameCode: string; name: string; enabled: boolean }>(
    `select id as "gameId", game_code as "gameCode", name, enabled from wallet.games where provider_id = ? order by game_code`,
    [providerId],
  );
  const certificates = await sql.query<CertificateRow>(
    `select ${CERTIFICATE_FIELDS} from wallet.game_certificates c join wallet.games g on g.id = c.game_id
     where c.provider_id = ? order by c.valid_to desc, c.created_at desc`,
    [providerId],
  );
  return games.map((g) => ({ ...g, certificates: certificates.filter((c) => c.gameId === g.gameId).map(withInstants) }));
}

/**
 * The enabled casino games of enabled providers (the built-in sandbox provider's aside: it is never
 * offered in production), counted by their certificate at `at`: valid beyond `warnBefore`, valid and
 * ending before it, none valid but one ended (expired), never certified (missing).
 */
export async function certificateCounts(sql: SqlRunner, at: Date, warnBefore: Date): Promise<Record<'valid' | 'expiring' | 'expired' | 'missing', number>> {
  const [row] = await sql.query<{ valid: number; expiring: number; expired: number; missing: number }>(
    `select count(*) filter (where n.valid_to > ?::timestamptz)::int as valid,
            count(*) filter (where n.valid_to is not null and n.valid_to <= ?::timestamptz)::int as expiring,
            count(*) filter (where n.valid_to is null and n.ended)::int as expired,
            count(*) filter (where n.valid_to is null and not n.ended)::int as missing
     from (select (select max(c.valid_to) from wallet.game_certificates c where c.game_id = g.id and c.valid_from <= ?::timestamptz and c.valid_to > ?::timestamptz) as valid_to,
                  exists (select 1 from wallet.game_certificates c where c.game_id = g.id and c.valid_to <= ?::timestamptz) as ended
           from wallet.games g join wallet.providers p on p.id = g.provider_id
           where g.enabled and p.status = 'enabled' and p.kind = 'casino' and p.id <> '${SANDBOX_PROVIDER.id}') n`,
    [warnBefore, warnBefore, at, at, at],
  );
  return row!;
}

/**
 * The enabled casino games of enabled providers (not the built-in sandbox one) whose latest
 * certificate ends before `warnBefore` with none valid after it: ending soon, or ended. Soonest first.
 */
export async function certificatesEnding(
  sql: SqlRunner,
  warnBefore: Date,
): Promise<
  Array<{
    providerId: string;
    providerName: string;
    gameId: string;
    gameCode: string;
    name: string;
    certificateNumber: string;
    validUntil: string;
    validTo: Date;
  }>
> {
  const rows = await sql.query<{
    providerId: string;
    providerName: string;
    gameId: string;
    gameCode: string;
    name: string;
    certificateNumber: string;
    validUntil: string;
    validTo: Date;
  }>(
    `select p.id as "providerId", p.name as "providerName", g.id as "gameId", g.game_code as "gameCode", g.name,
            c.certificate_number as "certificateNumber", to_char(c.valid_until, 'YYYY-MM-DD') as "validUntil", c.valid_to as "validTo"
     from wallet.games g join wallet.providers p on p.id = g.provider_id
     join lateral (select * from wallet.game_certificates c where c.game_id = g.id order by c.valid_to desc limit 1) c on true
     where g.enabled and p.status = 'enabled' and p.kind = 'casino' and p.id <> '${SANDBOX_PROVIDER.id}' and c.valid_to <= ?::timestamptz
     order by c.valid_to, p.name, g.game_code`,
    [warnBefore],
  );
  return rows.map((r) => ({ ...r, validTo: new Date(r.validTo) }));
}

/** A game's month of settled casino rounds, with the certificate valid at `certifiedAt`. */
export interface RtpMonthRow {
  providerId: string;
  gameId: string;
  gameCode: string;
  name: string;
  /** Null for a game without a settled round in the month (listed when one provider's games are). */
  currency: string | null;
  rounds: number;
  stakes: string;
  wins: string;
  stakeSquares: number;
  certifiedRtp: string | null;
  volatility: string | null;
}

/**
 * The casino rounds settled in [from, to) per game and currency (of one provider, or all: a ratio
 * of sums is taken in one currency), their stakes, wins and Σ stake²; with the RTP and volatility of the certificate valid at `certifiedAt`. Games without a
 * settled round that month are listed with zeros when `providerId` is given (the register is complete).
 */
export async function rtpOfMonth(sql: SqlRunner, q: { providerId?: string; from: Date; to: Date; certifiedAt: Date }): Promise<RtpMonthRow[]> {
  return sql.query<RtpMonthRow>(
    `with m as (select r.game_id, r.currency, count(*)::int as rounds, sum(r.staked) as stakes, sum(r.won) as wins, sum(r.staked * r.staked)::float8 as squares
                from wallet.provider_rounds r
                where r.status = 'settled' and r.kind = 'casino' and r.closed_at >= ?::timestamptz and r.closed_at < ?::timestamptz
                  ${q.providerId ? 'and r.provider_id = ?' : ''}
                group by r.game_id, r.currency)
     select g.provider_id as "providerId", g.id as "gameId", g.game_code as "gameCode", g.name, m.currency, coalesce(m.rounds, 0) as rounds,
            coalesce(m.stakes, 0)::text as stakes, coalesce(m.wins, 0)::text as wins, coalesce(m.squares, 0) as "stakeSquares",
            c.certified_rtp::text as "certifiedRtp", c.volatility::text as volatility
     from wallet.games g
     join wallet.providers p on p.id = g.provider_id and p.kind = 'casino'
     ${q.providerId ? 'left join' : 'join'} m on m.game_id = g.id
     left join lateral (select certified_rtp, volatility from wallet.game_certificates c
                        where c.game_id = g.id and c.valid_from <= ?::timestamptz and c.valid_to > ?::timestamptz
                        order by c.valid_to desc limit 1) c on true
     ${q.providerId ? 'where g.provider_id = ?' : ''}
     order by g.provider_id, g.game_code, m.currency`,
    [q.from, q.to, ...(q.providerId ? [q.providerId] : []), q.certifiedAt, q.certifiedAt, ...(q.providerId ? [q.providerId] : [])],
  );
}

/** The instants a month `YYYY-MM` starts and ends in the register's zone (Brasília). */
export async function monthRange(sql: SqlRunner, month: string): Promise<{ from: Date; to: Date }> {
  const [row] = await sql.query<{ from: Date; to: Date }>(
    `select (?::date)::timestamp at time zone '${GAME_REGISTER_TIME_ZONE}' as "from",
            ((?::date) + interval '1 month')::timestamp at time zone '${GAME_REGISTER_TIME_ZONE}' as "to"`,
    [`${month}-01`, `${month}-01`],
  );
  return { from: new Date(row!.from), to: new Date(row!.to) };
}

/** Whether the game has a certificate valid at `at` (a bet's check, when its session is read). */
export const VALID_CERTIFICATE = `exists (select 1 from wallet.game_certificates gc where gc.game_id = ? and gc.valid_from <= ?::timestamptz and gc.valid_to > ?::timestamptz)`;
