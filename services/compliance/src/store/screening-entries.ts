// The screening simulator's lists (compliance.screening_simulator_entries): our team's entries and an
// operator's own sandbox entries, listed, added and removed (not records: a simulator's list). The
// simulator matches a CPF against them in SQL (screenings.ts). Entities only.
import { randomUUID } from 'node:crypto';
import { sqlIn, type SqlRunner } from '@bo/service-kit';
import { LockMode, type MikroORM } from '@mikro-orm/postgresql';
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

/** What runs in a change's transaction after its write (our team's audit row), with the kit's SQL on it. */
type Alongside<R> = (row: R, tx: SqlRunner) => Promise<void>;

/** Keeps a new entry (its id and time given now); `alongside` runs in its transaction. */
export async function addScreeningEntry(
  orm: MikroORM,
  e: Omit<ScreeningEntryRow, 'id' | 'createdAt'>,
  alongside?: Alongside<ScreeningEntryRow>,
): Promise<ScreeningEntryRow> {
  return orm.em.fork().transactional(async (em) => {
    const entry = em.create(ScreeningEntryEntity, { id: `scr_${randomUUID().replaceAll('-', '')}`, ...e, createdAt: new Date() });
    await em.persist(entry).flush();
    await alongside?.(entry, sqlIn(em));
    return entry;
  });
}

/**
 * Removes an entry (`operatorId`: only that operator's own); the entry as it was, or null when there
 * was none. `alongside` runs in its transaction.
 */
export async function removeScreeningEntry(
  orm: MikroORM,
  id: string,
  operatorId?: string,
  alongside?: Alongside<ScreeningEntryRow | null>,
): Promise<ScreeningEntryRow | null> {
  return orm.em.fork().transactional(async (em) => {
    const row = await em.findOne(ScreeningEntryEntity, operatorId === undefined ? { id } : { id, operatorId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (row) await em.remove(row).flush();
    await alongside?.(row, sqlIn(em));
    return row;
  });
}
