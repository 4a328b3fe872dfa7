// The kept daily regulator files (compliance.daily_reports: a brand's day, its ledger part and its last
// check; compliance.daily_file_lines: the line items, keyed by what they describe so a line is kept
// once): the header written and marked made, the lines kept and read page by page, their sums and
// counts for the check, and the list. Kit SQL only.
import { REGULATOR_LINE_KINDS, type DailyFileCounts, type DailyFilePart, type Environment, type LedgerDayAccount, type TimeZoneSource } from '@bo/contracts';
import type { SqlRunner } from '@bo/service-kit';

/** A kept file's header row. */
export interface FileRow {
  brand_id: string;
  date: string;
  time_zone: string;
  time_zone_source: TimeZoneSource | null;
  operator_id: string | null;
  /** The brand's environment; null for a file kept before it was recorded, or of no brand of ours. */
  environment: Environment | null;
  /** Timestamps: the kit's rows carry Postgres' text (isoTime reads both). */
  from: string | Date;
  to: string | Date;
  generated_at: string | Date;
  accounts: LedgerDayAccount[];
  lines_made_at: string | Date | null;
  counts: DailyFileCounts | null;
  ties: boolean | null;
  problems: string[] | null;
  checked_at: string | Date | null;
}

/** The parts kept as lines (accounts stay in the header row). */
export type LinePart = Exclude<DailyFilePart, 'accounts'>;

/** A line item to keep: `data` is the line as the file gives it. */
export interface Line {
  part: LinePart;
  ref: string;
  player_id: string;
  at: string;
  data: unknown;
}

export async function keptFile(sql: SqlRunner, brandId: string, date: string): Promise<FileRow | undefined> {
  const rows = await sql.query<FileRow>('select * from compliance.daily_reports where brand_id = ? and date = ?', [brandId, date]);
  return rows[0];
}

/** Writes a file's header row with its ledger part, unless another maker did. */
export async function keepHeader(
  sql: SqlRunner,
  h: {
    brandId: string;
    date: string;
    timeZone: string;
    source: TimeZoneSource;
    operatorId: string | null;
    environment: Environment | null;
    from: Date;
    to: Date;
    now: Date;
    accounts: LedgerDayAccount[];
  },
): Promise<void> {
  await sql.query(
    `insert into compliance.daily_reports (brand_id, date, time_zone, time_zone_source, operator_id, environment, "from", "to", generated_at, accounts)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb) on conflict (brand_id, date) do nothing`,
    [h.brandId, h.date, h.timeZone, h.source, h.operatorId, h.environment, h.from, h.to, h.now, JSON.stringify(h.accounts)],
  );
}

/** Keeps lines of a file, each once. */
export async function keepLines(sql: SqlRunner, brandId: string, date: string, lines: Line[]): Promise<void> {
  if (lines.length === 0) return;
  await sql.query(
    `insert into compliance.daily_file_lines (brand_id, date, part, ref, player_id, at, data)
     select ?, ?, l.part, l.ref, l.player_id, l.at, l.data
     from jsonb_to_recordset(?::jsonb) as l(part text, ref text, player_id text, at timestamptz, data jsonb)
     on conflict do nothing`,
    [brandId, date, JSON.stringify(lines)],
  );
}

/** Marks the file's lines made, with the counts of each part (only the first maker to get there). */
export async function markLinesMade(sql: SqlRunner, brandId: string, date: string, now: Date, counts: DailyFileCounts): Promise<void> {
  await sql.query('update compliance.daily_reports set lines_made_at = ?, counts = ?::jsonb where brand_id = ? and date = ? and lines_made_at is null', [
    now,
    JSON.stringify(counts),
    brandId,
    date,
  ]);
}

/** How many lines each part of the file holds now (a part without lines is not named). */
export async function lineCounts(sql: SqlRunner, brandId: string, date: string): Promise<Map<LinePart, number>> {
  const rows = await sql.query<{ part: LinePart; n: number }>(
    'select part, count(*)::int as n from compliance.daily_file_lines where brand_id = ? and date = ? group by part',
    [brandId, date],
  );
  return new Map(rows.map((r) => [r.part, r.n]));
}

/** The money lines' sums of one account, part and (for provider transactions) kind. */
export interface SumRow {
  player_id: string;
  currency: string;
  part: 'deposits' | 'withdrawals' | 'rounds' | 'provider_transactions';
  /** provider_transactions: the line's kind (REGULATOR_LINE_KINDS: bet, win, rollback, correction and the provider-funded ones). */
  kind: string | null;
  n: number;
  amount: string;
  payout: string;
  /** Lines without a valid amount (or payout, or a provider transaction's kind). */
  malformed: number;
}

const MONEY = `'^-?[0-9]+\\.[0-9]{2}$'`;
const LINE_KINDS = REGULATOR_LINE_KINDS.map((k) => `'${k}'`).join(', ');
/** The money field of each part's lines (a provider transaction's is `moved`, signed for the player). */
const AMOUNT = `case when part = 'provider_transactions' then data->>'moved' else data->>'amount' end`;

/** The file's money lines summed per account, part and provider transaction kind. */
export function lineSums(sql: SqlRunner, brandId: string, date: string): Promise<SumRow[]> {
  return sql.query<SumRow>(
    `select player_id, data->>'currency' as currency, part, case when part = 'provider_transactions' then data->>'kind' end as kind,
       count(*)::int as n,
       coalesce(sum(case when ${AMOUNT} ~ ${MONEY} then (${AMOUNT})::numeric end), 0)::text as amount,
       coalesce(sum(case when data->>'payout' ~ ${MONEY} then (data->>'payout')::numeric end), 0)::text as payout,
       count(*) filter (where not coalesce(${AMOUNT} ~ ${MONEY}, false)
                           or (part = 'rounds' and not coalesce(data->>'payout' ~ ${MONEY}, false))
                           or (part = 'provider_transactions' and coalesce(data->>'kind', '') not in (${LINE_KINDS}))
                           -- a free bet moves nothing (its stake is the provider's: fundedStake)
                           or (part = 'provider_transactions' and data->>'kind' = 'free_bet' and data->>'moved' <> '0.00'))::int as malformed
     from compliance.daily_file_lines where brand_id = ? and date = ? and part in ('deposits', 'withdrawals', 'rounds', 'provider_transactions')
     group by player_id, data->>'currency', part, 4`,
    [brandId, date],
  );
}

/** The file's deposits not confirmed and withdrawals not paid in payments' records, `limit` of them in part and ref order. */
export function unfinishedMoneyLines(
  sql: SqlRunner,
  brandId: string,
  date: string,
  limit: number,
): Promise<Array<{ part: string; ref: string; status: string | null }>> {
  return sql.query<{ part: string; ref: string; status: string | null }>(
    `select part, ref, data->>'status' as status from compliance.daily_file_lines
     where brand_id = ? and date = ?
       and ((part = 'deposits' and coalesce(data->>'status', '') <> 'confirmed') or (part = 'withdrawals' and coalesce(data->>'status', '') <> 'paid'))
     order by part, ref limit ${limit}`,
    [brandId, date],
  );
}

/** Keeps what a check found on the file. */
export async function keepCheck(sql: SqlRunner, brandId: string, date: string, problems: string[], now: Date): Promise<void> {
  await sql.query('update compliance.daily_reports set ties = ?, problems = ?::jsonb, checked_at = ? where brand_id = ? and date = ?', [
    problems.length === 0,
    JSON.stringify(problems),
    now,
    brandId,
    date,
  ]);
}

/** A page of the kept files, newest day first (then brand, descending), `limit` of them. */
export function listFiles(
  sql: SqlRunner,
  f: { brandId?: string; from?: string; to?: string; environment?: Environment; after?: { at: string; id: string }; limit: number },
): Promise<FileRow[]> {
  return sql.query<FileRow>(
    `select * from compliance.daily_reports
     where (?::text is null or brand_id = ?) and (?::text is null or date >= ?) and (?::text is null or date <= ?)
       and (?::text is null or environment = ?)
       and (?::text is null or date < ? or (date = ? and brand_id < ?))
     order by date desc, brand_id desc limit ?`,
    [
      ...[f.brandId, f.brandId, f.from, f.from, f.to, f.to, f.environment, f.environment].map((v) => v ?? null),
      ...[f.after?.at, f.after?.at, f.after?.at, f.after?.id].map((v) => v ?? null),
      f.limit,
    ],
  );
}

/** A page of one part's lines after the line (time, ref) `after`, in time then ref order. */
export function partLinesAfter(
  sql: SqlRunner,
  row: Pick<FileRow, 'brand_id' | 'date'>,
  part: LinePart,
  after: [at: string, ref: string],
  size: number,
): Promise<Array<{ at: string | Date; ref: string; data: unknown }>> {
  return sql.query<{ at: string | Date; ref: string; data: unknown }>(
    `select at, ref, data from compliance.daily_file_lines
     where brand_id = ? and date = ? and part = ? and (at, ref) > (?::timestamptz, ?) order by at, ref limit ?`,
    [row.brand_id, row.date, part, ...after, size],
  );
}

/** The lines a SIGAP file type is made from: bettors, deposits and withdrawals, our rounds with providers' casino transactions, providers' sports bets. */
export type LineSelection = 'bettors' | 'money' | 'online_games' | 'sports_bets';

const SELECTIONS: Record<LineSelection, string> = {
  bettors: `part = 'bettors'`,
  money: `part in ('deposits', 'withdrawals')`,
  online_games: `part = 'rounds' or (part = 'provider_transactions' and data->>'roundKind' = 'casino')`,
  sports_bets: `part = 'provider_transactions' and data->>'roundKind' = 'sports'`,
};

/** A page of the selected lines after the line (time, part, ref) `after`, in time, part then ref order. */
export function selectedLinesAfter<T>(
  sql: SqlRunner,
  row: Pick<FileRow, 'brand_id' | 'date'>,
  selection: LineSelection,
  after: [at: string, part: string, ref: string],
  size: number,
): Promise<Array<{ part: string; ref: string; at: string | Date; data: T }>> {
  return sql.query<{ part: string; ref: string; at: string | Date; data: T }>(
    `select part, ref, at, data from compliance.daily_file_lines
     where brand_id = ? and date = ? and (${SELECTIONS[selection]}) and (at, part, ref) > (?::timestamptz, ?, ?) order by at, part, ref limit ?`,
    [row.brand_id, row.date, ...after, size],
  );
}
