// Making a brand's daily regulator file, once, for a day that is over in its time zone, and keeping
// it (compliance.daily_reports: the ledger part; compliance.daily_file_lines: the line items).
// Each part is asked of the service that owns it, page by page (every answer stays far below the
// NATS payload limit):
//   - accounts: the wallet's ledger part (wallet.ledgerDay), each player account's opening and
//     closing balances and the day's movements by type;
//   - deposits, withdrawals, rounds: which money moved on the day, entry by entry, from the
//     wallet's ledger (wallet.regulator.moves: its times decide the day, so the items add up to
//     the ledger part), each deposit and withdrawal completed with payments' record of it
//     (payments.regulator.records);
//   - provider_transactions: third-party providers' bets, wins, rollbacks and corrections, one
//     line each with the provider, game code, round and a sports bet's slip
//     (wallet.regulator.providerMoves, at their ledger entries' times);
//   - status changes and bettors: from players (players.regulator.statusChanges, .bettors): the
//     bettors registered or changed that day, then those who moved money or played that day.
// The header row is written first (the ledger part, as before) and marked made only once every
// line is kept; lines are keyed by what they describe, so two makers at once (replicas, a job
// and a request) or a maker that died half-way and is run again keep each line once.
import {
  REGULATOR_IDS_PER_ASK,
  regulatorFileMessages,
  regulatorProviderMessages,
  walletLedgerDayMessages,
  type DailyFileCounts,
  type LedgerDayAccount,
  type PaymentsDepositRecord,
  type PaymentsWithdrawalRecord,
  type RegulatorBettor,
  type RegulatorDeposit,
  type RegulatorProviderTransaction,
  type RegulatorRound,
  type RegulatorStatusChange,
  type RegulatorWithdrawal,
  type WalletMove,
  validationError,
} from '@bo/contracts';
import { isoTime, type ServiceDeps, type SqlRunner } from '@bo/service-kit';
import { dayBounds } from '../domain/daily-file.ts';
import { keepHeader, keepLines, keptFile, lineCounts, markLinesMade, type FileRow, type Line, type LinePart } from '../store/daily-files.ts';
import type { BrandZone } from './brand-zone.ts';

export type MakerDeps = Pick<ServiceDeps, 'sql' | 'call'>;

const PAGE = 1000;

/** The ledger part: every player account of the brand over [from, to), asked a page at a time. */
export async function ledgerOf(deps: MakerDeps, brandId: string, from: string | Date, to: string | Date): Promise<LedgerDayAccount[]> {
  const accounts: LedgerDayAccount[] = [];
  let after: unknown;
  do {
    const page = await deps.call<{ accounts: LedgerDayAccount[]; next?: unknown }>(walletLedgerDayMessages.ledgerDay.subject, {
      brandId,
      from: isoTime(from),
      to: isoTime(to),
      limit: PAGE,
      ...(after ? { after } : {}),
    });
    accounts.push(...page.accounts);
    after = page.next;
  } while (after);
  return accounts;
}

const keep = (deps: MakerDeps, brandId: string, date: string, lines: Line[]) => keepLines(deps.sql, brandId, date, lines);

const inChunks = <T>(items: T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

/** The lines of one page of the ledger's moves, deposits and withdrawals completed with payments' records. */
async function moneyLines(deps: MakerDeps, brandId: string, moves: WalletMove[]): Promise<Line[]> {
  const deposits = new Map<string, PaymentsDepositRecord>();
  const withdrawals = new Map<string, PaymentsWithdrawalRecord>();
  const depositIds = moves.filter((m) => m.kind === 'deposit').map((m) => m.reference);
  const withdrawalIds = moves.filter((m) => m.kind === 'withdrawal').map((m) => m.reference);
  const asks = Math.max(Math.ceil(depositIds.length / REGULATOR_IDS_PER_ASK), Math.ceil(withdrawalIds.length / REGULATOR_IDS_PER_ASK));
  for (let i = 0; i < asks; i++) {
    const slice = (ids: string[]) => ids.slice(i * REGULATOR_IDS_PER_ASK, (i + 1) * REGULATOR_IDS_PER_ASK);
    const found = await deps.call<{ deposits: PaymentsDepositRecord[]; withdrawals: PaymentsWithdrawalRecord[] }>(regulatorFileMessages.records.subject, {
      brandId,
      depositIds: slice(depositIds),
      withdrawalIds: slice(withdrawalIds),
    });
    for (const d of found.deposits) deposits.set(d.depositId, d);
    for (const w of found.withdrawals) withdrawals.set(w.withdrawalId, w);
  }
  return moves.map((m): Line => {
    if (m.kind === 'deposit') {
      const d = deposits.get(m.reference);
      const data: RegulatorDeposit = {
        depositId: m.reference,
        playerId: m.playerId,
        // Payments' amount when it has the record: the check then compares it with the ledger's.
        amount: d?.amount ?? m.amount,
        currency: m.currency,
        method: d?.method ?? null,
        externalReference: d?.externalReference ?? null,
        payerCpf: d?.payerCpf ?? null,
        status: d?.status ?? null,
        createdAt: d?.createdAt ?? null,
        confirmedAt: d?.confirmedAt ?? null,
        bookedAt: m.at,
      };
      return { part: 'deposits', ref: m.reference, player_id: m.playerId, at: m.at, data };
    }
    if (m.kind === 'withdrawal') {
      const w = withdrawals.get(m.reference);
      const data: RegulatorWithdrawal = {
        withdrawalId: m.reference,
        playerId: m.playerId,
        amount: w?.amount ?? m.amount,
        currency: m.currency,
        method: w?.method ?? null,
        destination: w?.destination ?? null,
        status: w?.status ?? null,
        requestedAt: w?.requestedAt ?? null,
        paidAt: m.at,
      };
      return { part: 'withdrawals', ref: m.reference, player_id: m.playerId, at: m.at, data };
    }
    const data: RegulatorRound = {
      roundId: m.reference,
      sessionId: m.sessionId ?? '',
      playerId: m.playerId,
      gameId: m.gameId ?? '',
      currency: m.currency,
      amount: m.amount,
      payout: m.payout ?? '0.00',
      at: m.at,
    };
    return { part: 'rounds', ref: m.reference, player_id: m.playerId, at: m.at, data };
  });
}

const bettorLine = (b: RegulatorBettor): Line => ({ part: 'bettors', ref: b.playerId, player_id: b.playerId, at: b.registeredAt, data: b });

/** Every line item of the day, kept. */
async function makeLines(deps: MakerDeps, brandId: string, date: string, from: string, to: string): Promise<void> {
  const window = { brandId, from, to, limit: PAGE };
  const movers = new Set<string>();
  let after: unknown;
  do {
    const page = await deps.call<{ data: WalletMove[]; next: unknown }>(regulatorFileMessages.moves.subject, { ...window, ...(after ? { after } : {}) });
    for (const m of page.data) movers.add(m.playerId);
    await keep(deps, brandId, date, await moneyLines(deps, brandId, page.data));
    after = page.next;
  } while (after);

  after = undefined;
  do {
    const page = await deps.call<{ data: RegulatorProviderTransaction[]; next: unknown }>(regulatorProviderMessages.providerMoves.subject, {
      ...window,
      ...(after ? { after } : {}),
    });
    for (const m of page.data) movers.add(m.playerId);
    await keep(
      deps,
      brandId,
      date,
      page.data.map((m) => ({ part: 'provider_transactions', ref: m.id, player_id: m.playerId, at: m.at, data: m })),
    );
    after = page.next;
  } while (after);

  after = undefined;
  do {
    const page = await deps.call<{ data: RegulatorStatusChange[]; next: unknown }>(regulatorFileMessages.statusChanges.subject, {
      ...window,
      ...(after ? { after } : {}),
    });
    await keep(
      deps,
      brandId,
      date,
      page.data.map((c) => ({ part: 'status_changes', ref: c.changeId, player_id: c.playerId, at: c.at, data: c })),
    );
    after = page.next;
  } while (after);

  const described = new Set<string>();
  let afterId: string | null = null;
  do {
    const page: { data: RegulatorBettor[]; next: string | null } = await deps.call(regulatorFileMessages.bettors.subject, {
      ...window,
      ...(afterId ? { after: afterId } : {}),
    });
    for (const b of page.data) described.add(b.playerId);
    await keep(deps, brandId, date, page.data.map(bettorLine));
    afterId = page.next;
  } while (afterId);
  for (const ids of inChunks(
    [...movers].filter((id) => !described.has(id)),
    REGULATOR_IDS_PER_ASK,
  )) {
    const page = await deps.call<{ data: RegulatorBettor[] }>(regulatorFileMessages.bettors.subject, { ...window, playerIds: ids });
    await keep(deps, brandId, date, page.data.map(bettorLine));
  }
}

/** How many lines each part holds now. */
export async function countsOf(deps: MakerDeps, row: Pick<FileRow, 'brand_id' | 'date' | 'accounts'>): Promise<DailyFileCounts> {
  const counts = await lineCounts(deps.sql, row.brand_id, row.date);
  const n = (part: LinePart) => counts.get(part) ?? 0;
  return {
    bettors: n('bettors'),
    accounts: row.accounts.length,
    deposits: n('deposits'),
    withdrawals: n('withdrawals'),
    rounds: n('rounds'),
    provider_transactions: n('provider_transactions'),
    status_changes: n('status_changes'),
  };
}

/**
 * The kept file of a brand's day, made now if the day is over and it was not made (or holds the
 * ledger part only). `zone` is asked only when the file is new; a kept file keeps its own.
 */
/**
 * The brand's day as kept, its lines made, for a reader that never makes one: a read-only role (the
 * regulator, issue #69) reads what the system made, and a day it has not made yet is a 422 at `where`.
 */
export async function madeFileOnly(sql: SqlRunner, brandId: string, date: string, where: 'path' | 'query'): Promise<FileRow> {
  const found = await keptFile(sql, brandId, date);
  if (!found?.lines_made_at)
    throw validationError(where, [
      { path: '/date', message: "no file is kept for this day yet: the system makes it once the day is over in the brand's time zone" },
    ]);
  return found;
}

export async function ensureFile(
  deps: MakerDeps,
  brandId: string,
  date: string,
  zone: () => Promise<BrandZone>,
  now: Date,
): Promise<{ row: FileRow; made: boolean } | { notOver: true }> {
  const found = await keptFile(deps.sql, brandId, date);
  if (found?.lines_made_at) return { row: found, made: false };
  if (!found) {
    const z = await zone();
    const { from, to } = dayBounds(date, z.timeZone);
    if (to.getTime() > now.getTime()) return { notOver: true };
    const accounts = await ledgerOf(deps, brandId, from, to);
    await keepHeader(deps.sql, {
      brandId,
      date,
      timeZone: z.timeZone,
      source: z.source,
      operatorId: z.operatorId,
      environment: z.environment,
      from,
      to,
      now,
      accounts,
    });
  }
  const header = (await keptFile(deps.sql, brandId, date))!;
  if (header.lines_made_at) return { row: header, made: false };
  await makeLines(deps, brandId, date, isoTime(header.from), isoTime(header.to));
  await markLinesMade(deps.sql, brandId, date, now, await countsOf(deps, header));
  return { row: (await keptFile(deps.sql, brandId, date))!, made: true };
}
