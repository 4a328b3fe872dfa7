// The deposit/day limit: v1.1's daily deposit limit, which our team's admin limits endpoint and
// players.state's `dailyDepositLimit` still name.
import type { EntityManager } from '@mikro-orm/postgresql';
import { settle } from '../domain/rg-limits.ts';
import type { RgLimitRow } from './entities.ts';
import { limitRows } from './rg-store.ts';

export function depositPerDay(rows: RgLimitRow[], now: Date): string | null {
  const row = rows.find((r) => r.type === 'deposit' && r.period === 'day');
  return row ? settle(row, now).value : null;
}

export async function depositPerDayOf(em: EntityManager, playerId: string, now: Date): Promise<string | null> {
  return depositPerDay(await limitRows(em, playerId), now);
}
