// A player's KYC record: the submissions, the history of its status and the status change with its
// event. Through the entities (the ORM); the event goes into the kit's outbox on the ORM's transaction.
import type { EntityManager } from '@mikro-orm/postgresql';
import { newId, type DocumentType, type KycStatus } from '@bo/contracts';
import { sqlIn, writeEvent } from '@bo/service-kit';
import { KycHistoryEntity, KycSubmissionEntity, type KycHistoryRow, type KycSubmissionRow, type PlayerRow } from '../../store/index.ts';

/** Newest first; ids are time-sortable, so they break ties of one millisecond. */
export async function listKycSubmissions(em: EntityManager, playerId: string): Promise<KycSubmissionRow[]> {
  return em.find(KycSubmissionEntity, { playerId }, { orderBy: { createdAt: 'desc', id: 'desc' } });
}

/** Who changed a KYC status: a person of our team with a reason, or nobody (a submission, a sandbox simulation). */
export interface KycChangeAuthor {
  actor: string | null;
  reason: string | null;
}

/** Newest first. */
export async function listKycHistory(em: EntityManager, playerId: string): Promise<KycHistoryRow[]> {
  return em.find(KycHistoryEntity, { playerId }, { orderBy: { at: 'desc', id: 'desc' } });
}

/**
 * Sets the KYC status of a locked player. A real change adds its history row (written at the
 * caller's flush) and writes `kyc.status_changed` into the outbox inside the caller's
 * transaction; setting the status it already has writes nothing.
 * Returns whether the status changed.
 */
export async function changeKycStatus(
  tx: EntityManager,
  schema: string,
  player: PlayerRow,
  status: KycStatus,
  at: Date,
  by: KycChangeAuthor = { actor: null, reason: null },
): Promise<boolean> {
  const previousStatus = player.kycStatus;
  if (previousStatus === status) return false;
  tx.create(KycHistoryEntity, { playerId: player.id, previousStatus, status, actor: by.actor, reason: by.reason, at });
  player.kycStatus = status;
  player.kycUpdatedAt = at;
  player.updatedAt = at;
  // The outbox is the kit's table: its row goes in with the kit's SQL, in this transaction.
  await writeEvent(sqlIn(tx), schema, { operatorId: player.operatorId, brandId: player.brandId, environment: player.environment }, 'kyc.status_changed', {
    playerId: player.id,
    externalId: player.externalId,
    previousStatus,
    status,
  });
  return true;
}

/** A new submission of the player's documents, written at the caller's flush. */
export function addSubmission(tx: EntityManager, playerId: string, input: { documentType: DocumentType; reference: string }, now: Date): KycSubmissionRow {
  return tx.create(KycSubmissionEntity, {
    id: newId('kycSubmission'),
    playerId,
    documentType: input.documentType,
    reference: input.reference,
    createdAt: now,
  });
}
