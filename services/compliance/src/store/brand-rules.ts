// A brand's rule thresholds as our team set them (compliance.brand_rules): read, and set under the
// row's lock with the audit row written by the caller with the kit's SQL on the same transaction
// (`sqlIn`). Entities (a brand's first row an insert that tolerates another's); the watch reads them
// in SQL (watch.ts).
import { sqlIn, type SqlRunner } from '@bo/service-kit';
import { LockMode, type MikroORM } from '@mikro-orm/postgresql';
import { BrandRulesEntity } from './entities.ts';

export interface BrandRulesRow {
  brandId: string;
  thresholds: Record<string, unknown>;
  updatedAt: Date;
  updatedBy: string;
}

/** The brand's row; null when our team never set its thresholds. */
export const brandRulesOf = (orm: MikroORM, brandId: string): Promise<BrandRulesRow | null> => orm.em.fork().findOne(BrandRulesEntity, { brandId });

/**
 * Sets the brand's thresholds under the row's lock (updated now): `audit` is given the row as it was,
 * as it is, and the transaction's runner, after the write and before the commit; its answer is the call's.
 * A brand's first setting has no row to lock: its insert waits for another first setting under way
 * and, once that one has committed, does nothing; the row it made is then locked and changed as
 * any other (two at once failed on the key before, a 500: issue #56).
 */
export function setBrandRules<T>(
  orm: MikroORM,
  set: Omit<BrandRulesRow, 'updatedAt'>,
  audit: (before: BrandRulesRow | null, after: BrandRulesRow, tx: SqlRunner) => Promise<T>,
): Promise<T> {
  return orm.em.fork().transactional(async (em) => {
    const tx = sqlIn(em);
    const next = { ...set, updatedAt: new Date() };
    const locked = () => em.findOne(BrandRulesEntity, { brandId: set.brandId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    let row = await locked();
    if (!row) {
      const inserted = await em.createQueryBuilder(BrandRulesEntity).insert(next).onConflict('brandId').ignore().execute('run');
      if (inserted.affectedRows > 0) return audit(null, next, tx);
      row = await locked();
      if (!row) throw new Error(`brand rules of ${set.brandId}: neither inserted nor found`);
    }
    const before = { brandId: row.brandId, thresholds: row.thresholds, updatedAt: row.updatedAt, updatedBy: row.updatedBy };
    Object.assign(row, next);
    await em.flush();
    return audit(before, next, tx);
  });
}
