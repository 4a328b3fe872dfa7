// Issue #59 item 2: a provider's daily statement read by its mapping (ProviderStatementMapping):
// CSV (RFC 4180 quoting, the mapping's delimiter, a header line naming the columns) or JSON (an
// array of objects, or the mapping's member holding it), each line normalised to our kind, amount
// signed for the player in units, currency and status. A line we cannot read is 422 naming it.
import { validationError, type ProviderStatementMapping } from '@bo/contracts';
import { formatMoney, Money } from '@bo/service-kit';

/** The rows of a CSV text (quoted fields may hold the delimiter, quotes doubled, and line breaks). */
export function parseCsv(text: string, delimiter: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === delimiter) {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      field = '';
      if (row.some((f) => f !== '')) rows.push(row);
      row = [];
    } else field += c;
  }
  row.push(field);
  if (row.some((f) => f !== '')) rows.push(row);
  return rows;
}

/** A statement's line, normalised: our kind, the amount signed for the player in units, our status. */
export interface StatementLine {
  transactionId: string;
  kind: string;
  amount: string;
  currency: string;
  status: 'ok' | 'rolled_back';
  playerId: string | null;
  roundId: string | null;
  at: string | null;
}

const AMOUNT = /^-?[0-9]+(\.[0-9]+)?$/;

function records(mapping: ProviderStatementMapping, content: string): Array<Record<string, unknown>> {
  if (mapping.format === 'csv') {
    const [header, ...rows] = parseCsv(content, mapping.delimiter ?? ',');
    if (!header) return [];
    return rows.map((r) => Object.fromEntries(header.map((h, i) => [h.trim(), r[i]])));
  }
  let doc: unknown;
  try {
    doc = JSON.parse(content);
  } catch {
    throw validationError('body', [{ path: '/content', message: 'is not JSON' }]);
  }
  const lines = mapping.linesMember ? (doc as Record<string, unknown> | null)?.[mapping.linesMember] : doc;
  if (!Array.isArray(lines) || lines.some((l) => typeof l !== 'object' || l === null))
    throw validationError('body', [{ path: '/content', message: `must be an array of objects${mapping.linesMember ? ` in ${mapping.linesMember}` : ''}` }]);
  return lines as Array<Record<string, unknown>>;
}

/** The statement's lines, normalised; the first line that does not read is 422 (`/content`, its number from 1). */
export function readStatement(mapping: ProviderStatementMapping, content: string): StatementLine[] {
  const f = mapping.fields;
  const text = (r: Record<string, unknown>, name: string | undefined) => {
    if (name === undefined) return null;
    const v = r[name];
    return v === undefined || v === null || v === '' ? null : String(v).trim();
  };
  return records(mapping, content).map((r, i) => {
    const bad = (what: string) => validationError('body', [{ path: '/content', message: `line ${i + 1}: ${what}` }]);
    const transactionId = text(r, f.transactionId);
    if (!transactionId) throw bad(`no ${f.transactionId}`);
    const theirKind = text(r, f.kind) ?? '';
    const kind = mapping.kinds[theirKind];
    if (!kind) throw bad(`${f.kind} ${JSON.stringify(theirKind)} is not in the mapping's kinds`);
    const raw = text(r, f.amount) ?? '';
    if (!AMOUNT.test(raw)) throw bad(`${f.amount} ${JSON.stringify(raw)} is not an amount`);
    let amount = new Money(raw);
    if (mapping.amountUnit === 'cents') amount = amount.div(100);
    if (mapping.sign === 'absolute' && (kind === 'bet' || kind === 'free_bet')) amount = amount.abs().negated();
    const currency = (text(r, f.currency) ?? '').toUpperCase();
    if (!/^[A-Z]{3}$/.test(currency)) throw bad(`${f.currency} ${JSON.stringify(currency)} is not a currency`);
    const theirStatus = text(r, f.status);
    const status = theirStatus === null ? 'ok' : mapping.statuses?.[theirStatus];
    if (!status) throw bad(`${f.status} ${JSON.stringify(theirStatus)} is not in the mapping's statuses`);
    const at = text(r, f.at);
    if (at !== null && Number.isNaN(new Date(at).getTime())) throw bad(`${f.at} ${JSON.stringify(at)} is not a time`);
    return { transactionId, kind, amount: formatMoney(amount), currency, status, playerId: text(r, f.playerId), roundId: text(r, f.roundId), at };
  });
}
