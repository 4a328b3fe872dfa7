// Our team's harm cases (issue #68 item 3), in the kit's plain `sql`: a case opened and kept current by
// the assessment that moves a player's level (in its transaction), the queue's page, a case with its
// interactions and the player's changes of level, and a person's interaction or closing under the
// case's row lock, with the audit row written by the caller on the same transaction.
import type { HarmCaseOutcome, HarmCaseStatus, HarmInteractionChannel, HarmLevel, HarmMarkerHit } from '@bo/contracts';
import { newId } from '@bo/contracts';
import { inOneSnapshot, isoTime, type Sql, type SqlRunner } from '@bo/service-kit';
import type { Assessment } from '../harm/markers.ts';
import { measuresOfCase, type HarmMeasureRow } from './harm-measures.ts';
import type { PlayerRef } from './watch.ts';

const S = 'compliance';

const LEVEL_RANK: Record<HarmLevel, number> = { none: 0, low: 1, medium: 2, high: 3 };

export interface HarmCaseRow {
  id: string;
  operatorId: string;
  brandId: string;
  environment: PlayerRef['environment'];
  playerId: string;
  status: HarmCaseStatus;
  level: HarmLevel;
  levelRank: number;
  score: number;
  markers: HarmMarkerHit[];
  recentDeposits: string;
  assessedOn: string;
  firstChangeId: string;
  interactions: number;
  followUpOn: string | null;
  /** Timestamps as the kit's SQL reads them (text; `isoTime` writes them as the API does). */
  openedAt: string;
  updatedAt: string;
  outcome: HarmCaseOutcome | null;
  closedAt: string | null;
  closedBy: string | null;
  closeReason: string | null;
}

export interface HarmInteractionRow {
  id: string;
  channel: HarmInteractionChannel;
  summary: string;
  operatorMessageId: string | null;
  followUpOn: string | null;
  measureId: string | null;
  by: string;
  at: string;
}

export interface HarmLevelChangeRow {
  from: HarmLevel;
  to: HarmLevel;
  added: string[];
  removed: string[];
  at: string;
}

/** The columns as the rows above name them. */
const CASE_COLUMNS = `id, operator_id as "operatorId", brand_id as "brandId", environment, player_id as "playerId", status, level,
  level_rank as "levelRank", score, markers, recent_deposits::text as "recentDeposits", assessed_on as "assessedOn",
  first_change_id::text as "firstChangeId", interactions, follow_up_on as "followUpOn", opened_at as "openedAt", updated_at as "updatedAt",
  outcome, closed_at as "closedAt", closed_by as "closedBy", close_reason as "closeReason"`;

/**
 * In the assessment's transaction, after the player's level is kept: an open case follows the
 * assessment (level, score, markers, recent deposits); when none is open and the level has just moved
 * to `high` (`openedBy`: the id of that change in harm_level_history), one is opened. A case closed
 * while the player stays high is not opened again until the level falls and rises once more.
 */
export async function followHarmCase(tx: SqlRunner, p: PlayerRef, a: Assessment, openedBy: string | undefined): Promise<void> {
  const assessed = [a.level, LEVEL_RANK[a.level], a.score, JSON.stringify(a.markers), a.recentDeposits, a.asOf];
  await tx.query(
    `with followed as (
       update ${S}.harm_cases set level = ?, level_rank = ?, score = ?, markers = ?::jsonb, recent_deposits = ?, assessed_on = ?, updated_at = now()
        where player_id = ? and status = 'open' returning id)
     insert into ${S}.harm_cases (id, operator_id, brand_id, environment, player_id, status, level, level_rank, score, markers, recent_deposits,
                                  assessed_on, first_change_id, interactions, opened_at, updated_at)
     select ?, ?, ?, ?, ?, 'open', ?, ?, ?, ?::jsonb, ?, ?, ?::bigint, 0, date_trunc('milliseconds', now()), now()
      where ?::boolean and not exists (select 1 from followed)
     on conflict (player_id) where status = 'open' do nothing`,
    // The assessment's columns, in the same order for the update and the insert.
    [
      ...assessed,
      p.playerId,
      newId('harmCase'),
      p.operatorId,
      p.brandId,
      p.environment,
      p.playerId,
      ...assessed,
      openedBy ?? '0',
      openedBy !== undefined && a.level === 'high',
    ],
  );
}

export interface HarmCaseFilter {
  status?: HarmCaseStatus;
  environment?: PlayerRef['environment'];
  operatorId?: string;
  playerId?: string;
  /** Open cases whose follow-up date is today (UTC) or before. */
  followUpDue?: boolean;
  /** After this position of the order (a cursor: `queuePosition`). */
  after?: { at: string; id: string };
  limit: number;
}

/**
 * A case's place in the queue, as a cursor keeps it: level rank, score, recent deposits, opening time
 * (kept to the millisecond, as the cursor writes it).
 */
export function queuePosition(c: Pick<HarmCaseRow, 'levelRank' | 'score' | 'recentDeposits' | 'openedAt'>): string {
  return [c.levelRank, c.score, c.recentDeposits, isoTime(c.openedAt)].join('|');
}

/** A page of the queue: the riskiest first (level, then score), then the largest recent deposits, then the one waiting longest. */
export async function listHarmCases(sql: SqlRunner, f: HarmCaseFilter): Promise<HarmCaseRow[]> {
  const where: string[] = [];
  const params: unknown[] = [];
  const and = (clause: string, ...values: unknown[]) => {
    where.push(clause);
    params.push(...values);
  };
  if (f.status) and('status = ?', f.status);
  if (f.environment) and('environment = ?', f.environment);
  if (f.operatorId) and('operator_id = ?', f.operatorId);
  if (f.playerId) and('player_id = ?', f.playerId);
  if (f.followUpDue) and(`status = 'open' and follow_up_on <= to_char(now() at time zone 'UTC', 'YYYY-MM-DD')`);
  if (f.after) {
    const [rank, score, deposits, openedAt] = f.after.at.split('|');
    // The order's keys, the descending ones negated: one row comparison says "after the position".
    and(
      '(-level_rank, -score, -recent_deposits, opened_at, id) > (?::int, ?::int, ?::numeric, ?::timestamptz, ?)',
      -Number(rank),
      -Number(score),
      `-${deposits}`,
      openedAt,
      f.after.id,
    );
  }
  return sql.query<HarmCaseRow>(
    `select ${CASE_COLUMNS} from ${S}.harm_cases ${where.length ? `where ${where.join(' and ')}` : ''}
      order by level_rank desc, score desc, recent_deposits desc, opened_at, id limit ?`,
    [...params, f.limit],
  );
}

/**
 * A case with its interactions and the player's changes of level since it opened, oldest first, read
 * in one snapshot: a measure settled meanwhile shows with its interaction, or neither.
 */
export async function harmCaseWithHistory(
  sql: Sql,
  id: string,
): Promise<{ row: HarmCaseRow; interactions: HarmInteractionRow[]; changes: HarmLevelChangeRow[]; measures: HarmMeasureRow[] } | undefined> {
  return inOneSnapshot(sql, async (tx) => {
    const [row] = await tx.query<HarmCaseRow>(`select ${CASE_COLUMNS} from ${S}.harm_cases where id = ?`, [id]);
    if (!row) return undefined;
    const [interactions, changes, measures] = await Promise.all([
      tx.query<HarmInteractionRow>(
        `select id, channel, summary, operator_message_id as "operatorMessageId", follow_up_on as "followUpOn", measure_id as "measureId", by, at
         from ${S}.harm_interactions where case_id = ? order by at, id`,
        [id],
      ),
      // A closed case's history ends at its closing.
      tx.query<HarmLevelChangeRow>(
        `select from_level as "from", to_level as "to", added, removed, at from ${S}.harm_level_history
        where player_id = ? and id >= ?::bigint and (?::timestamptz is null or at <= ?::timestamptz) order by id`,
        [row.playerId, row.firstChangeId, row.closedAt, row.closedAt],
      ),
      measuresOfCase(tx, id),
    ]);
    return { row, interactions, changes, measures };
  });
}

/** A change of a case by a person, in one transaction, under the case's row lock. */
export interface HarmCaseTx {
  /** The case, locked; undefined when there is none. */
  lock(id: string): Promise<HarmCaseRow | undefined>;
  /** An interaction kept in the case; the case's count and follow-up date follow it. */
  addInteraction(caseId: string, i: Omit<HarmInteractionRow, 'id' | 'at'>): Promise<void>;
  close(caseId: string, c: { outcome: HarmCaseOutcome; by: string; reason: string }): Promise<void>;
  /** The transaction's runner, for its audit row. */
  sql: SqlRunner;
}

export function inHarmCaseTransaction<T>(sql: Sql, work: (tx: HarmCaseTx) => Promise<T>): Promise<T> {
  return sql.transaction((tx) =>
    work({
      lock: async (id) => (await tx.query<HarmCaseRow>(`select ${CASE_COLUMNS} from ${S}.harm_cases where id = ? for update`, [id]))[0],
      addInteraction: async (caseId, i) => {
        await tx.query(
          `with kept as (insert into ${S}.harm_interactions (id, case_id, channel, summary, operator_message_id, follow_up_on, measure_id, by, at)
                         values (?, ?, ?, ?, ?, ?, ?, ?, now()))
           update ${S}.harm_cases set interactions = interactions + 1, follow_up_on = ?, updated_at = now() where id = ?`,
          [newId('harmInteraction'), caseId, i.channel, i.summary, i.operatorMessageId, i.followUpOn, i.measureId, i.by, i.followUpOn, caseId],
        );
      },
      close: async (caseId, c) => {
        await tx.query(
          `update ${S}.harm_cases set status = 'closed', outcome = ?, closed_at = now(), closed_by = ?, close_reason = ?, follow_up_on = null,
                  updated_at = now() where id = ?`,
          [c.outcome, c.by, c.reason, caseId],
        );
      },
      sql: tx,
    }),
  );
}
