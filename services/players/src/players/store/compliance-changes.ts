// Compliance profile changes that wait for a second person, through their entity (the ORM): a new
// one (one pending per operator: the database holds it when two requests race), one locked to
// decide it, and the list for our team's notice.
import { LockMode, UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/postgresql';
import { AppError, type ComplianceChangeStatus } from '@bo/contracts';
import { ComplianceChangeEntity, type ComplianceChangeRow } from '../../store/index.ts';

type NewChange = Omit<ComplianceChangeRow, 'decidedBy' | 'decidedById' | 'decidedAt' | 'decisionReason'>;

/**
 * Stores a pending change; the operator's pending one past its time is marked `expired` first.
 * While another is pending the insert fails (`isPendingConflict`): the database holds it.
 */
export async function insertPendingChange(tx: EntityManager, change: NewChange): Promise<ComplianceChangeRow> {
  await tx.nativeUpdate(
    ComplianceChangeEntity,
    { operatorId: change.operatorId, status: 'pending', expiresAt: { $lte: change.requestedAt } },
    { status: 'expired' },
  );
  const row = tx.create(ComplianceChangeEntity, { ...change, decidedBy: null, decidedById: null, decidedAt: null, decisionReason: null });
  await tx.persist(row).flush();
  return row;
}

/** The insert met the operator's change still pending. */
export const isPendingConflict = (err: unknown): boolean => err instanceof UniqueConstraintViolationException;

export async function pendingChangeOf(em: EntityManager, operatorId: string): Promise<ComplianceChangeRow | null> {
  return em.findOne(ComplianceChangeEntity, { operatorId, status: 'pending' });
}

/** The operator's change, locked (`select … for update`); 404 when the operator has none with this id. */
export async function lockChange(tx: EntityManager, operatorId: string, id: string): Promise<ComplianceChangeRow> {
  const row = await tx.findOne(ComplianceChangeEntity, { id, operatorId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!row) throw new AppError('COMPLIANCE_CHANGE_NOT_FOUND');
  return row;
}

/** Newest first. `status` is the stored one (`expired` ones not yet rewritten read `pending` here: the view says). */
export async function listChanges(
  em: EntityManager,
  filter: { operatorId?: string; statuses?: readonly ComplianceChangeStatus[]; limit: number },
): Promise<ComplianceChangeRow[]> {
  return em.find(
    ComplianceChangeEntity,
    {
      ...(filter.operatorId ? { operatorId: filter.operatorId } : {}),
      ...(filter.statuses ? { status: { $in: [...filter.statuses] } } : {}),
    },
    { orderBy: { requestedAt: 'desc', id: 'desc' }, limit: filter.limit },
  );
}
