// The money and the records of integrity holds (issue #60 item 3; docs/games.md, "Integrity holds").
// Every transaction here locks in one order: the slip's round row, then the hold's row, then (a
// release) the player's account, so a held win, a decision and a placement never deadlock.
//   held win   the brand's clearing account with the provider −amount, integrity-hold +amount (INTEGRITY_HOLD)
//   release    integrity-hold −held, the player +held                                     (INTEGRITY_RELEASE)
//   forfeit    integrity-hold −held, the brand's forfeited-prizes account +held           (INTEGRITY_FORFEIT)
// A held win also writes the provider's transaction row (moved 0.00: nothing reached the player,
// so the provider's retry is answered the same) and counts on the round (`wins`), which stays open
// while held: the player and the operator see a slip awaiting its settlement, as any other.
import { AppError, newId, type Environment, type IntegrityHold, type IntegrityHoldStatus } from '@bo/contracts';
import { crashPoint, formatMoney, isoTime, subMoney, type ListPosition, type SqlRunner } from '@bo/service-kit';
import { clearingAccountId, lockAccountById, playerAccountId, postTransaction } from '../../ledger/index.ts';
import type { SuspiciousLine } from '../domain/export.ts';

export interface HoldRow {
  id: string;
  providerId: string;
  roundId: string;
  operatorId: string;
  brandId: string;
  environment: Environment;
  playerId: string;
  currency: string;
  status: IntegrityHoldStatus;
  reason: string;
  evidence: string | null;
  placedBy: string;
  placedById: string;
  placedAt: Date | string;
  decidedBy: string | null;
  decidedAt: Date | string | null;
  decisionReason: string | null;
  heldAmount: string;
  heldWins: string | number;
  eventEndedAt: Date | string | null;
  prizeDueAt: Date | string | null;
  pausedAt: Date | string | null;
  arrivedOnTime: boolean | null;
}

const HOLD_COLUMNS = `h.id, h.provider_id as "providerId", h.round_id as "roundId", h.operator_id as "operatorId", h.brand_id as "brandId",
  h.environment, h.player_id as "playerId", h.currency, h.status, h.reason, h.evidence, h.placed_by as "placedBy", h.placed_by_id as "placedById",
  h.placed_at as "placedAt", h.decided_by as "decidedBy", h.decided_at as "decidedAt", h.decision_reason as "decisionReason",
  coalesce((select sum(w.amount) from wallet.integrity_held_wins w where w.hold_id = h.id), 0)::text as "heldAmount",
  (select count(*) from wallet.integrity_held_wins w where w.hold_id = h.id) as "heldWins",
  f.event_ended_at as "eventEndedAt", f.prize_due_at as "prizeDueAt", f.held_at as "pausedAt", f.arrived_on_time as "arrivedOnTime"`;
/** The first held win of the hold: its prize clock is the one the hold shows. */
const FIRST_WIN = `left join lateral (select * from wallet.integrity_held_wins w where w.hold_id = h.id order by w.held_at, w.transaction_id limit 1) f on true`;

const iso = (d: Date | string | null) => (d === null ? null : isoTime(d));

export const toIntegrityHold = (r: HoldRow): IntegrityHold => ({
  id: r.id,
  providerId: r.providerId,
  roundId: r.roundId,
  operatorId: r.operatorId,
  brandId: r.brandId,
  environment: r.environment,
  playerId: r.playerId,
  currency: r.currency,
  status: r.status,
  reason: r.reason,
  evidence: r.evidence,
  placedBy: r.placedBy,
  placedAt: isoTime(r.placedAt),
  heldAmount: formatMoney(r.heldAmount),
  heldWins: Number(r.heldWins),
  prizeClock:
    r.pausedAt === null
      ? null
      : {
          eventEndedAt: iso(r.eventEndedAt),
          dueAt: iso(r.prizeDueAt),
          pausedAt: isoTime(r.pausedAt),
          pauseReason: 'integrity_hold',
          arrivedOnTime: r.arrivedOnTime,
          resumedAt: iso(r.decidedAt),
        },
  decidedBy: r.decidedBy,
  decidedAt: iso(r.decidedAt),
  decisionReason: r.decisionReason,
});

export async function findHold(sql: SqlRunner, id: string, lock = false): Promise<HoldRow | undefined> {
  const [row] = await sql.query<HoldRow>(`select ${HOLD_COLUMNS} from wallet.integrity_holds h ${FIRST_WIN} where h.id = ?${lock ? ' for update of h' : ''}`, [
    id,
  ]);
  return row;
}

interface RoundLock {
  status: string;
  kind: string;
  operator_id: string;
  brand_id: string;
  environment: Environment;
  player_id: string;
  currency: string;
  integrity_hold_id: string | null;
}

const lockRound = async (tx: SqlRunner, providerId: string, roundId: string) =>
  (
    await tx.query<RoundLock>(
      `select status, kind, operator_id, brand_id, environment, player_id, currency, integrity_hold_id
         from wallet.provider_rounds where provider_id = ? and round_id = ? for update`,
      [providerId, roundId],
    )
  )[0];

const conflict = (reason: string, extra: Record<string, unknown> = {}) => new AppError('INTEGRITY_HOLD_CONFLICT', undefined, { reason, ...extra });

/** Places a hold on an open sports slip (its round row locked): the slip's next wins go to the hold account. */
export async function placeHold(
  tx: SqlRunner,
  h: { providerId: string; roundId: string; reason: string; evidence?: string; placedBy: string; placedById: string },
): Promise<HoldRow> {
  const round = await lockRound(tx, h.providerId, h.roundId);
  if (round?.kind !== 'sports') throw new AppError('ROUND_NOT_FOUND', 'No sports bet slip of this provider has this round id.', { roundId: h.roundId });
  if (round.integrity_hold_id) throw conflict('already_held', { holdId: round.integrity_hold_id });
  // A slip settled (its prize paid) or voided has nothing left to hold.
  if (round.status !== 'open') throw conflict('slip_not_open', { status: round.status });
  const id = newId('integrityHold');
  await tx.query(
    `insert into wallet.integrity_holds (id, provider_id, round_id, operator_id, brand_id, environment, player_id, currency, reason, evidence,
                                         placed_by, placed_by_id, placed_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, date_trunc('milliseconds', clock_timestamp()))`,
    [
      id,
      h.providerId,
      h.roundId,
      round.operator_id,
      round.brand_id,
      round.environment,
      round.player_id,
      round.currency,
      h.reason,
      h.evidence ?? null,
      h.placedBy,
      h.placedById,
    ],
  );
  await tx.query('update wallet.provider_rounds set integrity_hold_id = ? where provider_id = ? and round_id = ?', [id, h.providerId, h.roundId]);
  return (await findHold(tx, id))!;
}

/** A provider's win of a slip, as the win path read it (the providers module's CreditPosting, in the part this needs). */
export interface WinOfSlip {
  id: string;
  providerId: string;
  environment: Environment;
  transactionId: string;
  roundId: string;
  betTransactionId?: string;
  brandId: string;
  playerId: string;
  currency: string;
  requested: string;
  amount: string;
  roundClosed?: boolean;
  outcome?: string | null;
  clearingAccountId: string;
  prizeClock?: { eventEndedAt: Date; dueAt: Date };
}

/** The hold on the slip's round, if any (one indexed read: most slips are never held). */
export async function holdIdOfRound(sql: SqlRunner, providerId: string, roundId: string): Promise<string | null> {
  const [round] = await sql.query<{ integrity_hold_id: string | null }>(
    'select integrity_hold_id from wallet.provider_rounds where provider_id = ? and round_id = ?',
    [providerId, roundId],
  );
  return round?.integrity_hold_id ?? null;
}

export type HeldWin = { held: true; balanceAfter: string; createdAt: Date } | { held: false; taken?: true };

/**
 * Keeps a win of a held slip on the hold account (one transaction). `held: false` when the slip is
 * not held (the win path goes on as usual) or (`taken`) this transaction id was taken meanwhile.
 */
export async function postHeldWin(tx: SqlRunner, w: WinOfSlip, holdAccountId: string): Promise<HeldWin> {
  const round = await lockRound(tx, w.providerId, w.roundId);
  if (!round?.integrity_hold_id || round.status !== 'open' || round.player_id !== w.playerId) return { held: false };
  const holdId = round.integrity_hold_id;
  const [hold] = await tx.query<{ status: string }>('select status from wallet.integrity_holds where id = ? for update', [holdId]);
  if (hold?.status !== 'held') return { held: false };
  const [taken] = await tx.query('select 1 from wallet.provider_transactions where provider_id = ? and transaction_id = ?', [w.providerId, w.transactionId]);
  if (taken) return { held: false, taken: true };
  const amount = formatMoney(w.amount);
  const posted = await postTransaction(tx, {
    source: `integrity-hold:${w.providerId}:${w.transactionId}`,
    type: 'INTEGRITY_HOLD',
    brandId: w.brandId,
    currency: w.currency,
    referenceId: holdId,
    postings: [
      { clearingAccountId: w.clearingAccountId, amount: formatMoney(subMoney(0, amount)) },
      { clearingAccountId: holdAccountId, amount },
    ],
  });
  const [row] = await tx.query<{ at: Date; balance: string }>(
    `with a as materialized (select date_trunc('milliseconds', clock_timestamp()) as at,
                                    coalesce((select available - held from wallet.accounts where id = ?), 0) as balance),
     x as (insert into wallet.provider_transactions (environment, provider_id, transaction_id, id, kind, round_id, bet_transaction_id, brand_id,
                                                    player_id, currency, requested, moved, balance_after, entry_id, created_at)
           select ?, ?, ?, ?, 'win', ?, ?, ?, ?, ?, ?::numeric, 0, a.balance, null, a.at from a returning 1),
     r as (update wallet.provider_rounds set wins = wins + 1 where provider_id = ? and round_id = ? returning 1),
     w as (insert into wallet.integrity_held_wins (provider_id, transaction_id, hold_id, provider_transaction_id, amount, round_closed, outcome,
                                                   event_ended_at, prize_due_at, arrived_on_time, held_at, hold_transaction_id)
           select ?, ?, ?, ?, ?::numeric, ?, ?, ?::timestamptz, ?::timestamptz,
                  case when ?::timestamptz is null then null else a.at <= ?::timestamptz end, a.at, ? from a returning 1)
     select a.at, a.balance from a`,
    [
      playerAccountId(w.brandId, w.playerId, w.currency),
      w.environment,
      w.providerId,
      w.transactionId,
      w.id,
      w.roundId,
      w.betTransactionId ?? null,
      w.brandId,
      w.playerId,
      w.currency,
      formatMoney(w.requested),
      w.providerId,
      w.roundId,
      w.providerId,
      w.transactionId,
      holdId,
      w.id,
      amount,
      w.roundClosed ?? true,
      w.outcome ?? null,
      w.prizeClock?.eventEndedAt ?? null,
      w.prizeClock?.dueAt ?? null,
      w.prizeClock?.dueAt ?? null,
      w.prizeClock?.dueAt ?? null,
      posted.id,
    ],
  );
  return { held: true, balanceAfter: formatMoney(row!.balance), createdAt: row!.at };
}

export type Decision = 'released' | 'forfeited';

/**
 * Releases or forfeits a hold (its round, the hold and the player's account locked in that order):
 * the held wins move once, to the player or to the brand's forfeited-prizes account; the slip then
 * settles as its held wins said (with its `sports_bet.settled` event) and is no longer held.
 * `before` is the hold as it was; a second decision finds it decided (409), whoever asks.
 */
export async function decideHold(
  tx: SqlRunner,
  id: string,
  d: { decision: Decision; reason: string; decidedBy: string; decidedById: string },
): Promise<{ before: HoldRow; after: HoldRow; repeated: boolean }> {
  const seen = await findHold(tx, id);
  if (!seen) throw new AppError('INTEGRITY_HOLD_NOT_FOUND');
  await lockRound(tx, seen.providerId, seen.roundId);
  const before = (await findHold(tx, id, true))!;
  if (before.status !== 'held') {
    // The same decision asked again by the person who took it (a retry after a lost answer): its answer; nothing moves again.
    const [by] = await tx.query<{ decided_by_id: string }>('select decided_by_id from wallet.integrity_holds where id = ?', [id]);
    if (before.status === d.decision && by?.decided_by_id === d.decidedById) return { before, after: before, repeated: true };
    throw conflict('decided', { status: before.status });
  }
  // Four eyes: people are compared (a person's session and token are one id), never names.
  if (before.placedById === d.decidedById) {
    throw new AppError('FOUR_EYES_REQUIRED', 'You placed this integrity hold: another person releases or forfeits it.');
  }
  const wins = await tx.query<{ amount: string; round_closed: boolean; outcome: string | null }>(
    'select amount, round_closed, outcome from wallet.integrity_held_wins where hold_id = ? order by held_at, transaction_id',
    [id],
  );
  const held = formatMoney(before.heldAmount);
  if (d.decision === 'forfeited' && wins.length === 0) throw conflict('nothing_held');
  let transactionId: string | null = null;
  if (wins.length > 0) {
    const holdAccount = clearingAccountId(before.brandId, 'integrity_hold', before.currency);
    const other =
      d.decision === 'released'
        ? { account: await lockAccountById(tx, playerAccountId(before.brandId, before.playerId, before.currency)), amount: held }
        : { clearingAccountId: clearingAccountId(before.brandId, 'integrity_forfeited', before.currency), amount: held };
    const posted = await postTransaction(tx, {
      source: `integrity-${d.decision === 'released' ? 'release' : 'forfeit'}:${id}`,
      type: d.decision === 'released' ? 'INTEGRITY_RELEASE' : 'INTEGRITY_FORFEIT',
      brandId: before.brandId,
      currency: before.currency,
      referenceId: id,
      postings: [{ clearingAccountId: holdAccount, amount: formatMoney(subMoney(0, held)) }, other],
    });
    transactionId = posted.id;
  }
  // The slip settles as its held wins said: closed by one of them, with the last outcome given.
  const closes = wins.some((w) => w.round_closed);
  const outcome = [...wins].reverse().find((w) => w.outcome !== null)?.outcome ?? null;
  const event = settledEvent();
  await tx.query(
    `with r as (update wallet.provider_rounds set integrity_hold_id = null, won = won + ?::numeric,
                  status = case when ?::boolean then 'settled' else status end,
                  closed_at = case when ?::boolean then date_trunc('milliseconds', clock_timestamp()) else closed_at end,
                  outcome = coalesce(?::text, outcome)
                where provider_id = ? and round_id = ? returning *)
     ${event.text}`,
    [d.decision === 'released' ? held : '0.00', closes, closes, outcome, before.providerId, before.roundId, ...event.params],
  );
  await tx.query(
    `update wallet.integrity_holds set status = ?, decided_by = ?, decided_by_id = ?, decided_at = date_trunc('milliseconds', clock_timestamp()),
            decision_reason = ?, decision_transaction_id = ? where id = ?`,
    [d.decision, d.decidedBy, d.decidedById, d.reason, transactionId, id],
  );
  crashPoint(`wallet.integrity.${d.decision}.before-commit`);
  return { before, after: (await findHold(tx, id))!, repeated: false };
}

// ---- the `sports_bet.settled` event of a slip settled by a decision ----
// The same event, made the same way, as the providers module's store/sports-events.ts writes with
// a win (that module imports this one, so this one cannot import it back): from `r`, the round as
// the decision left it, only when it is a sports bet no longer open.
const UTC_MS = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;
function settledEvent(): { text: string; params: unknown[] } {
  const eventId = newId('event');
  const text = `insert into wallet.outbox (event_id, subject_type, environment, operator_id, brand_id, payload)
           select ?, 'sports_bet.settled', r.environment, r.operator_id, r.brand_id,
                  jsonb_build_object('id', ?::text, 'type', 'sports_bet.settled',
                    'createdAt', to_char(clock_timestamp() at time zone 'UTC', ${UTC_MS}), 'environment', r.environment,
                    'data', jsonb_build_object('playerId', r.player_id, 'providerId', r.provider_id, 'betId', r.round_id,
                      'gameCode', coalesce((select g.game_code from wallet.games g where g.id = r.game_id), ''), 'currency', r.currency,
                      'status', r.status, 'outcome', r.outcome, 'staked', r.staked::text, 'won', r.won::text, 'slip', r.slip,
                      'settledAt', to_char(r.closed_at at time zone 'UTC', ${UTC_MS})))::text
           from r where r.kind = 'sports' and r.status <> 'open'`;
  return { text, params: [eventId, eventId] };
}

// ---- our team's lists ----

export async function listHolds(
  sql: SqlRunner,
  f: { status?: IntegrityHoldStatus; brandId?: string; playerId?: string },
  limit: number,
  after?: ListPosition,
): Promise<HoldRow[]> {
  return sql.query<HoldRow>(
    `select ${HOLD_COLUMNS} from wallet.integrity_holds h ${FIRST_WIN}
      where (?::text is null or h.status = ?) and (?::text is null or h.brand_id = ?) and (?::text is null or h.player_id = ?)
        and (h.placed_at, h.id) < (?::timestamptz, ?)
      order by h.placed_at desc, h.id desc limit ?`,
    [
      f.status ?? null,
      f.status ?? null,
      f.brandId ?? null,
      f.brandId ?? null,
      f.playerId ?? null,
      f.playerId ?? null,
      after?.at ?? 'infinity',
      after?.id ?? '',
      limit + 1,
    ],
  );
}
export const holdPosition = (r: HoldRow): ListPosition => ({ at: isoTime(r.placedAt), id: r.id });

// ---- the suspicious-betting export ----

/** At most this many lines in one export (a single file chunk): narrow the range for more. */
export const EXPORT_MAX_LINES = 2000;

/** The holds placed in [from, to) as one line per slip and event (a multiple's legs each under its event), by event. */
export async function suspiciousLines(sql: SqlRunner, f: { from: Date; to: Date; brandId?: string }): Promise<SuspiciousLine[]> {
  return sql.query<SuspiciousLine>(
    `select l.leg->>'sport' as sport, l.leg->>'event' as event, l.leg->>'eventStartsAt' as "eventStartsAt", l.leg->>'market' as market,
            l.leg->>'selection' as selection, l.leg->>'odds' as odds,
            h.id as "holdId", h.provider_id as "providerId", h.round_id as "roundId", h.operator_id as "operatorId", h.brand_id as "brandId",
            h.environment, h.player_id as "playerId", h.currency, r.staked::text as staked, r.opened_at as "placedAt", r.slip,
            coalesce((select sum(w.amount) from wallet.integrity_held_wins w where w.hold_id = h.id), 0)::text as "heldAmount",
            h.status as "holdStatus", h.reason, h.evidence, h.placed_by as "heldBy", h.placed_at as "heldAt",
            h.decided_by as "decidedBy", h.decided_at as "decidedAt", h.decision_reason as "decisionReason"
       from wallet.integrity_holds h
       join wallet.provider_rounds r on r.provider_id = h.provider_id and r.round_id = h.round_id
       cross join lateral jsonb_array_elements(case when jsonb_typeof(r.slip->'legs') = 'array' then r.slip->'legs'
                                                   when r.slip is not null then jsonb_build_array(r.slip)
                                                   else jsonb_build_array(jsonb_build_object('sport', '', 'event', '', 'eventStartsAt', null,
                                                                          'market', '', 'selection', '', 'odds', '')) end) as l(leg)
      where h.placed_at >= ? and h.placed_at < ? and (?::text is null or h.brand_id = ?)
      order by l.leg->>'eventStartsAt', l.leg->>'sport', l.leg->>'event', h.placed_at, h.id
      limit ?`,
    [f.from, f.to, f.brandId ?? null, f.brandId ?? null, EXPORT_MAX_LINES + 1],
  );
}
