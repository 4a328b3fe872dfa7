// A setting our team keeps per brand or operator in one row (a brand's AML thresholds, an operator's
// harm thresholds): set under the row's lock, with the audit row written by the caller with the kit's
// SQL on the same transaction (`sqlIn`).
import { sqlIn, type SqlRunner } from '@bo/service-kit';
import { LockMode, type EntityName, type MikroORM } from '@mikro-orm/postgresql';

/**
 * Writes `next` over the row `key` names, under its lock: `audit` is given the row as it was (null:
 * none yet), as it is, and the transaction's runner, after the write and before the commit; its
 * answer is the call's. A first setting has no row to lock: its insert waits for another first
 * setting under way and, once that one has committed, does nothing; the row it made is then locked
 * and changed as any other (two at once failed on the key before, a 500: issue #56).
 */
export function setUnderRowLock<R extends object, T>(
  orm: MikroORM,
  entity: EntityName<R>,
  key: keyof R & string,
  next: R,
  audit: (before: R | null, after: R, tx: SqlRunner) => Promise<T>,
): Promise<T> {
  return orm.em.fork().transactional(async (em) => {
    const tx = sqlIn(em);
    // The generic key defeats MikroORM's typed filters; the row is one entity's, by its primary key.
    const where = { [key]: next[key] } as never;
    const locked = () => em.findOne(entity, where, { lockMode: LockMode.PESSIMISTIC_WRITE });
    let row = await locked();
    if (!row) {
      const inserted = await em
        .createQueryBuilder(entity)
        .insert(next)
        .onConflict(key as never)
        .ignore()
        .execute('run');
      if (inserted.affectedRows > 0) return audit(null, next, tx);
      row = await locked();
      if (!row) throw new Error(`${String(key)} ${String(next[key])}: neither inserted nor found`);
    }
    const before = { ...row } as R;
    Object.assign(row, next);
    await em.flush();
    return audit(before, next, tx);
  });
}
