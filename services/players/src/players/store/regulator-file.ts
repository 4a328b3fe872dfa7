// What the daily regulator file (services/compliance, docs/aml.md) asks of players, read in the
// kit's SQL: the bettors of a brand for a day (registered or status changed in it, or the ones it
// names by id), each with the account and KYC status it had as the day ended; and the account status
// changes of the day (players.player_status_history, written by a trigger on every change).
import type { RegulatorBettor, RegulatorStatusChange } from '@bo/contracts';
import { isoTime, type SqlRunner } from '@bo/service-kit';

interface BettorRow {
  id: string;
  external_id: string;
  cpf: string;
  name: string;
  birth_date: string | null;
  environment: RegulatorBettor['environment'];
  /** The kit's rows carry timestamps as Postgres' text. */
  created_at: string | Date;
  status: RegulatorBettor['status'];
  kyc_status: RegulatorBettor['kycStatus'];
  status_changed: boolean;
  /** Comma-separated, as impediment_checks keeps them. */
  impediment_reasons: string | null;
}

// The status as the day ended: the last change before its end; else, when it changed only after,
// what the first later change changed from; else the status now (no change recorded). Same for KYC.
const BETTOR_COLUMNS = `p.id, p.external_id, p.cpf, p.name, to_char(p.birth_date, 'YYYY-MM-DD') as birth_date, p.environment, p.created_at,
  coalesce(
    (select h.status from players.player_status_history h where h.player_id = p.id and h.at < ?::timestamptz order by h.at desc, h.id desc limit 1),
    (select h.previous_status from players.player_status_history h where h.player_id = p.id and h.at >= ?::timestamptz order by h.at, h.id limit 1),
    p.status) as status,
  coalesce(
    (select k.status from players.kyc_history k where k.player_id = p.id and k.at < ?::timestamptz order by k.at desc, k.id desc limit 1),
    (select k.previous_status from players.kyc_history k where k.player_id = p.id and k.at >= ?::timestamptz order by k.at, k.id limit 1),
    p.kyc_status) as kyc_status,
  exists (select 1 from players.player_status_history h where h.player_id = p.id and h.at >= ?::timestamptz and h.at < ?::timestamptz) as status_changed,
  case when p.restricted_at < ?::timestamptz then
    (select c.reasons from players.impediment_checks c
     where c.cpf = p.cpf and c.brand_id = p.brand_id and c.outcome = 'impeded' and c.at < ?::timestamptz order by c.at desc, c.id desc limit 1)
  end as impediment_reasons`;

const bettorOf =
  (from: string, to: string) =>
  (r: BettorRow): RegulatorBettor => {
    const registeredAt = isoTime(r.created_at);
    return {
      playerId: r.id,
      externalId: r.external_id,
      cpf: r.cpf,
      name: r.name,
      birthDate: r.birth_date,
      environment: r.environment,
      status: r.status,
      kycStatus: r.kyc_status,
      registeredAt,
      registeredOnDay: Date.parse(registeredAt) >= Date.parse(from) && Date.parse(registeredAt) < Date.parse(to),
      statusChangedOnDay: r.status_changed,
      // The SIGAP files' status code of a bettor restricted or closed after an impediment hit depends on its reason.
      impedimentReasons: r.impediment_reasons ? r.impediment_reasons.split(',') : null,
    };
  };

export async function bettorsOfDay(
  sql: SqlRunner,
  q: { brandId: string; from: string; to: string; playerIds?: string[]; after?: string; limit: number },
): Promise<{ data: RegulatorBettor[]; next: string | null }> {
  const columnParams = [q.to, q.to, q.to, q.to, q.from, q.to, q.to, q.to];
  if (q.playerIds) {
    const rows = await sql.query<BettorRow>(
      `select ${BETTOR_COLUMNS} from players.players p where p.brand_id = ? and p.id = any(?::text[]) and p.created_at < ?::timestamptz order by p.id`,
      [...columnParams, q.brandId, q.playerIds, q.to],
    );
    return { data: rows.map(bettorOf(q.from, q.to)), next: null };
  }
  const rows = await sql.query<BettorRow>(
    `select ${BETTOR_COLUMNS} from players.players p
     where p.brand_id = ? and p.created_at < ?::timestamptz and p.id > ?
       and (p.created_at >= ?::timestamptz
            or exists (select 1 from players.player_status_history h where h.player_id = p.id and h.at >= ?::timestamptz and h.at < ?::timestamptz))
     order by p.id limit ?`,
    [...columnParams, q.brandId, q.to, q.after ?? '', q.from, q.from, q.to, q.limit],
  );
  return { data: rows.map(bettorOf(q.from, q.to)), next: rows.length === q.limit ? rows.at(-1)!.id : null };
}

interface ChangeRow {
  id: string;
  player_id: string;
  previous_status: RegulatorStatusChange['previousStatus'];
  status: RegulatorStatusChange['status'];
  at: string | Date;
}

export async function statusChangesOfDay(
  sql: SqlRunner,
  q: { brandId: string; from: string; to: string; after?: { at: string; id: string }; limit: number },
): Promise<{ data: RegulatorStatusChange[]; next: { at: string; id: string } | null }> {
  const rows = await sql.query<ChangeRow>(
    `select h.id::text as id, h.player_id, h.previous_status, h.status, h.at
     from players.player_status_history h join players.players p on p.id = h.player_id
     where p.brand_id = ? and h.at >= ?::timestamptz and h.at < ?::timestamptz and (h.at, h.id) > (?::timestamptz, ?::bigint)
     order by h.at, h.id limit ?`,
    [q.brandId, q.from, q.to, q.after?.at ?? '-infinity', q.after?.id ?? '0', q.limit],
  );
  const data = rows.map((r) => ({ changeId: r.id, playerId: r.player_id, previousStatus: r.previous_status, status: r.status, at: isoTime(r.at) }));
  const last = data.at(-1);
  return { data, next: rows.length === q.limit && last ? { at: last.at, id: last.changeId } : null };
}
