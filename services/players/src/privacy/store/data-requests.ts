// Players' data requests (players.data_requests; issue #69): filed, answered once (a row leaves
// `received` once, the update says so), read by the operator for its own players and by our team
// across operators, oldest due first.
import { DATA_REQUEST_DAYS, newId, type DataRequest, type DataRequestAnswer, type DataRequestStatus, type DataRequestType } from '@bo/contracts';
import { isoTime, type SqlRunner } from '@bo/service-kit';

export interface DataRequestRow {
  id: string;
  operator_id: string;
  brand_id: string;
  environment: string;
  player_id: string;
  type: DataRequestType;
  status: DataRequestStatus;
  reference: string | null;
  corrections: unknown;
  received_at: Date | string;
  due_at: Date | string;
  answered_at: Date | string | null;
  answer: DataRequestAnswer | null;
  request_id: string;
}

const COLUMNS = 'id, operator_id, brand_id, environment, player_id, type, status, reference, corrections, received_at, due_at, answered_at, answer, request_id';

export interface NewDataRequest {
  operatorId: string;
  brandId: string;
  environment: string;
  playerId: string;
  type: DataRequestType;
  reference: string | null;
  corrections: unknown;
  requestId: string;
  now: Date;
}

export async function insertDataRequest(sql: SqlRunner, r: NewDataRequest): Promise<DataRequestRow> {
  const due = new Date(r.now.getTime() + DATA_REQUEST_DAYS * 86_400_000);
  const [row] = await sql.query<DataRequestRow>(
    `insert into players.data_requests (id, operator_id, brand_id, environment, player_id, type, status, reference, corrections, received_at, due_at, request_id)
     values (?, ?, ?, ?, ?, ?, 'received', ?, ?::jsonb, ?, ?, ?) returning ${COLUMNS}`,
    [
      newId('dataRequest'),
      r.operatorId,
      r.brandId,
      r.environment,
      r.playerId,
      r.type,
      r.reference,
      r.corrections === null ? null : JSON.stringify(r.corrections),
      r.now,
      due,
      r.requestId,
    ],
  );
  return row!;
}

/** Answers a request still `received` (false: it was answered meanwhile, by another replica's loop). */
export async function answerDataRequest(
  sql: SqlRunner,
  id: string,
  a: { status: Exclude<DataRequestStatus, 'received'>; answer: DataRequestAnswer; file: string | null; at: Date },
): Promise<boolean> {
  const rows = await sql.query(
    `update players.data_requests set status = ?, answer = ?::jsonb, answer_file = ?, answered_at = ? where id = ? and status = 'received' returning 1`,
    [a.status, JSON.stringify(a.answer), a.file, a.at, id],
  );
  return rows.length === 1;
}

export async function dataRequestOf(sql: SqlRunner, id: string, playerId?: string): Promise<DataRequestRow | undefined> {
  const [row] = await sql.query<DataRequestRow>(
    `select ${COLUMNS} from players.data_requests where id = ?${playerId === undefined ? '' : ' and player_id = ?'}`,
    playerId === undefined ? [id] : [id, playerId],
  );
  return row;
}

/**
 * `chars` characters of an answered request's file from `start` (code points: substr counts as
 * length does, so a chunk never splits a character), and the file's length; null without a file.
 */
export async function dataRequestFileChunk(sql: SqlRunner, id: string, start: number, chars: number): Promise<{ chunk: string; length: number } | null> {
  const [row] = await sql.query<{ chunk: string | null; length: number | null }>(
    'select substr(answer_file, ?::int + 1, ?::int) as chunk, length(answer_file) as length from players.data_requests where id = ?',
    [start, chars, id],
  );
  return row?.chunk == null || row.length == null ? null : { chunk: row.chunk, length: Number(row.length) };
}

export async function dataRequestsOfPlayer(sql: SqlRunner, playerId: string): Promise<DataRequestRow[]> {
  return sql.query<DataRequestRow>(`select ${COLUMNS} from players.data_requests where player_id = ? order by received_at desc, id desc limit 200`, [playerId]);
}

/** The requests still waiting for their answer, oldest due first (the privacy loop's work). */
export async function openDataRequests(sql: SqlRunner, limit: number): Promise<DataRequestRow[]> {
  return sql.query<DataRequestRow>(`select ${COLUMNS} from players.data_requests where status = 'received' order by due_at, id limit ?`, [limit]);
}

export async function adminDataRequests(
  sql: SqlRunner,
  q: { status?: DataRequestStatus; overdue?: boolean; operatorId?: string; limit?: number },
  now: Date,
): Promise<DataRequestRow[]> {
  const where: string[] = [];
  const args: unknown[] = [];
  if (q.status !== undefined) where.push('status = ?') && args.push(q.status);
  if (q.overdue === true) where.push(`status = 'received' and due_at < ?`) && args.push(now);
  if (q.operatorId !== undefined) where.push('operator_id = ?') && args.push(q.operatorId);
  return sql.query<DataRequestRow>(
    `select ${COLUMNS} from players.data_requests ${where.length ? `where ${where.join(' and ')}` : ''} order by due_at, id limit ?`,
    [...args, q.limit ?? 50],
  );
}

/** By environment: how many requests wait for their answer, and how many of them are past the law's 15 days. */
export async function dataRequestCounts(sql: SqlRunner, now: Date): Promise<Map<string, { open: number; overdue: number }>> {
  const rows = await sql.query<{ environment: string; open: string; overdue: string }>(
    `select environment, count(*) as open, count(*) filter (where due_at < ?) as overdue from players.data_requests where status = 'received' group by environment`,
    [now],
  );
  return new Map(rows.map((r) => [r.environment, { open: Number(r.open), overdue: Number(r.overdue) }]));
}

export function toDataRequest(r: DataRequestRow): DataRequest {
  return {
    id: r.id,
    object: 'data_request',
    playerId: r.player_id,
    type: r.type,
    status: r.status,
    reference: r.reference,
    corrections: (r.corrections as Record<string, unknown> | null) ?? null,
    receivedAt: isoTime(r.received_at),
    dueAt: isoTime(r.due_at),
    answeredAt: r.answered_at === null ? null : isoTime(r.answered_at),
    answer: r.answer,
  };
}
