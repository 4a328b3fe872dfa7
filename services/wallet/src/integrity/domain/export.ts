// The suspicious-betting export (issue #60 item 3; docs/games.md, "Integrity holds"): the slips our
// compliance team held, by event (a multiple's slip under each of its legs' events), each with the
// reason and the evidence, the decision, and the articles the export answers to with their public
// links. JSON (the report) or CSV (one line per slip and event, SUSPICIOUS_BETTING_CSV_COLUMNS).
import {
  INTEGRITY_LEGAL_BASIS,
  SUSPICIOUS_BETTING_CSV_COLUMNS,
  type BetSlip,
  type Environment,
  type FileChunk,
  type IntegrityHoldStatus,
  type SuspiciousBettingReport,
} from '@bo/contracts';
import { formatMoney, isoTime } from '@bo/service-kit';

/** One held slip under one of its events, as the store reads it. */
export interface SuspiciousLine {
  sport: string;
  event: string;
  eventStartsAt: string | null;
  market: string;
  selection: string;
  odds: string;
  holdId: string;
  providerId: string;
  roundId: string;
  operatorId: string;
  brandId: string;
  environment: Environment;
  playerId: string;
  currency: string;
  staked: string;
  placedAt: Date | string;
  slip: BetSlip | null;
  heldAmount: string;
  holdStatus: IntegrityHoldStatus;
  reason: string;
  evidence: string | null;
  heldBy: string;
  heldAt: Date | string;
  decidedBy: string | null;
  decidedAt: Date | string | null;
  decisionReason: string | null;
}

const iso = (d: Date | string | null) => (d === null ? null : isoTime(d));

/** The report: the lines grouped by event, in the order read (by the event's start). */
export function suspiciousBettingReport(lines: SuspiciousLine[], range: { from: Date; to: Date }, now = new Date()): SuspiciousBettingReport {
  const events = new Map<string, SuspiciousBettingReport['events'][number]>();
  for (const l of lines) {
    const startsAt = l.eventStartsAt ?? '';
    const key = JSON.stringify([startsAt, l.sport, l.event]);
    let e = events.get(key);
    if (!e) {
      e = { sport: l.sport, event: l.event, eventStartsAt: startsAt === '' ? isoTime(l.placedAt) : isoTime(startsAt), slips: [] };
      events.set(key, e);
    }
    e.slips.push({
      holdId: l.holdId,
      providerId: l.providerId,
      roundId: l.roundId,
      operatorId: l.operatorId,
      brandId: l.brandId,
      environment: l.environment,
      playerId: l.playerId,
      currency: l.currency,
      staked: formatMoney(l.staked),
      placedAt: isoTime(l.placedAt),
      market: l.market,
      selection: l.selection,
      odds: l.odds,
      slip: l.slip,
      heldAmount: formatMoney(l.heldAmount),
      holdStatus: l.holdStatus,
      reason: l.reason,
      evidence: l.evidence,
      heldBy: l.heldBy,
      heldAt: isoTime(l.heldAt),
      decidedBy: l.decidedBy,
      decidedAt: iso(l.decidedAt),
      decisionReason: l.decisionReason,
    });
  }
  return {
    from: range.from.toISOString(),
    to: range.to.toISOString(),
    generatedAt: now.toISOString(),
    legalBasis: INTEGRITY_LEGAL_BASIS,
    events: [...events.values()],
  };
}

/** A CSV field: quoted when it holds a quote, a delimiter or a line break; a leading =, +, - or @ is neutralised (a spreadsheet formula). */
function csvField(v: string | null): string {
  if (v === null) return '';
  const safe = /^[=+\-@]/.test(v) && !/^-?[0-9]/.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export function suspiciousBettingCsv(report: SuspiciousBettingReport): string {
  const rows: string[] = [SUSPICIOUS_BETTING_CSV_COLUMNS.join(',')];
  for (const e of report.events) {
    for (const s of e.slips) {
      const values: (string | null)[] = [
        e.sport,
        e.event,
        e.eventStartsAt,
        s.holdId,
        s.providerId,
        s.roundId,
        s.operatorId,
        s.brandId,
        s.environment,
        s.playerId,
        s.currency,
        s.staked,
        s.placedAt,
        s.market,
        s.selection,
        s.odds,
        s.heldAmount,
        s.holdStatus,
        s.reason,
        s.evidence,
        s.heldBy,
        s.heldAt,
        s.decidedBy,
        s.decidedAt,
        s.decisionReason,
      ];
      rows.push(values.map(csvField).join(','));
    }
  }
  // The articles, after the lines, as comment lines a reader of the file sees (a CSV has no other place for them).
  for (const b of report.legalBasis) rows.push(`# ${b.reference}, ${b.article}: ${b.url}`);
  return `${rows.join('\r\n')}\r\n`;
}

/** The export as one file chunk (the gateway streams it: `download`). */
export function suspiciousBettingFile(lines: SuspiciousLine[], o: { from: Date; to: Date; format: 'json' | 'csv' }): FileChunk {
  const report = suspiciousBettingReport(lines, o);
  const day = (d: Date) => d.toISOString().slice(0, 10);
  const name = `suspicious-betting_${day(o.from)}_${day(o.to)}`;
  return o.format === 'csv'
    ? { filename: `${name}.csv`, contentType: 'text/csv; charset=utf-8', chunk: suspiciousBettingCsv(report), nextCursor: null }
    : { filename: `${name}.json`, contentType: 'application/json', chunk: JSON.stringify(report), nextCursor: null };
}
