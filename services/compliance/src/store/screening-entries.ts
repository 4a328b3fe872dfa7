// The screening simulator's lists (compliance.screening_simulator_entries): our team's entries and an
// operator's own sandbox entries, listed, added and removed (not records: a simulator's list). The
// simulator matches a CPF against them in SQL (screenings.ts). Entities only.
import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { ScreeningEntryEntity } from './entities.ts';

export interface ScreeningEntryRow {
  id: string;
  list: string;
  cpf: string;
  name: string;
  detail: string;
  createdAt: Date;
  operatorId?: string | null;
}

/** Every entry, oldest first. */
export const screeningEntries = (orm: MikroORM): Promise<ScreeningEntryRow[]> =>
  orm.em.fork().find(ScreeningEntryEntity, {}, { orderBy: { createdAt: 'asc', id: 'asc' } });

/** Keeps a new entry (its id and time given now). */
export async function addScreeningEntry(orm: MikroORM, e: Omit<ScreeningEntryRow, 'id' | 'createdAt'>): Promise<ScreeningEntryRow> {
  const em = orm.em.fork();
  const entry = em.create(ScreeningEntryEntity, { id: `scr_${randomUUID().replaceAll('-', '')}`, ...e, createdAt: new Date() });
  await em.persist(entry).flush();
  return entry;
}

/**
 * Removes an entry (`operatorId`: only that operator's own); the entry as it was, or null when there
 * was none.
 */
export async function removeScreeningEntry(orm: MikroORM, id: string, operatorId?: string): Promise<ScreeningEntryRow | null> {
  const em = orm.em.fork();
  const row = await em.findOne(ScreeningEntryEntity, operatorId === undefined ? { id } : { id, operatorId });
  if (row) await em.remove(row).flush();
  return row;
}
