// The measures taken from a harm case (issue #68 item 3), in the kit's plain `sql`: kept `pending`
// before the players service is asked (the intent), settled `applied` or `refused` with its answer
// under the row's lock, so the person's request and the reconciler settle each measure once.
import type { HarmMeasureDetail, HarmMeasureKind, HarmMeasureStatus } from '@bo/contracts';
import type { DecisionAuthor, SqlRunner } from '@bo/service-kit';

const S = 'compliance';

export interface HarmMeasureRow {
  id: string;
  caseId: string;
  playerId: string;
  measure: HarmMeasureKind;
  detail: HarmMeasureDetail;
  reason: string;
  status: HarmMeasureStatus;
  refusal: { code: string; message: string } | null;
  by: string;
  author: DecisionAuthor;
  followUpOn: string | null;
  /** Timestamps as the kit's SQL reads them (text). */
  requestedAt: string;
  settledAt: string | null;
}

const COLUMNS = `id, case_id as "caseId", player_id as "playerId", measure, detail, reason, status, refusal, by, author,
  follow_up_on as "followUpOn", requested_at as "requestedAt", settled_at as "settledAt"`;

export type NewHarmMeasure = Omit<HarmMeasureRow, 'refusal' | 'requestedAt' | 'settledAt'>;

/**
 * Keeps a measure (pending, or applied at once when nothing else applies it); the one kept before under
 * the same id (the request's key asked again) is answered instead, as it stands (`created` false).
 */
export async function keepMeasure(tx: SqlRunner, m: NewHarmMeasure): Promise<{ row: HarmMeasureRow; created: boolean }> {
  const [kept] = await tx.query<HarmMeasureRow & { created: boolean }>(
    `with new as (
       insert into ${S}.harm_measures (id, case_id, player_id, measure, detail, reason, status, by, author, follow_up_on, requested_at, settled_at)
       values (?, ?, ?, ?, ?::jsonb, ?, ?, ?, ?::jsonb, ?, now(), case when ? = 'pending' then null else now() end)
       on conflict (id) do nothing returning ${COLUMNS})
     select *, true as created from new
     union all select ${COLUMNS}, false from ${S}.harm_measures where id = ? and not exists (select 1 from new)`,
    [m.id, m.caseId, m.playerId, m.measure, JSON.stringify(m.detail), m.reason, m.status, m.by, JSON.stringify(m.author), m.followUpOn, m.status, m.id],
  );
  const { created, ...row } = kept!;
  return { row, created };
}

/** The measure, locked, while it is still pending; undefined once settled. */
export async function lockPendingMeasure(tx: SqlRunner, id: string): Promise<HarmMeasureRow | undefined> {
  const [row] = await tx.query<HarmMeasureRow>(`select ${COLUMNS} from ${S}.harm_measures where id = ? and status = 'pending' for update`, [id]);
  return row;
}

export async function settleMeasure(tx: SqlRunner, id: string, refusal: { code: string; message: string } | null): Promise<void> {
  await tx.query(`update ${S}.harm_measures set status = ?, refusal = ?::jsonb, settled_at = now() where id = ?`, [
    refusal ? 'refused' : 'applied',
    refusal ? JSON.stringify(refusal) : null,
    id,
  ]);
}

/** A case's measures, oldest first. */
export function measuresOfCase(sql: SqlRunner, caseId: string): Promise<HarmMeasureRow[]> {
  return sql.query<HarmMeasureRow>(`select ${COLUMNS} from ${S}.harm_measures where case_id = ? order by requested_at, id`, [caseId]);
}

/** Measures pending for longer than `olderThanMs` (their request stopped before the answer was kept), oldest first. */
export function pendingMeasures(sql: SqlRunner, olderThanMs: number, limit: number): Promise<HarmMeasureRow[]> {
  return sql.query<HarmMeasureRow>(
    `select ${COLUMNS} from ${S}.harm_measures where status = 'pending' and requested_at < now() - make_interval(secs => ?::double precision / 1000)
      order by requested_at limit ?`,
    [olderThanMs, limit],
  );
}
