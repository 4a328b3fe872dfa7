// An operator's harm thresholds as our team set them (compliance.harm_thresholds, issue #68): read,
// set under the row's lock with the reason (team-settings.ts), and read in SQL by the assessments
// for the operators of a batch.
import type { HarmThresholds } from '@bo/contracts';
import type { SqlRunner } from '@bo/service-kit';
import type { MikroORM } from '@mikro-orm/postgresql';
import { HarmThresholdsEntity } from './entities.ts';
import { setUnderRowLock } from './team-settings.ts';

const S = 'compliance';

export interface HarmThresholdsRow {
  operatorId: string;
  thresholds: Record<string, unknown>;
  reason: string;
  updatedAt: Date;
  updatedBy: string;
}

/** The operator's row; null when our team never set its thresholds. */
export const harmThresholdsRowOf = (orm: MikroORM, operatorId: string): Promise<HarmThresholdsRow | null> =>
  orm.em.fork().findOne(HarmThresholdsEntity, { operatorId });

/** Sets the operator's thresholds (updated now) under the row's lock; `audit` as in setUnderRowLock. */
export function setHarmThresholds<T>(
  orm: MikroORM,
  set: Omit<HarmThresholdsRow, 'updatedAt'>,
  audit: (before: HarmThresholdsRow | null, after: HarmThresholdsRow, tx: SqlRunner) => Promise<T>,
): Promise<T> {
  return setUnderRowLock<HarmThresholdsRow, T>(orm, HarmThresholdsEntity, 'operatorId', { ...set, updatedAt: new Date() }, audit);
}

/** The stored thresholds of those of `operatorIds` our team set (the others: none, the defaults). */
export async function storedHarmThresholds(tx: SqlRunner, operatorIds: readonly string[]): Promise<Map<string, Partial<HarmThresholds>>> {
  const rows = await tx.query<{ operator_id: string; thresholds: Partial<HarmThresholds> }>(
    `select operator_id, thresholds from ${S}.harm_thresholds where operator_id = any(?::text[])`,
    [[...new Set(operatorIds)]],
  );
  return new Map(rows.map((r) => [r.operator_id, r.thresholds]));
}
