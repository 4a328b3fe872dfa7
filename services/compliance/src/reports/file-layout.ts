// The layout of a downloaded daily regulator file, in this one module. The SPA's SIGAP file
// formats (the "Manual SIGAP" Ordinance 722/2024 art. 10 refers to) are not public: this is our
// own documented layout (docs/aml.md, "Daily regulator file"), `bo-daily-file/1`, and the place a
// SIGAP layout would replace it once the manual is in hand.
// - JSON: one document, the file's header and check, then every part as an array of its lines.
// - CSV: one file per part (as regulators' data feeds are: one file per record type), RFC 4180
//   (quoted when needed, CRLF, UTF-8), a header row, `brand_id` and `date` first on every row so
//   the files of many days and brands load into one table; money as 0.00, times in ISO 8601 UTC,
//   booleans true/false, nothing as an empty cell.
// Both are served chunk by chunk (a page of lines each); the gateway streams the chunks as one
// download. The chunk cursor is this module's own: which part, and after which line.
import { DAILY_FILE_PARTS, validationError, type DailyFilePart, type FileChunk } from '@bo/contracts';
import { isoTime } from '@bo/service-kit';
import { partLinesAfter, type FileRow } from '../store/daily-files.ts';
import type { MakerDeps } from './daily-file-maker.ts';

export const LAYOUT = 'bo-daily-file/1';
/** Lines per chunk: a chunk stays well under the NATS payload limit. */
const CHUNK_LINES = 500;

/** Each part's CSV columns and the line field each one reads (after brand_id and date). */
export const CSV_COLUMNS: Record<DailyFilePart, Array<[column: string, field: string]>> = {
  bettors: [
    ['player_id', 'playerId'],
    ['external_id', 'externalId'],
    ['cpf', 'cpf'],
    ['name', 'name'],
    ['birth_date', 'birthDate'],
    ['environment', 'environment'],
    ['status', 'status'],
    ['kyc_status', 'kycStatus'],
    ['registered_at', 'registeredAt'],
    ['registered_on_day', 'registeredOnDay'],
    ['status_changed_on_day', 'statusChangedOnDay'],
  ],
  accounts: [
    ['player_id', 'playerId'],
    ['currency', 'currency'],
    ['opening', 'opening'],
    ['deposits', 'deposits'],
    ['withdrawals', 'withdrawals'],
    ['bets', 'bets'],
    ['wins', 'wins'],
    ['other', 'other'],
    ['closing', 'closing'],
    ['entries', 'entries'],
  ],
  deposits: [
    ['deposit_id', 'depositId'],
    ['player_id', 'playerId'],
    ['amount', 'amount'],
    ['currency', 'currency'],
    ['method', 'method'],
    ['external_reference', 'externalReference'],
    ['payer_cpf', 'payerCpf'],
    ['status', 'status'],
    ['created_at', 'createdAt'],
    ['confirmed_at', 'confirmedAt'],
    ['booked_at', 'bookedAt'],
  ],
  withdrawals: [
    ['withdrawal_id', 'withdrawalId'],
    ['player_id', 'playerId'],
    ['amount', 'amount'],
    ['currency', 'currency'],
    ['method', 'method'],
    ['destination', 'destination'],
    ['status', 'status'],
    ['requested_at', 'requestedAt'],
    ['paid_at', 'paidAt'],
  ],
  rounds: [
    ['round_id', 'roundId'],
    ['session_id', 'sessionId'],
    ['player_id', 'playerId'],
    ['game_id', 'gameId'],
    ['currency', 'currency'],
    ['amount', 'amount'],
    ['payout', 'payout'],
    ['at', 'at'],
  ],
  // A sports bet's slip in columns of its own (empty for a casino round); `slip.x` reads the slip's x.
  provider_transactions: [
    ['id', 'id'],
    ['provider_id', 'providerId'],
    ['provider_name', 'providerName'],
    ['transaction_id', 'transactionId'],
    ['kind', 'kind'],
    ['player_id', 'playerId'],
    ['currency', 'currency'],
    ['game_code', 'gameCode'],
    ['round_id', 'roundId'],
    ['round_kind', 'roundKind'],
    ['bet_transaction_id', 'betTransactionId'],
    ['moved', 'moved'],
    ['entry_id', 'entryId'],
    ['slip_sport', 'slip.sport'],
    ['slip_event', 'slip.event'],
    ['slip_market', 'slip.market'],
    ['slip_selection', 'slip.selection'],
    ['slip_odds', 'slip.odds'],
    ['slip_event_starts_at', 'slip.eventStartsAt'],
    ['outcome', 'outcome'],
    ['at', 'at'],
    // Issue #59 item 5: a casino game's certificate valid at the line's time (empty without one).
    ['certificate_laboratory', 'certificate.laboratory'],
    ['certificate_number', 'certificate.certificateNumber'],
    ['certificate_game_version', 'certificate.version'],
    ['certificate_certified_rtp', 'certificate.certifiedRtp'],
    ['certificate_regulator_reference', 'certificate.regulatorReference'],
    // Issue #59 item 1: a free bet's stake, funded by the provider (empty for every other kind).
    ['funded_stake', 'fundedStake'],
  ],
  status_changes: [
    ['change_id', 'changeId'],
    ['player_id', 'playerId'],
    ['previous_status', 'previousStatus'],
    ['status', 'status'],
    ['at', 'at'],
  ],
};

/** The JSON document's key of each part. */
const JSON_KEYS: Record<DailyFilePart, string> = {
  bettors: 'bettors',
  accounts: 'accounts',
  deposits: 'deposits',
  withdrawals: 'withdrawals',
  rounds: 'rounds',
  provider_transactions: 'providerTransactions',
  status_changes: 'statusChanges',
};

const cell = (v: unknown): string => {
  const s = v === null || v === undefined ? '' : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
};
/** A line's field, or a field of one of its objects (`slip.odds`); nothing when the object is null. */
const fieldOf = (line: Record<string, unknown>, field: string): unknown => {
  const [head, sub] = field.split('.');
  const v = line[head!];
  return sub === undefined ? v : v && typeof v === 'object' ? (v as Record<string, unknown>)[sub] : null;
};
const csvRow = (cells: unknown[]) => `${cells.map(cell).join(',')}\r\n`;

export const fileName = (brandId: string, date: string, part?: DailyFilePart) =>
  part ? `daily-file_${brandId}_${date}_${part}.csv` : `daily-file_${brandId}_${date}.json`;

// ---- the cursor: a part and the position after the last line served ----
interface Position {
  part: DailyFilePart;
  /** accounts: the index of the last account served; lines: the last line's time and ref. */
  after: number | [string, string] | null;
}

const encode = (p: Position) => Buffer.from(JSON.stringify(p)).toString('base64url');
function decode(cursor: string, format: 'json' | 'csv', part: DailyFilePart | undefined): Position {
  let p: unknown;
  try {
    p = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    p = undefined;
  }
  const pos = p as Position | undefined;
  const validAfter =
    pos?.after === null ||
    (typeof pos?.after === 'number' && Number.isInteger(pos.after) && pos.after >= 0) ||
    (Array.isArray(pos?.after) && pos.after.length === 2 && pos.after.every((x) => typeof x === 'string'));
  if (!pos || !DAILY_FILE_PARTS.includes(pos.part) || !validAfter || (format === 'csv' && pos.part !== part)) {
    throw validationError('query', [{ path: '/cursor', message: 'must be a cursor of this download' }]);
  }
  return pos;
}

/** A page of a part's lines after `after`; `done` when the part has no more. */
async function pageOf(
  deps: MakerDeps,
  row: FileRow,
  part: DailyFilePart,
  after: Position['after'],
  size: number,
): Promise<{ items: unknown[]; last: Position['after']; done: boolean }> {
  if (part === 'accounts') {
    const start = typeof after === 'number' ? after : 0;
    const items = row.accounts.slice(start, start + size);
    return { items, last: start + items.length, done: start + items.length >= row.accounts.length };
  }
  const [at, ref] = Array.isArray(after) ? after : ['-infinity', ''];
  const rows = await partLinesAfter(deps.sql, row, part, [at, ref], size);
  const last = rows.at(-1);
  return { items: rows.map((r) => r.data), last: last ? [isoTime(last.at), last.ref] : after, done: rows.length < size };
}

/** A chunk of one part's CSV. */
export async function csvChunk(deps: MakerDeps, row: FileRow, part: DailyFilePart, cursor: string | undefined, lines = CHUNK_LINES): Promise<FileChunk> {
  const pos = cursor ? decode(cursor, 'csv', part) : { part, after: null };
  const columns = CSV_COLUMNS[part];
  const page = await pageOf(deps, row, part, pos.after, lines);
  let chunk = pos.after === null ? csvRow(['brand_id', 'date', ...columns.map(([c]) => c)]) : '';
  for (const item of page.items) {
    const line = item as Record<string, unknown>;
    chunk += csvRow([row.brand_id, row.date, ...columns.map(([, field]) => fieldOf(line, field))]);
  }
  return {
    filename: fileName(row.brand_id, row.date, part),
    contentType: 'text/csv; charset=utf-8',
    chunk,
    nextCursor: page.done ? null : encode({ part, after: page.last }),
  };
}

/**
 * A chunk of the whole file as one JSON document. The first carries the header (`header`, the
 * file's summary and its check made now) and opens the first part; each closes its part when the
 * part is done and opens the next; the last closes the document.
 */
export async function jsonChunk(
  deps: MakerDeps,
  row: FileRow,
  header: Record<string, unknown>,
  cursor: string | undefined,
  lines = CHUNK_LINES,
): Promise<FileChunk> {
  const pos = cursor ? decode(cursor, 'json', undefined) : { part: DAILY_FILE_PARTS[0], after: null };
  let chunk = '';
  if (!cursor) {
    const head = JSON.stringify({ layout: LAYOUT, ...header });
    chunk += `${head.slice(0, -1)},${JSON.stringify(JSON_KEYS[pos.part])}:[`;
  }
  const page = await pageOf(deps, row, pos.part, pos.after, lines);
  chunk += page.items.map((item, i) => `${pos.after === null && i === 0 ? '' : ','}${JSON.stringify(item)}`).join('');
  let next: Position | null = { part: pos.part, after: page.last };
  if (page.done) {
    const following = DAILY_FILE_PARTS[DAILY_FILE_PARTS.indexOf(pos.part) + 1];
    chunk += following ? `],${JSON.stringify(JSON_KEYS[following])}:[` : ']}';
    next = following ? { part: following, after: null } : null;
  }
  return { filename: fileName(row.brand_id, row.date), contentType: 'application/json; charset=utf-8', chunk, nextCursor: next ? encode(next) : null };
}
