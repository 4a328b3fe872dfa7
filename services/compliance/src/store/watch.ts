// The watch's statements (the kit's plain `sql`: they run for every money event of a br-spa
// operator): record an event once, read a player's history, open or join the player's case with
// a rule's evidence, raise the player's risk level.
import type { AmlRule, AmlThresholds, Environment, RiskLevel } from '@bo/contracts';
import { newId } from '@bo/contracts';
import type { SqlRunner } from '@bo/service-kit';
import { higherRisk, riskOfRule, type MoneyEvent, type RuleHit, type VelocityWindow } from '../domain/rules.ts';
import { thresholdsOf } from '../domain/thresholds.ts';
import { caseAmountSql } from './case-amount.ts';

const S = 'compliance';
const DAY = 86_400_000;

export interface PlayerRef {
  operatorId: string;
  brandId: string;
  environment: Environment;
  playerId: string;
}

/** An event to record for a player (what lockAndRecordWatched and its batch form take). */
export type WatchedRecord = { p: PlayerRef; e: MoneyEvent | (Omit<MoneyEvent, 'kind'> & { kind: 'failed_deposit' }) };

/**
 * Takes the watch locks of the players (serialising the watch's work on one player across
 * replicas, until the transaction ends; taken in key order, so two replicas' batches cannot
 * deadlock) and records the events, each deduped on its id, in one statement. Returns the ids
 * recorded now: an id missing was recorded already (a redelivery). The statements after it see
 * what committed before the locks.
 */
export async function lockAndRecordWatchedMany(tx: SqlRunner, records: readonly WatchedRecord[]): Promise<Set<string>> {
  const col = <T>(f: (r: WatchedRecord) => T) => records.map(f);
  const rows = await tx.query<{ event_id: string }>(
    `with locked as (
       select count(pg_advisory_xact_lock(k)) as n
         from (select distinct hashtextextended(b || '/' || p, 0) as k from unnest(?::text[], ?::text[]) as l(b, p) order by 1 offset 0) keys)
     insert into ${S}.watched_money (event_id, operator_id, brand_id, environment, player_id, kind, reference, amount, destination, occurred_at)
     select r.* from unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::numeric[], ?::text[], ?::timestamptz[]) as r, locked
     on conflict (event_id) do nothing returning event_id`,
    [
      col((r) => r.p.brandId),
      col((r) => r.p.playerId),
      col((r) => r.e.eventId),
      col((r) => r.p.operatorId),
      col((r) => r.p.brandId),
      col((r) => r.p.environment),
      col((r) => r.p.playerId),
      col((r) => r.e.kind),
      col((r) => r.e.reference),
      col((r) => r.e.amount),
      col((r) => r.e.destination),
      col((r) => r.e.at),
    ],
  );
  return new Set(rows.map((r) => r.event_id));
}

/** lockAndRecordWatchedMany for one event: false when it was recorded already (a redelivery). */
export async function lockAndRecordWatched(tx: SqlRunner, p: PlayerRef, e: WatchedRecord['e']): Promise<boolean> {
  return (await lockAndRecordWatchedMany(tx, [{ p, e }])).size === 1;
}

/** The player's deposits and withdrawals since `since`, oldest first. */
export async function playerHistory(tx: SqlRunner, brandId: string, playerId: string, since: Date): Promise<MoneyEvent[]> {
  const rows = await tx.query<{
    event_id: string;
    kind: 'deposit' | 'withdrawal';
    reference: string;
    amount: string;
    destination: string | null;
    occurred_at: Date;
  }>(
    `select event_id, kind, reference, amount::text as amount, destination, occurred_at from ${S}.watched_money
     where brand_id = ? and player_id = ? and kind in ('deposit', 'withdrawal') and occurred_at >= ? order by occurred_at, event_id`,
    [brandId, playerId, since],
  );
  return rows.map((r) => ({
    eventId: r.event_id,
    kind: r.kind,
    reference: r.reference,
    amount: r.amount,
    destination: r.destination,
    at: new Date(r.occurred_at),
  }));
}

/** A deposit's velocity window (rules.ts), the brand's stored thresholds and how many of the player's events are later than it. */
export interface DepositWindow extends VelocityWindow {
  thresholds: Partial<AmlThresholds> | null;
  /** Deposits and withdrawals after `at`, within the rules' reach (31 days): the deposit came late. */
  later: number;
}

/**
 * One statement in place of the players' histories for deposits (the watch's common case): for
 * each (brand, player, time), the sums rule 5 weighs, with the same bounds as rules.ts, the
 * brand's thresholds, and the later events that would have to be judged again; in the order
 * asked. Its cost does not grow with a player's history of rows read back: Postgres sums them on
 * the index.
 */
export async function depositWindows(tx: SqlRunner, asked: ReadonlyArray<{ brandId: string; playerId: string; at: Date }>): Promise<DepositWindow[]> {
  const rows = await tx.query<{ n: string; thresholds: Partial<AmlThresholds> | null; recent: string; before: string; before_count: number; later: number }>(
    `select i.n, (select thresholds from ${S}.brand_rules where brand_id = i.brand_id) as thresholds,
            coalesce(sum(w.amount) filter (where w.kind = 'deposit' and w.occurred_at > i.day_ago and w.occurred_at <= i.at), 0)::text as recent,
            coalesce(sum(w.amount) filter (where w.kind = 'deposit' and w.occurred_at > i.month_ago and w.occurred_at <= i.day_ago), 0)::text as before,
            (count(*) filter (where w.kind = 'deposit' and w.occurred_at > i.month_ago and w.occurred_at <= i.day_ago))::int as before_count,
            (count(*) filter (where w.occurred_at > i.at))::int as later
       from unnest(?::text[], ?::text[], ?::timestamptz[], ?::timestamptz[], ?::timestamptz[], ?::timestamptz[])
              with ordinality as i(brand_id, player_id, at, day_ago, month_ago, month_ahead, n)
       left join ${S}.watched_money w
         on w.brand_id = i.brand_id and w.player_id = i.player_id and w.kind in ('deposit', 'withdrawal')
        and w.occurred_at > i.month_ago and w.occurred_at <= i.month_ahead
      group by i.n, i.brand_id
      order by i.n`,
    [
      asked.map((a) => a.brandId),
      asked.map((a) => a.playerId),
      asked.map((a) => a.at),
      asked.map((a) => new Date(a.at.getTime() - DAY)),
      asked.map((a) => new Date(a.at.getTime() - 31 * DAY)),
      asked.map((a) => new Date(a.at.getTime() + 31 * DAY)),
    ],
  );
  return rows.map((r) => ({ thresholds: r.thresholds, recent: r.recent, before: r.before, beforeCount: r.before_count, later: r.later }));
}

/** The player's withdrawals recorded after `at`, within `hours` of it (what a late deposit may change). */
export async function laterWithdrawals(
  sql: SqlRunner,
  brandId: string,
  playerId: string,
  at: Date,
  hours: number,
): Promise<Array<{ eventId: string; at: Date }>> {
  const rows = await sql.query<{ event_id: string; occurred_at: Date }>(
    `select event_id, occurred_at from ${S}.watched_money
     where brand_id = ? and player_id = ? and kind = 'withdrawal' and occurred_at > ? and occurred_at <= ? order by occurred_at`,
    [brandId, playerId, at, new Date(at.getTime() + hours * 3_600_000)],
  );
  return rows.map((r) => ({ eventId: r.event_id, at: new Date(r.occurred_at) }));
}

/** Earlier withdrawals of other players of the brand to the same destination. */
export async function otherPlayersOfDestination(tx: SqlRunner, brandId: string, playerId: string, destination: string | null) {
  if (!destination) return [];
  const rows = await tx.query<{ player_id: string; event_id: string; occurred_at: Date }>(
    `select player_id, event_id, occurred_at from ${S}.watched_money
     where brand_id = ? and destination = ? and kind = 'withdrawal' and player_id <> ? order by occurred_at limit 20`,
    [brandId, destination, playerId],
  );
  return rows.map((r) => ({ playerId: r.player_id, eventId: r.event_id, at: new Date(r.occurred_at) }));
}

export async function brandThresholds(sql: SqlRunner, brandId: string): Promise<AmlThresholds> {
  const rows = await sql.query<{ thresholds: Partial<AmlThresholds> }>(`select thresholds from ${S}.brand_rules where brand_id = ?`, [brandId]);
  return thresholdsOf(rows[0]?.thresholds);
}

/**
 * Opens the player's case with this hit, or joins the active one (open or under review): the
 * evidence is added once per (case, rule, event), the rule listed, the risk raised to the rule's.
 * Returns the case id and whether it was opened now.
 */
export async function openOrJoinCase(
  tx: SqlRunner,
  p: PlayerRef,
  hit: RuleHit,
  eventId: string,
  at: Date,
  by: string,
): Promise<{ caseId: string; opened: boolean; risk: RiskLevel }> {
  const risk = hit.risk ?? riskOfRule(hit.rule);
  const active = await tx.query<{ id: string; risk: RiskLevel; rules: AmlRule[] }>(
    `select id, risk, rules from ${S}.cases where brand_id = ? and player_id = ? and status in ('open', 'under_review') for update`,
    [p.brandId, p.playerId],
  );
  let caseId: string;
  let opened = false;
  let caseRisk: RiskLevel;
  if (active[0]) {
    caseId = active[0].id;
    caseRisk = higherRisk(active[0].risk, risk);
    await tx.query(`update ${S}.cases set risk = ?, rules = case when ? = any(rules) then rules else rules || ?::text end, updated_at = now() where id = ?`, [
      caseRisk,
      hit.rule,
      hit.rule,
      caseId,
    ]);
  } else {
    caseId = newId('amlCase');
    caseRisk = risk;
    opened = true;
    await tx.query(
      // Opened at the millisecond the API shows (and a list cursor keeps): a microsecond more would
      // let the next page of an oldest-first list start with the case it ended on.
      `insert into ${S}.cases (id, operator_id, brand_id, environment, player_id, risk, status, rules, opened_at, updated_at)
       values (?, ?, ?, ?, ?, ?, 'open', array[?]::text[], date_trunc('milliseconds', now()), now())`,
      [caseId, p.operatorId, p.brandId, p.environment, p.playerId, risk, hit.rule],
    );
    await tx.query(`insert into ${S}.case_steps (case_id, status, by, at, reason) values (?, 'open', ?, now(), ?)`, [caseId, by, hit.summary]);
  }
  await tx.query(
    `insert into ${S}.case_evidence (case_id, rule, event_id, at, summary, facts) values (?, ?, ?, ?, ?, ?::jsonb)
     on conflict (case_id, rule, event_id) do nothing`,
    [caseId, hit.rule, eventId, at, hit.summary, JSON.stringify(hit.facts)],
  );
  // The case's amount with this evidence (the queue's order by amount, issue #61).
  await tx.query(`update ${S}.cases set amount = ${caseAmountSql('?')} where id = ?`, [caseId, caseId]);
  await raiseRisk(tx, p, caseRisk, `case ${caseId}: ${hit.rule}`, by);
  return { caseId, opened, risk: caseRisk };
}

/** Raises the player's risk level (never lowers it: that is a person's decision) and keeps its history. */
export async function raiseRisk(tx: SqlRunner, p: { brandId: string; playerId: string }, level: RiskLevel, reason: string, by: string): Promise<void> {
  const current = await tx.query<{ level: RiskLevel }>(`select level from ${S}.player_risk where player_id = ? for update`, [p.playerId]);
  const was = current[0]?.level ?? 'low';
  if (higherRisk(was, level) === was) return;
  await tx.query(
    `insert into ${S}.player_risk (player_id, brand_id, level, updated_at) values (?, ?, ?, now())
     on conflict (player_id) do update set level = excluded.level, updated_at = excluded.updated_at`,
    [p.playerId, p.brandId, level],
  );
  await tx.query(`insert into ${S}.player_risk_history (player_id, level, reason, by, at) values (?, ?, ?, ?, now())`, [p.playerId, level, reason, by]);
}
