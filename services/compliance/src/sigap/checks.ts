// The checks the simulator applies to a file, in SIGAP's two phases (the manual, as quoted
// publicly: "análise de estrutura dos arquivos e análise de qualidade dos dados"; their detail is
// in Serpro's API manual, which is not public). Which checks each phase holds is OUR ASSUMPTION,
// written against our assumed layout (layout.ts):
//   structure: the content is JSON, its header has every field with the right type, the layout and
//     file type are known, the record count is the records' and at most SIGAP_MAX_RECORDS, each
//     record has every field of its type (and no other) with the right type;
//   quality: CPFs with valid check digits, status codes SIGAP knows, record ids once, every movement
//     inside the reference day, amounts of the right sign, a game named on every online-game movement
//     but a promotional credit's or jackpot win's outside a round, a sports bet with its selection and odds,
//     each wallet's opening plus the day's movements equal to its closing and its movements equal to
//     its deposits and withdrawals, the gross gaming revenue and its share computed right.
// The structure phase stops at its first failures (the quality phase then has nothing to read); each
// phase names up to MAX_REASONS reasons.
import { isValidCpf, type SigapFileType, type SigapPhase, type SigapReason } from '@bo/contracts';
import { isValidCnpj } from '../domain/cnpj.ts';
import { Money, addMoney, formatMoney } from '@bo/service-kit';
import { GAMELESS_KINDS, HEADER_FIELDS, MOVEMENT_FIELDS, RECORD_FIELDS, SIGAP_LAYOUT, SIGAP_MAX_RECORDS, type FieldSpec } from './layout.ts';

const MAX_REASONS = 50;
const MONEY = /^-?[0-9]+\.[0-9]{2}$/;
const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

export type CheckResult = { ok: true; records: number } | { ok: false; phase: SigapPhase; reasons: SigapReason[] };

type Rec = Record<string, unknown>;
const reason = (code: string, message: string, field: string | null = null, record: number | null = null): SigapReason => ({ code, field, record, message });

function typeProblem(value: unknown, spec: FieldSpec): string | undefined {
  if (value === null) return spec.nullable ? undefined : 'must not be null';
  if (value === undefined) return 'is missing';
  if (spec.oneOf && !spec.oneOf.includes(value as string | number)) return `must be one of ${spec.oneOf.join(', ')}`;
  switch (spec.kind) {
    case 'text':
      return typeof value === 'string' && value.length > 0 ? undefined : 'must be a non-empty string';
    case 'money':
      return typeof value === 'string' && MONEY.test(value) && !value.startsWith('-') ? undefined : 'must be an amount 0.00 or more';
    case 'signed_money':
      return typeof value === 'string' && MONEY.test(value) ? undefined : 'must be an amount like -1.00 or 1.00';
    case 'time':
      return typeof value === 'string' && TIME.test(value) && !Number.isNaN(Date.parse(value)) ? undefined : 'must be a UTC time (ISO 8601)';
    case 'date':
      return typeof value === 'string' && DATE.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) ? undefined : 'must be a date YYYY-MM-DD';
    case 'cpf':
      return typeof value === 'string' && /^[0-9]{11}$/.test(value) ? undefined : 'must be 11 digits';
    case 'cnpj':
      return typeof value === 'string' && isValidCnpj(value) ? undefined : 'must be a CNPJ: 14 digits with valid check digits';
    case 'int':
      return Number.isInteger(value) ? undefined : 'must be an integer';
    case 'bool':
      return typeof value === 'boolean' ? undefined : 'must be true or false';
    case 'currency':
      return typeof value === 'string' && /^[A-Z]{3}$/.test(value) ? undefined : 'must be a currency code';
    case 'odds':
    case 'rate':
      return typeof value === 'string' && /^[0-9]+(\.[0-9]+)?$/.test(value) ? undefined : 'must be a decimal number';
    case 'movements':
      return Array.isArray(value) ? undefined : 'must be a list';
  }
}

/** Each field of `fields` in `obj` with its type, and no other field. */
function shapeReasons(obj: unknown, fields: Record<string, FieldSpec>, where: string, record: number | null): SigapReason[] {
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) return [reason('NOT_AN_OBJECT', `${where} must be an object`, null, record)];
  const out: SigapReason[] = [];
  const o = obj as Rec;
  for (const [name, spec] of Object.entries(fields)) {
    const problem = typeProblem(o[name], spec);
    if (problem) out.push(reason(o[name] === undefined ? 'FIELD_MISSING' : 'FIELD_INVALID', `${where}.${name} ${problem}`, name, record));
  }
  for (const name of Object.keys(o)) if (!(name in fields)) out.push(reason('FIELD_UNKNOWN', `${where}.${name} is not a field of this layout`, name, record));
  return out;
}

function structure(content: string, maxRecords: number): { reasons: SigapReason[]; doc?: Rec } {
  let doc: unknown;
  try {
    doc = JSON.parse(content);
  } catch {
    return { reasons: [reason('NOT_JSON', 'the content is not JSON')] };
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return { reasons: [reason('NOT_AN_OBJECT', 'the file must be one JSON object')] };
  const d = doc as Rec;
  const { records, ...header } = d;
  const reasons = shapeReasons(header, HEADER_FIELDS, 'header', null);
  if (!Array.isArray(records)) return { reasons: [...reasons, reason('FIELD_MISSING', 'the file has no records list', 'records')] };
  if (reasons.length > 0) return { reasons };
  if (d.layout !== SIGAP_LAYOUT) reasons.push(reason('LAYOUT_UNKNOWN', `layout ${String(d.layout)} is not ${SIGAP_LAYOUT}`, 'layout'));
  if (d.recordCount !== records.length)
    reasons.push(reason('RECORD_COUNT_MISMATCH', `recordCount says ${String(d.recordCount)}, the file has ${records.length}`, 'recordCount'));
  if (records.length > maxRecords) reasons.push(reason('TOO_MANY_RECORDS', `${records.length} records: at most ${maxRecords} per file`, 'records'));
  if (!(Number(d.part) >= 1 && Number(d.part) <= Number(d.parts))) reasons.push(reason('PART_INVALID', `part ${String(d.part)} of ${String(d.parts)}`, 'part'));
  const fields = RECORD_FIELDS[d.fileType as SigapFileType];
  for (let i = 0; i < records.length && reasons.length < MAX_REASONS; i++) {
    reasons.push(...shapeReasons(records[i], fields, `records[${i}]`, i));
    const moves = (records[i] as Rec | undefined)?.movements;
    if (d.fileType === 'wallets' && Array.isArray(moves))
      for (const [j, mv] of moves.entries()) reasons.push(...shapeReasons(mv, MOVEMENT_FIELDS, `records[${i}].movements[${j}]`, i));
  }
  return { reasons: reasons.slice(0, MAX_REASONS), doc: d };
}

const m = (v: unknown) => new Money(v as string);
const sum = (vs: unknown[]) => addMoney(...(vs as string[]));
const same = (a: string, b: unknown) => m(a).comparedTo(b as string) === 0;

function quality(d: Rec): SigapReason[] {
  const type = d.fileType as SigapFileType;
  const records = d.records as Rec[];
  const from = Date.parse(d.from as string);
  const to = Date.parse(d.to as string);
  const out: SigapReason[] = [];
  const inDay = (at: unknown, i: number, field: string) => {
    const t = Date.parse(at as string);
    if (t < from || t >= to) out.push(reason('OUTSIDE_REFERENCE_DAY', `records[${i}].${field} ${String(at)} is not on ${String(d.referenceDate)}`, field, i));
  };
  const seen = new Set<string>();
  const once = (key: string, i: number, field: string) => {
    if (seen.has(key)) out.push(reason('DUPLICATE_RECORD', `records[${i}].${field} ${key} appears twice`, field, i));
    seen.add(key);
  };
  records.forEach((r, i) => {
    if (r.cpf !== null && r.cpf !== undefined && !isValidCpf(String(r.cpf)))
      out.push(reason('CPF_INVALID', `records[${i}].cpf has wrong check digits`, 'cpf', i));
    if (type === 'bettors') once(String(r.playerId), i, 'playerId');
    if (type === 'wallets') {
      once(`${String(r.playerId)}/${String(r.currency)}`, i, 'playerId');
      const expected = sum([r.opening, r.deposits, r.withdrawals, r.bets, r.wins, r.other]);
      if (!same(expected, r.closing))
        out.push(reason('BALANCE_MISMATCH', `records[${i}]: opening plus the day's movements is ${expected}, closing says ${String(r.closing)}`, 'closing', i));
      const moves = r.movements as Rec[];
      const deposits = sum(moves.filter((x) => x.type === 'deposit').map((x) => x.amount));
      const withdrawals = sum(moves.filter((x) => x.type === 'withdrawal').map((x) => x.amount));
      if (!same(deposits, r.deposits))
        out.push(reason('MOVEMENTS_MISMATCH', `records[${i}]: deposit movements add up to ${deposits}, deposits says ${String(r.deposits)}`, 'deposits', i));
      if (
        !m(withdrawals)
          .plus(r.withdrawals as string)
          .isZero()
      )
        out.push(
          reason(
            'MOVEMENTS_MISMATCH',
            `records[${i}]: withdrawal movements add up to ${withdrawals}, withdrawals says ${String(r.withdrawals)}`,
            'withdrawals',
            i,
          ),
        );
      for (const x of moves) inDay(x.at, i, 'movements.at');
    }
    if (type === 'online_games' || type === 'sports_bets') {
      once(String(r.id), i, 'id');
      inDay(r.at, i, 'at');
      if (r.kind !== 'correction' && String(r.amount).startsWith('-'))
        out.push(reason('AMOUNT_NEGATIVE', `records[${i}].amount of a ${String(r.kind)} must not be negative`, 'amount', i));
    }
    if (type === 'online_games' && r.gameCode === null && !GAMELESS_KINDS.includes(String(r.kind)))
      out.push(reason('GAME_MISSING', `records[${i}]: a ${String(r.kind)} must name its game`, 'gameCode', i));
    if (type === 'sports_bets' && r.kind === 'bet') {
      for (const f of ['sport', 'event', 'market', 'selection', 'odds'])
        if (r[f] === null) out.push(reason('BET_WITHOUT_SELECTION', `records[${i}]: a bet must carry its ${f}`, f, i));
      if (r.odds !== null && !(Number(r.odds) > 1)) out.push(reason('ODDS_INVALID', `records[${i}].odds must be above 1`, 'odds', i));
    }
    if (type === 'legal_destinations') {
      once(String(r.currency), i, 'currency');
      const ggr = formatMoney(
        m(r.stakes)
          .minus(r.prizes as string)
          .minus(r.otherMovements as string),
      );
      if (!same(ggr, r.ggr))
        out.push(reason('GGR_MISMATCH', `records[${i}]: stakes less prizes and other movements is ${ggr}, ggr says ${String(r.ggr)}`, 'ggr', i));
      const share = formatMoney(Money.max(m(r.ggr), new Money(0)).times(r.rate as string));
      if (!same(share, r.share))
        out.push(reason('SHARE_MISMATCH', `records[${i}]: ${String(r.rate)} of the ggr is ${share}, share says ${String(r.share)}`, 'share', i));
    }
  });
  return out.slice(0, MAX_REASONS);
}

/** The two phases over a file's content: the first that fails says why; else how many records it holds. */
export function checkSigapFile(content: string, maxRecords = SIGAP_MAX_RECORDS): CheckResult {
  const s = structure(content, maxRecords);
  if (s.reasons.length > 0 || !s.doc) return { ok: false, phase: 'structure', reasons: s.reasons };
  const q = quality(s.doc);
  if (q.length > 0) return { ok: false, phase: 'quality', reasons: q };
  return { ok: true, records: (s.doc.records as unknown[]).length };
}
