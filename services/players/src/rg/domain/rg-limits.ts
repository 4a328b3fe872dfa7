// The rules of a player's limits (docs/responsible-gaming.md): a new or lower limit applies at
// once; a higher one, or a removal, waits for the operator's cooling-off; under br-spa the last
// loss or time limit cannot go. Pure functions over the stored row and a time: the handlers lock
// the player, settle, decide, and write what these return.
import { AppError, validationError, type LimitPeriod, type LimitType, type RgRuleLimit } from '@bo/contracts';
import { compareMoney, formatMoney } from '@bo/service-kit';
import type { RgLimitFields } from './rows.ts';

/** A limit as in force at a time, and the relaxing change still waiting (value null = a removal). */
export interface SettledLimit {
  type: LimitType;
  period: LimitPeriod;
  value: string | null;
  pending: { value: string | null; effectiveAt: Date } | null;
}

/** The row as it stands at `now`: a pending change whose time has come is in force. */
export function settle(row: RgLimitFields, now: Date): SettledLimit {
  const pendingValue = row.pendingRemoval ? null : (row.pendingValue ?? null);
  if (row.pendingEffectiveAt && row.pendingEffectiveAt.getTime() <= now.getTime()) {
    return { type: row.type, period: row.period, value: pendingValue, pending: null };
  }
  return {
    type: row.type,
    period: row.period,
    value: row.value,
    pending: row.pendingEffectiveAt ? { value: pendingValue, effectiveAt: row.pendingEffectiveAt } : null,
  };
}

/** The limit's value as stored (NUMERIC(20,2)) from the request: money for deposit/loss/wager, whole minutes for time. */
export function storedValue(type: LimitType, value: string | number, path = '/value'): string {
  if (type === 'time') {
    if (typeof value !== 'number' || !Number.isInteger(value)) throw validationError('body', [{ path, message: 'a time limit is whole minutes (an integer)' }]);
    return formatMoney(value);
  }
  if (typeof value !== 'string') throw validationError('body', [{ path, message: 'a money limit is a decimal string, for example "500.00"' }]);
  return formatMoney(value);
}

/** The value as the API shows it: a money string, or whole minutes for time. */
export function shownValue(type: LimitType, stored: string): string | number {
  return type === 'time' ? Math.round(Number(stored)) : formatMoney(stored);
}

/** What a change does: the value in force at once, the change that waits, and when the asked value is in force. */
export interface LimitDecision {
  value: string | null;
  pending: { value: string | null; effectiveAt: Date } | null;
  effectiveAt: Date;
}

/**
 * `next` null asks for a removal. Lower or equal (or a first limit): in force at once, and a
 * waiting raise is dropped. Higher, or a removal: the current value stays, the change waits.
 */
export function decideChange(current: SettledLimit | undefined, next: string | null, now: Date, coolingOffHours: number): LimitDecision {
  const inForce = current?.value ?? null;
  if (inForce === null) return { value: next, pending: null, effectiveAt: now };
  if (next !== null && compareMoney(next, inForce) <= 0) return { value: next, pending: null, effectiveAt: now };
  const effectiveAt = new Date(now.getTime() + coolingOffHours * 3_600_000);
  return { value: inForce, pending: { value: next, effectiveAt }, effectiveAt };
}

/** br-spa: removing this limit must leave another loss (or time) limit that stays. */
export function assertKeepsRequired(profile: string, removing: { type: LimitType; period: LimitPeriod }, all: SettledLimit[]): void {
  if (profile !== 'br-spa' || (removing.type !== 'loss' && removing.type !== 'time')) return;
  const staying = all.filter((l) => l.type === removing.type && l.period !== removing.period && l.value !== null && !(l.pending && l.pending.value === null));
  if (staying.length === 0) {
    throw new AppError('LIMIT_REQUIRED', undefined, { type: removing.type, message: `the player must keep at least one ${removing.type} limit` });
  }
}

/** The rule the enforcing services read (players.state): values as stored strings. */
export function toRuleLimit(l: SettledLimit): RgRuleLimit | undefined {
  if (l.value === null) return undefined;
  return {
    type: l.type,
    period: l.period,
    value: l.type === 'time' ? String(Math.round(Number(l.value))) : formatMoney(l.value),
    pending: l.pending
      ? {
          value: l.pending.value === null ? null : l.type === 'time' ? String(Math.round(Number(l.pending.value))) : formatMoney(l.pending.value),
          effectiveAt: l.pending.effectiveAt.toISOString(),
        }
      : null,
  };
}
