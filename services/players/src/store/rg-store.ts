// Reads and writes of a player's responsible-gaming state that several handlers share: the limit
// rows, the history, the rules other services enforce (players.state) and the view the API shows.
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  PAYMENTS_RG_USAGE_SUBJECT,
  WALLET_RG_USAGE_SUBJECT,
  type LimitPeriod,
  type OperatorCompliance,
  type ResponsibleGaming,
  type RgRules,
  type RgUsage,
  type RgUsageRequest,
  type TermsDue,
} from '@bo/contracts';
import type { ServiceDeps, SqlRunner } from '@bo/service-kit';
import { centralSelfExclusionUrl, complianceView } from '../domain/compliance-profile.ts';
import type { PlayersConfig } from '../config.ts';
import { settle, shownValue, toRuleLimit, type SettledLimit } from '../domain/rg-limits.ts';
import { OperatorComplianceEntity, RgHistoryEntity, RgLimitEntity, type PlayerRow, type RgChangeBy, type RgHistoryKind, type RgLimitRow } from './entities.ts';

export async function complianceOf(em: EntityManager, operatorId: string): Promise<OperatorCompliance> {
  return complianceView(operatorId, await em.findOne(OperatorComplianceEntity, { operatorId }));
}

export async function limitRows(em: EntityManager, playerId: string): Promise<RgLimitRow[]> {
  return em.find(RgLimitEntity, { playerId }, { orderBy: { type: 'asc', period: 'asc' } });
}

/** A player's limits as in force at `now`, removed ones left out. */
export function settledLimits(rows: RgLimitRow[], now: Date): SettledLimit[] {
  return rows.map((r) => settle(r, now)).filter((l) => l.value !== null);
}

export interface RgChange {
  kind: RgHistoryKind;
  type?: SettledLimit['type'];
  period?: LimitPeriod;
  oldValue?: string | null;
  newValue?: string | null;
  effectiveAt?: Date | null;
  by: RgChangeBy;
  actor?: string | null;
  reason?: string | null;
}

/** One history row, written at the caller's flush. */
export function recordChange(tx: EntityManager, playerId: string, at: Date, c: RgChange): void {
  tx.create(RgHistoryEntity, {
    playerId,
    kind: c.kind,
    type: c.type ?? null,
    period: c.period ?? null,
    oldValue: c.oldValue ?? null,
    newValue: c.newValue ?? null,
    effectiveAt: c.effectiveAt ?? null,
    by: c.by,
    actor: c.actor ?? null,
    reason: c.reason ?? null,
    at,
  });
}

/** Newest first. */
export async function historyOf(em: EntityManager, playerId: string) {
  const rows = await em.find(RgHistoryEntity, { playerId }, { orderBy: { at: 'desc', id: 'desc' } });
  return rows.map((h) => ({
    kind: h.kind,
    type: h.type ?? null,
    period: h.period ?? null,
    oldValue: h.oldValue ?? null,
    newValue: h.newValue ?? null,
    effectiveAt: h.effectiveAt ? h.effectiveAt.toISOString() : null,
    by: h.by,
    actor: h.actor ?? null,
    reason: h.reason ?? null,
    at: h.at.toISOString(),
  }));
}

/**
 * What payments and the wallet enforce (players.state). Undefined for a player of an `off`
 * operator with no limit and no pause: v1.1's answer, unchanged.
 */
export function rgRules(player: PlayerRow, compliance: OperatorCompliance, rows: RgLimitRow[], now: Date, terms: TermsDue | null = null): RgRules | undefined {
  const limits = rows.flatMap((r) => toRuleLimit(settle(r, now)) ?? []);
  if (compliance.profile === 'off' && limits.length === 0 && player.pausedUntil == null) return undefined;
  return {
    profile: compliance.profile,
    timeZone: compliance.timeZone,
    realityCheckMinutes: compliance.realityCheckMinutes,
    pausedUntil: player.pausedUntil ? player.pausedUntil.toISOString() : null,
    limits,
    // br-spa only: the terms version to accept before the next deposit or game session.
    ...(compliance.profile === 'br-spa' ? { terms } : {}),
  };
}

/** The end of the current day, week (Monday to Sunday) and month in the time zone. */
async function periodEnds(sql: SqlRunner, timeZone: string, now: Date): Promise<Record<LimitPeriod, string>> {
  const rows = await sql.query<{ period: LimitPeriod; ends: Date }>(
    `select p as period, (date_trunc(p, ?::timestamptz at time zone ?) + ('1 ' || p)::interval) at time zone ? as ends
       from unnest(array['day', 'week', 'month']) p`,
    [now, timeZone, timeZone],
  );
  return Object.fromEntries(rows.map((r) => [r.period, new Date(r.ends).toISOString()])) as Record<LimitPeriod, string>;
}

/** Usage of the current periods from the services that count it: deposits (payments), stakes, losses and time (wallet). */
async function usageOf(deps: ServiceDeps, player: PlayerRow, timeZone: string, now: Date, limits: SettledLimit[]): Promise<Map<string, string>> {
  const ask: RgUsageRequest = { brandId: player.brandId, playerId: player.id, timeZone, at: now.toISOString() };
  const subjects = [
    ...(limits.some((l) => l.type === 'deposit') ? [PAYMENTS_RG_USAGE_SUBJECT] : []),
    ...(limits.some((l) => l.type !== 'deposit') ? [WALLET_RG_USAGE_SUBJECT] : []),
  ];
  const answers = await Promise.all(subjects.map((s) => deps.call<RgUsage>(s, ask)));
  return new Map(answers.flatMap((a) => a.usage.map((u) => [`${u.type}:${u.period}`, u.used] as const)));
}

/**
 * The API's view: limits in force with the current period's usage, pending changes, pause,
 * self-exclusion. `sql` is the caller's transaction when it holds one: a second connection taken
 * while a transaction holds the first starves the pool under concurrent changes.
 */
export async function rgView(
  deps: ServiceDeps<PlayersConfig>,
  player: PlayerRow,
  compliance: OperatorCompliance,
  rows: RgLimitRow[],
  now: Date,
  sql: SqlRunner = deps.sql,
): Promise<ResponsibleGaming> {
  const limits = settledLimits(rows, now);
  const [ends, usage] =
    limits.length > 0
      ? await Promise.all([periodEnds(sql, compliance.timeZone, now), usageOf(deps, player, compliance.timeZone, now, limits)])
      : [undefined, new Map()];
  const selfExcluded = player.status === 'autoexcluido' && player.selfExcludedSince != null;
  return {
    playerId: player.id,
    limits: limits.map((l) => ({
      type: l.type,
      period: l.period,
      value: shownValue(l.type, l.value!),
      used: shownValue(l.type, usage.get(`${l.type}:${l.period}`) ?? '0'),
      resetsAt: ends![l.period],
      pending: l.pending
        ? { value: l.pending.value === null ? null : shownValue(l.type, l.pending.value), effectiveAt: l.pending.effectiveAt.toISOString() }
        : null,
    })),
    pause: player.pausedUntil && player.pausedUntil.getTime() > now.getTime() ? { until: player.pausedUntil.toISOString() } : null,
    selfExclusion: selfExcluded
      ? { since: player.selfExcludedSince!.toISOString(), until: player.selfExcludedUntil ? player.selfExcludedUntil.toISOString() : null }
      : null,
    realityCheckMinutes: compliance.realityCheckMinutes,
    centralSelfExclusionUrl: centralSelfExclusionUrl(compliance, deps.config.CENTRAL_SELF_EXCLUSION_URL),
  };
}
