// An operator's compliance profile row through its entity (the ORM): read, locked, and written by
// our team's change.
import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import { OperatorComplianceEntity, type OperatorComplianceRow } from '../../store/index.ts';

export async function complianceRow(em: EntityManager, operatorId: string): Promise<OperatorComplianceRow | null> {
  return em.findOne(OperatorComplianceEntity, { operatorId });
}

/** The row locked (`select … for update`), or null when our team never set one. */
export async function lockComplianceRow(tx: EntityManager, operatorId: string): Promise<OperatorComplianceRow | null> {
  return tx.findOne(OperatorComplianceEntity, { operatorId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
}

/** Our team's settings: the row replaced, or a new one persisted; written at the caller's flush. */
export function saveComplianceRow(tx: EntityManager, row: OperatorComplianceRow | null, next: OperatorComplianceRow): void {
  if (row) Object.assign(row, next);
  else tx.persist(tx.create(OperatorComplianceEntity, next));
}

/** The row as written (after the caller's flush). */
export async function writtenComplianceRow(tx: EntityManager, operatorId: string): Promise<OperatorComplianceRow> {
  return tx.findOneOrFail(OperatorComplianceEntity, { operatorId });
}
