// A player's responsible-gaming rows through the entities (the ORM): the operator's compliance
// profile as the rules read it, the limit rows and their writes, and the history.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { LimitPeriod, LimitType, OperatorCompliance } from '@bo/contracts';
import { complianceView } from '../domain/compliance-profile.ts';
import { depositPerDay } from '../domain/limits-view.ts';
import type { LimitDecision, SettledLimit } from '../domain/rg-limits.ts';
import { OperatorComplianceEntity, RgHistoryEntity, RgLimitEntity, type RgChangeBy, type RgHistoryKind, type RgLimitRow } from '../../store/index.ts';

export async function complianceOf(em: EntityManager, operatorId: string): Promise<OperatorCompliance> {
  return complianceView(operatorId, await em.findOne(OperatorComplianceEntity, { operatorId }));
}

export async function limitRows(em: EntityManager, playerId: string): Promise<RgLimitRow[]> {
  return em.find(RgLimitEntity, { playerId }, { orderBy: { type: 'asc', period: 'asc' } });
}

export async function depositPerDayOf(em: EntityManager, playerId: string, now: Date): Promise<string | null> {
  return depositPerDay(await limitRows(em, playerId), now);
}

/**
 * Writes a limit's decided state, at the caller's flush: `value` null removes the row; else the row
 * (`row`, or a new one) holds the value in force and the change still waiting, if any.
 */
export function saveLimit(
  tx: EntityManager,
  playerId: string,
  limit: { type: LimitType; period: LimitPeriod },
  row: RgLimitRow | undefined,
  decision: Pick<LimitDecision, 'value' | 'pending'>,
  now: Date,
): void {
  if (decision.value === null) {
    if (row) tx.remove(row);
  } else if (row) {
    row.value = decision.value;
    row.pendingValue = decision.pending?.value ?? null;
    row.pendingRemoval = decision.pending != null && decision.pending.value === null;
    row.pendingEffectiveAt = decision.pending?.effectiveAt ?? null;
    row.updatedAt = now;
  } else {
    tx.create(RgLimitEntity, {
      playerId,
      type: limit.type,
      period: limit.period,
      value: decision.value,
      pendingValue: null,
      pendingRemoval: false,
      pendingEffectiveAt: null,
      updatedAt: now,
    });
  }
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
