// A player's limits as the other services and v1.1's views read them: the rules payments and the
// wallet enforce (players.state's `rg`), the limits in force, and the deposit/day limit, v1.1's daily
// deposit limit, which our team's admin limits endpoint and players.state's `dailyDepositLimit` still
// name. Pure functions over the stored rows' fields.
import type { OperatorCompliance, RgRules, TermsDue } from '@bo/contracts';
import { formatMoney } from '@bo/service-kit';
import { settle, toRuleLimit, type SettledLimit } from './rg-limits.ts';
import type { RgLimitFields } from './rows.ts';

export function depositPerDay(rows: RgLimitFields[], now: Date): string | null {
  const row = rows.find((r) => r.type === 'deposit' && r.period === 'day');
  return row ? settle(row, now).value : null;
}

/** A player's limits as in force at `now`, removed ones left out. */
export function settledLimits(rows: RgLimitFields[], now: Date): SettledLimit[] {
  return rows.map((r) => settle(r, now)).filter((l) => l.value !== null);
}

/** The reality check's interval for the player: our team's when it set one (always shorter), else the operator's. */
export function realityCheckMinutesOf(player: { realityCheckMinutes?: number | null }, compliance: Pick<OperatorCompliance, 'realityCheckMinutes'>): number {
  return Math.min(compliance.realityCheckMinutes, player.realityCheckMinutes ?? Number.POSITIVE_INFINITY);
}

/**
 * What payments and the wallet enforce (players.state). Undefined for a player of an `off`
 * operator with no limit and no pause: v1.1's answer, unchanged.
 */
export function rgRules(
  player: { pausedUntil?: Date | null; realityCheckMinutes?: number | null },
  compliance: OperatorCompliance,
  rows: RgLimitFields[],
  now: Date,
  terms: TermsDue | null = null,
): RgRules | undefined {
  const limits = rows.flatMap((r) => toRuleLimit(settle(r, now)) ?? []);
  if (compliance.profile === 'off' && limits.length === 0 && player.pausedUntil == null && player.realityCheckMinutes == null) return undefined;
  return {
    profile: compliance.profile,
    timeZone: compliance.timeZone,
    realityCheckMinutes: realityCheckMinutesOf(player, compliance),
    pausedUntil: player.pausedUntil ? player.pausedUntil.toISOString() : null,
    limits,
    // br-spa only: the terms version to accept before the next deposit or game session.
    ...(compliance.profile === 'br-spa' ? { terms } : {}),
  };
}

export interface PlayerLimits {
  playerId: string;
  dailyDepositLimit: string | null;
  selfExcludedUntil: string | null;
}

/** v1.1's view of the limits: the deposit/day limit in force (`depositPerDay`) and our team's self-exclusion date. */
export function toLimits(row: { id: string; selfExcludedUntil?: Date | null }, depositPerDay: string | null): PlayerLimits {
  return {
    playerId: row.id,
    dailyDepositLimit: depositPerDay == null ? null : formatMoney(depositPerDay),
    selfExcludedUntil: row.selfExcludedUntil ? row.selfExcludedUntil.toISOString() : null,
  };
}
