// Reads and writes of players that several handlers share. Public operations always pass the
// caller's brand: a player of another brand is indistinguishable from an unknown one.
import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import { AppError, type KycStatus, type PlayerStatus } from '@bo/contracts';
import { sqlIn, writeEvent } from '@bo/service-kit';
import { KycHistoryEntity, KycSubmissionEntity, PlayerEntity, type KycHistoryRow, type KycSubmissionRow, type PlayerRow } from './entities.ts';

/** `brandId` absent only for the admin API, which addresses players across brands. */
export interface PlayerAddress {
  id: string;
  brandId?: string;
}

const whereOf = (at: PlayerAddress) => (at.brandId === undefined ? { id: at.id } : { id: at.id, brandId: at.brandId });

export async function findPlayer(em: EntityManager, at: PlayerAddress): Promise<PlayerRow | null> {
  return em.findOne(PlayerEntity, whereOf(at));
}

/** Loads the player with `select … for update` (serialises KYC and admin changes); 404 when absent. */
export async function lockPlayer(tx: EntityManager, at: PlayerAddress): Promise<PlayerRow> {
  const player = await tx.findOne(PlayerEntity, whereOf(at), { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!player) throw new AppError('PLAYER_NOT_FOUND');
  return player;
}

export async function requirePlayer(em: EntityManager, at: PlayerAddress): Promise<PlayerRow> {
  const player = await findPlayer(em, at);
  if (!player) throw new AppError('PLAYER_NOT_FOUND');
  return player;
}

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

/** `player.status.changed` into the outbox, in the caller's transaction: the status alone, never why (no tipping off). */
export async function writeStatusChanged(tx: EntityManager, schema: string, player: PlayerRow, previousStatus: PlayerStatus): Promise<void> {
  await writeEvent(sqlIn(tx), schema, { operatorId: player.operatorId, brandId: player.brandId, environment: player.environment }, 'player.status.changed', {
    playerId: player.id,
    externalId: player.externalId,
    previousStatus,
    status: player.status,
  });
}
