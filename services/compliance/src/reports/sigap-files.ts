// SIGAP files (issue #46 item 1; Portaria SPA/MF 722/2024 art. 10; docs/aml.md, "SIGAP files"):
// made from a brand's kept daily regulator file, only once it ties to the ledger (the same lines:
// bettors, the ledger part's wallets with the day's deposits and withdrawals, our rounds and the
// providers' casino transactions, the sportsbooks' bets, and the day's gross gaming revenue for the
// legal destinations), in the layout of sigap/layout.ts (our assumption until the manual is public),
// split in parts of at most SIGAP_RECORDS_PER_FILE records, and kept exactly as sent
// (compliance.sigap_files) with SIGAP's answer: a receipt, or the phase and reasons of a rejection.
// A rejected type is made again as a new version after a correction (resend), the old one kept.
// Production brands go through the configured port; sandbox brands (and brands never seen) always
// through the simulator.
import { createHash } from 'node:crypto';
import {
  AppError,
  SIGAP_FILE_TYPES,
  newId,
  validationError,
  type Environment,
  type LedgerDayAccount,
  type RegulatorBettor,
  type RegulatorDeposit,
  type RegulatorProviderTransaction,
  type RegulatorRound,
  type RegulatorWithdrawal,
  type SigapDay,
  type SigapFile,
  type SigapFileStatus,
  type SigapFileType,
  type SigapTimeliness,
} from '@bo/contracts';
import { Money, addMoney, formatMoney, isoTime } from '@bo/service-kit';
import { dayBounds } from '../domain/daily-file.ts';
import { LEGAL_DESTINATIONS_RATE, SIGAP_LAYOUT, sigapFileName, statusCodeOf } from '../sigap/layout.ts';
import type { SigapAnswer, SigapPort, SigapSubmission } from '../sigap/port.ts';
import { brandZone, dayBefore } from './brand-zone.ts';
import { checkAndKeep } from './daily-file-check.ts';
import { ensureFile, madeFileOnly, type MakerDeps } from './daily-file-maker.ts';
import { brandEnvironment } from '../store/brands.ts';
import { operatorCnpj } from '../store/sigap-duties.ts';
import { cnpjProblem } from '../domain/cnpj.ts';
import { selectedLinesAfter, type FileRow, type LineSelection } from '../store/daily-files.ts';
import { claimForSending, contentOf as keptContent, filesOfDay, keepAnswered, keepUndelivered, keepVersion, type SigapRow } from '../store/sigap-files.ts';

export interface SigapDeps extends MakerDeps {
  /** `production`: the configured port (simulator or SIGAP); `sandbox`: always the simulator. */
  ports: { production: SigapPort; sandbox: SigapPort };
  recordsPerFile: number;
  /** Hears each answer (the submissions counter). */
  onAnswer?: (outcome: SigapAnswer['outcome']) => void;
}

/** A sender that holds a file longer than this died: another takes it. */
const STALE_CLAIM_MS = 10 * 60_000;
const PAGE = 5000;
const SAO_PAULO = 'America/Sao_Paulo';

/**
 * Where a file stands against its deadline at `now` (issue #61): an accepted one on time or late by
 * when it was sent, one not accepted overdue once the deadline passed; none for a replaced version.
 */
export function timelinessOf(r: Pick<SigapRow, 'status' | 'submitted_at' | 'superseded_at'>, deadline: Date, now: Date): SigapTimeliness | null {
  if (r.superseded_at) return null;
  if (r.status === 'accepted') return r.submitted_at && new Date(r.submitted_at).getTime() <= deadline.getTime() ? 'on_time' : 'late';
  return now.getTime() > deadline.getTime() ? 'overdue' : 'due';
}

/** A kept file as our team reads it, with its deadline in its brand's zone (`timeZone`, São Paulo when unknown) and timeliness at `now`. */
export const fileView = (r: SigapRow, timeZone: string | null, now: Date): SigapFile => {
  const deadline = deadlineOf(r.date, timeZone ?? SAO_PAULO);
  return { ...fileFacts(r), deadline: deadline.toISOString(), timeliness: timelinessOf(r, deadline, now) };
};

const fileFacts = (r: SigapRow): Omit<SigapFile, 'deadline' | 'timeliness'> => ({
  id: r.id,
  brandId: r.brand_id,
  operatorId: r.operator_id,
  environment: r.environment,
  date: r.date,
  fileType: r.file_type,
  version: r.version,
  part: r.part,
  parts: r.parts,
  fileName: r.file_name,
  records: r.records,
  checksum: r.checksum,
  status: r.status,
  via: r.via,
  attempts: r.attempts,
  receipt: r.receipt,
  protocol: r.protocol,
  phase: r.phase,
  reasons: r.reasons,
  lastError: r.last_error,
  correction: r.correction,
  madeAt: isoTime(r.made_at),
  submittedAt: r.submitted_at ? isoTime(r.submitted_at) : null,
  answeredAt: r.answered_at ? isoTime(r.answered_at) : null,
  supersededAt: r.superseded_at ? isoTime(r.superseded_at) : null,
});

/**
 * 06:00 of the day after `date` in the brand's zone (São Paulo, br-spa's, unless told): when SIGAP
 * expects the day's files (the manual, as quoted publicly).
 */
export function deadlineOf(date: string, timeZone = SAO_PAULO): Date {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const next = new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
  return new Date(dayBounds(next, timeZone).from.getTime() + 6 * 3_600_000);
}

const isDate = (date: string) =>
  date >= '2000-01-01' && !Number.isNaN(Date.parse(`${date}T00:00:00Z`)) && new Date(`${date}T00:00:00Z`).toISOString().startsWith(date);

/** The kept daily file of the brand's day (made now when it is due), or a 422 naming why there is none. */
async function dailyFileOf(deps: MakerDeps, brandId: string, date: string, now: Date): Promise<FileRow> {
  if (!isDate(date)) throw validationError('path', [{ path: '/date', message: 'must be a calendar date' }]);
  const kept = await ensureFile(deps, brandId, date, () => brandZone(deps, brandId), now);
  if ('notOver' in kept) throw validationError('path', [{ path: '/date', message: "the day is not over yet in the brand's time zone" }]);
  return kept.row;
}

/** The lines of some parts of a kept daily file, a page at a time, in the file's order (time, then ref). */
async function* linesOf<T>(deps: MakerDeps, row: FileRow, selection: LineSelection): AsyncGenerator<{ part: string; data: T }> {
  let after: [string, string, string] = ['-infinity', '', ''];
  for (;;) {
    const page = await selectedLinesAfter<T>(deps.sql, row, selection, after, PAGE);
    for (const l of page) yield { part: l.part, data: l.data };
    const last = page.at(-1);
    if (!last || page.length < PAGE) return;
    after = [isoTime(last.at), last.part, last.ref];
  }
}

type Rec = Record<string, unknown>;
const abs = (v: string) => formatMoney(new Money(v).abs());
/**
 * A provider line's amount: what moved, unsigned (a correction keeps its sign, for the bettor); a
 * free bet's, the stake the provider funded (nothing moved: layout.ts, MOVE_KINDS).
 */
const amountOf = (t: RegulatorProviderTransaction) =>
  t.kind === 'correction' ? t.moved : t.kind === 'free_bet' ? abs(t.fundedStake ?? t.moved) : abs(t.moved);

/** Each file type's records, from the kept daily file's lines (layout.ts gives their fields). */
async function recordsOf(deps: MakerDeps, row: FileRow, type: SigapFileType): Promise<Rec[]> {
  const out: Rec[] = [];
  if (type === 'bettors') {
    for await (const { data: b } of linesOf<RegulatorBettor>(deps, row, 'bettors')) {
      out.push({
        playerId: b.playerId,
        cpf: b.cpf,
        name: b.name,
        birthDate: b.birthDate,
        registeredAt: b.registeredAt,
        statusCode: statusCodeOf(b.status, b.impedimentReasons?.join(',') ?? null),
        status: b.status,
        kycStatus: b.kycStatus,
        registeredOnDay: b.registeredOnDay,
        statusChangedOnDay: b.statusChangedOnDay,
      });
    }
  }
  if (type === 'wallets') {
    const cpfs = new Map<string, string>();
    for await (const { data: b } of linesOf<RegulatorBettor>(deps, row, 'bettors')) cpfs.set(b.playerId, b.cpf);
    const moves = new Map<string, Rec[]>();
    for await (const l of linesOf<RegulatorDeposit | RegulatorWithdrawal>(deps, row, 'money')) {
      const d = l.data;
      const key = `${d.playerId}/${d.currency}`;
      const move =
        'depositId' in d
          ? { id: d.depositId, type: 'deposit', amount: d.amount, method: d.method, counterpart: d.payerCpf, at: d.bookedAt }
          : { id: d.withdrawalId, type: 'withdrawal', amount: d.amount, method: d.method, counterpart: d.destination, at: d.paidAt };
      moves.set(key, [...(moves.get(key) ?? []), move]);
    }
    for (const a of row.accounts as LedgerDayAccount[]) {
      out.push({
        playerId: a.playerId,
        cpf: cpfs.get(a.playerId) ?? null,
        currency: a.currency,
        opening: a.opening,
        deposits: a.deposits,
        withdrawals: a.withdrawals,
        bets: a.bets,
        wins: a.wins,
        other: a.other,
        closing: a.closing,
        movements: moves.get(`${a.playerId}/${a.currency}`) ?? [],
      });
    }
  }
  if (type === 'online_games') {
    for await (const l of linesOf<RegulatorRound | RegulatorProviderTransaction>(deps, row, 'online_games')) {
      if (l.part === 'rounds') {
        const r = l.data as RegulatorRound;
        const own = {
          playerId: r.playerId,
          providerId: null,
          providerName: 'in-house studio',
          gameCode: r.gameId,
          roundId: r.roundId,
          currency: r.currency,
          at: r.at,
        };
        out.push({ id: `${r.roundId}:bet`, ...own, kind: 'bet', amount: r.amount });
        out.push({ id: `${r.roundId}:win`, ...own, kind: 'win', amount: r.payout });
        continue;
      }
      const t = l.data as RegulatorProviderTransaction;
      out.push({
        id: t.id,
        playerId: t.playerId,
        providerId: t.providerId,
        providerName: t.providerName,
        // A promotional credit or jackpot win outside a round names no game.
        gameCode: t.gameCode === '' ? null : t.gameCode,
        roundId: t.roundId,
        kind: t.kind,
        amount: amountOf(t),
        currency: t.currency,
        at: t.at,
      });
    }
    // The layout's field order (the spread put `kind` and `amount` last for our rounds).
    for (let i = 0; i < out.length; i++) {
      const r = out[i]!;
      out[i] = {
        id: r.id,
        playerId: r.playerId,
        providerId: r.providerId,
        providerName: r.providerName,
        gameCode: r.gameCode,
        roundId: r.roundId,
        kind: r.kind,
        amount: r.amount,
        currency: r.currency,
        at: r.at,
      };
    }
  }
  if (type === 'sports_bets') {
    for await (const { data: t } of linesOf<RegulatorProviderTransaction>(deps, row, 'sports_bets')) {
      out.push({
        id: t.id,
        playerId: t.playerId,
        providerId: t.providerId,
        providerName: t.providerName,
        betId: t.roundId,
        kind: t.kind,
        amount: amountOf(t),
        currency: t.currency,
        sport: t.slip?.sport ?? null,
        event: t.slip?.event ?? null,
        market: t.slip?.market ?? null,
        selection: t.slip?.selection ?? null,
        odds: t.slip?.odds ?? null,
        eventStartsAt: t.slip?.eventStartsAt ?? null,
        outcome: t.outcome,
        at: t.at,
      });
    }
  }
  if (type === 'legal_destinations') {
    // The day's gross gaming revenue per currency, from the ledger part: what the bettors staked less
    // what they won and got back (rollbacks, corrections); its share for the legal destinations.
    const byCurrency = new Map<string, LedgerDayAccount[]>();
    for (const a of row.accounts as LedgerDayAccount[]) byCurrency.set(a.currency, [...(byCurrency.get(a.currency) ?? []), a]);
    for (const [currency, accounts] of [...byCurrency].sort(([a], [b]) => a.localeCompare(b))) {
      const stakes = formatMoney(new Money(0).minus(addMoney(...accounts.map((a) => a.bets))));
      const prizes = addMoney(...accounts.map((a) => a.wins));
      const other = addMoney(...accounts.map((a) => a.other));
      const ggr = formatMoney(new Money(stakes).minus(prizes).minus(other));
      const share = formatMoney(Money.max(new Money(ggr), new Money(0)).times(LEGAL_DESTINATIONS_RATE));
      out.push({ currency, stakes, prizes, otherMovements: other, ggr, rate: LEGAL_DESTINATIONS_RATE, share });
    }
  }
  return out;
}

/**
 * Makes `version` of a file type from the kept daily file: its parts, each with the header, kept in
 * one transaction that also marks the earlier versions superseded. Two makers at once keep each part once.
 */
async function makeVersion(
  deps: SigapDeps,
  row: FileRow,
  environment: Environment | null,
  type: SigapFileType,
  version: number,
  correction: string | null,
  now: Date,
): Promise<void> {
  const records = await recordsOf(deps, row, type);
  // The operator's CNPJ on every file (issue #60): required for production brands (ensureSigapDay).
  const cnpj = (await operatorCnpj(deps.sql, row.operator_id))?.cnpj ?? null;
  const parts = Math.max(1, Math.ceil(records.length / deps.recordsPerFile));
  const rows = Array.from({ length: parts }, (_, i) => {
    const slice = records.slice(i * deps.recordsPerFile, (i + 1) * deps.recordsPerFile);
    const content = JSON.stringify({
      layout: SIGAP_LAYOUT,
      fileType: type,
      operatorId: row.operator_id,
      operatorCnpj: cnpj,
      brandId: row.brand_id,
      referenceDate: row.date,
      timeZone: row.time_zone,
      from: isoTime(row.from),
      to: isoTime(row.to),
      version,
      part: i + 1,
      parts,
      recordCount: slice.length,
      generatedAt: now.toISOString(),
      records: slice,
    });
    return {
      id: newId('sigapFile'),
      part: i + 1,
      file_name: sigapFileName(row.brand_id, row.date, type, version, i + 1, parts),
      records: slice.length,
      checksum: createHash('sha256').update(content).digest('hex'),
      content,
    };
  });
  await keepVersion(deps.sql, {
    brandId: row.brand_id,
    operatorId: row.operator_id,
    environment,
    date: row.date,
    type,
    version,
    parts: rows,
    correction,
    now,
  });
}

const filesOf = (deps: MakerDeps, brandId: string, date: string): Promise<SigapRow[]> => filesOfDay(deps.sql, brandId, date, SIGAP_FILE_TYPES);

/** Every current file accepted (and each type made). */
const allAccepted = (files: SigapRow[]) => {
  const current = files.filter((f) => !f.superseded_at);
  return SIGAP_FILE_TYPES.every((t) => current.some((f) => f.file_type === t)) && current.every((f) => f.status === 'accepted');
};

function dayOf(row: FileRow, files: SigapRow[], problems: string[], now: Date): SigapDay {
  const deadline = deadlineOf(row.date, row.time_zone);
  const accepted = allAccepted(files);
  // The day is as late as its last current file sent (every one accepted), else overdue or due.
  const current = files.filter((f) => !f.superseded_at);
  const lastSent = current.reduce<SigapRow['submitted_at']>(
    (last, f) => (f.submitted_at && (!last || new Date(f.submitted_at) > new Date(last)) ? f.submitted_at : last),
    null,
  );
  return {
    brandId: row.brand_id,
    date: row.date,
    timeZone: row.time_zone,
    deadline: deadline.toISOString(),
    accepted,
    timeliness: timelinessOf({ status: accepted ? 'accepted' : 'made', submitted_at: lastSent, superseded_at: null }, deadline, now) ?? 'due',
    dailyFileTies: problems.length === 0,
    problems,
    files: files.map((f) => fileView(f, row.time_zone, now)),
  };
}

/**
 * The SIGAP files of a brand's day, each type made if it was not (from the daily file, made first
 * when the day is over and it was not, and checked now: nothing is made from a file that does not tie).
 */
/** The day as kept, for a read-only role (the regulator, issue #69): nothing made or checked anew; 422 when its daily file is not made yet. */
export async function keptSigapDay(deps: SigapDeps, brandId: string, date: string, now: Date): Promise<SigapDay> {
  if (!isDate(date)) throw validationError('path', [{ path: '/date', message: 'must be a calendar date' }]);
  const row = await madeFileOnly(deps.sql, brandId, date, 'path');
  return dayOf(row, await filesOf(deps, brandId, date), row.ties === false ? (row.problems ?? []) : [], now);
}

export async function ensureSigapDay(deps: SigapDeps, brandId: string, date: string, now: Date): Promise<SigapDay> {
  const row = await dailyFileOf(deps, brandId, date, now);
  let files = await filesOf(deps, brandId, date);
  const missing = SIGAP_FILE_TYPES.filter((t) => !files.some((f) => f.file_type === t));
  if (missing.length === 0) return dayOf(row, files, row.ties === false ? (row.problems ?? []) : [], now);
  const { problems } = await checkAndKeep(deps, row, now);
  if (problems.length > 0) return dayOf(row, files, problems, now);
  const environment = await brandEnvironment(deps.sql, brandId);
  // A production brand's files carry its operator's CNPJ (issue #60): none is made without it.
  if (environment === 'production' && !(await operatorCnpj(deps.sql, row.operator_id)))
    return { ...dayOf(row, files, [cnpjProblem(row.operator_id)], now), dailyFileTies: true };
  for (const type of missing) await makeVersion(deps, row, environment, type, 1, null, now);
  files = await filesOf(deps, brandId, date);
  return dayOf(row, files, [], now);
}

const portOf = (deps: SigapDeps, f: Pick<SigapRow, 'environment'>) => (f.environment === 'production' ? deps.ports.production : deps.ports.sandbox);

/** Keeps an answer on the file (only if it is still in the state it was sent or asked in). */
async function keepAnswer(deps: SigapDeps, id: string, from: SigapFileStatus, answer: SigapAnswer, now: Date): Promise<void> {
  deps.onAnswer?.(answer.outcome);
  if (answer.outcome === 'unavailable') {
    // Not delivered: sent again by the next pass (a pending one keeps waiting for its analyses).
    await keepUndelivered(deps.sql, id, from, from === 'pending' ? 'pending' : 'failed', answer.why);
    return;
  }
  const status: SigapFileStatus = answer.outcome;
  const answered = answer.outcome === 'pending' ? null : now;
  await keepAnswered(deps.sql, id, from, {
    status,
    receipt: answer.outcome === 'accepted' ? answer.receipt : null,
    protocol: 'protocol' in answer ? (answer.protocol ?? null) : null,
    phase: answer.outcome === 'rejected' ? answer.phase : null,
    reasons: answer.outcome === 'rejected' ? answer.reasons : [],
    now,
    answeredAt: answered,
  });
}

/**
 * Sends the day's current files that are made or were not delivered (and a sender's that died),
 * one at a time, and asks SIGAP about those pending. Each file is claimed first (`sending`): two
 * senders at once (replicas, the job and a request) send it once.
 */
export async function sendDay(deps: SigapDeps, brandId: string, date: string, now: Date): Promise<void> {
  const files = (await filesOf(deps, brandId, date)).filter((f) => !f.superseded_at);
  for (const f of files) {
    const port = portOf(deps, f);
    if (f.status === 'pending' && f.protocol) {
      await keepAnswer(deps, f.id, 'pending', await port.status(f.protocol), now);
      continue;
    }
    const c = await claimForSending(deps.sql, f.id, port.via, now, new Date(now.getTime() - STALE_CLAIM_MS));
    if (!c) continue;
    const submission: SigapSubmission = {
      fileType: c.file_type,
      fileName: c.file_name,
      brandId: c.brand_id,
      operatorId: c.operator_id,
      referenceDate: c.date,
      part: c.part,
      parts: c.parts,
      content: c.content,
      checksum: c.checksum,
    };
    await keepAnswer(deps, c.id, 'sending', await port.submit(submission), now);
  }
}

/** The day's SIGAP files made if they were not, sent, and as they stand now. */
export async function submitDay(deps: SigapDeps, brandId: string, date: string, now: Date): Promise<SigapDay> {
  const before = await ensureSigapDay(deps, brandId, date, now);
  if (before.files.length === 0) return before;
  await sendDay(deps, brandId, date, now);
  const row = await dailyFileOf(deps, brandId, date, now);
  return dayOf(row, await filesOf(deps, brandId, date), before.problems, now);
}

/**
 * After a correction: the next version of a file type whose current version SIGAP rejected, made
 * from the kept daily file as it is now (it must still tie), and sent. 409 SIGAP_FILE_NOT_REJECTED
 * for a type with no rejected part, or one still being sent or analysed.
 */
export async function resendType(deps: SigapDeps, brandId: string, date: string, type: SigapFileType, correction: string, now: Date): Promise<SigapDay> {
  const row = await dailyFileOf(deps, brandId, date, now);
  const current = (await filesOf(deps, brandId, date)).filter((f) => f.file_type === type && !f.superseded_at);
  const statuses = [...new Set(current.map((f) => f.status))];
  if (!statuses.includes('rejected') || statuses.some((s) => s === 'sending' || s === 'pending'))
    throw new AppError('SIGAP_FILE_NOT_REJECTED', undefined, {
      fileType: type,
      status: statuses.length === 1 ? statuses[0] : statuses.length ? statuses : null,
    });
  const { problems } = await checkAndKeep(deps, row, now);
  if (problems.length > 0)
    throw validationError('body', [{ path: '/fileType', message: `the daily file does not tie (${problems.length} problems): correct it first` }]);
  await makeVersion(deps, row, current[0]!.environment, type, Math.max(...current.map((f) => f.version)) + 1, correction, now);
  await sendDay(deps, brandId, date, now);
  return dayOf(row, await filesOf(deps, brandId, date), [], now);
}

/** The content of a kept file, by id within its brand's day. */
export const contentOf = (deps: MakerDeps, brandId: string, date: string, id: string) => keptContent(deps.sql, brandId, date, id);

/** Yesterday of a brand, in its own time zone. */
export async function yesterdayOf(deps: MakerDeps, brandId: string, now: Date): Promise<string> {
  const zone = await brandZone(deps, brandId);
  return dayBefore(new Intl.DateTimeFormat('en-CA', { timeZone: zone.timeZone }).format(now));
}

/** Whether every current file of the brand's day is accepted. */
export async function dayAccepted(deps: MakerDeps, brandId: string, date: string): Promise<boolean> {
  return allAccepted(await filesOf(deps, brandId, date));
}
