// Reads and writes of players that several handlers share. Public operations always pass the
// caller's brand: a player of another brand is indistinguishable from an unknown one.
import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import { AppError, type KycStatus } from '@bo/contracts';
import { ormRunner, writeEvent } from '@bo/service-kit';
import { KycSubmissionEntity, PlayerEntity, type KycSubmissionRow, type PlayerRow } from './entities.ts';

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

export interface KycHistoryRow {
  previousStatus: KycStatus;
  status: KycStatus;
  actor: string | null;
  reason: string | null;
  at: Date;
}

/** Newest first. */
export async function listKycHistory(em: EntityManager, playerId: string): Promise<KycHistoryRow[]> {
  return ormRunner(em).query<KycHistoryRow>(
    `select previous_status as "previousStatus", status, actor, reason, at from players.kyc_history where player_id = ? order by at desc, id desc`,
    [playerId],
  );
}

/**
 * Sets the KYC status of a locked player. A real change writes `kyc.status_changed` into the
 * outbox inside the caller's transaction; setting the status it already has writes nothing.
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
  await ormRunner(tx).query('insert into players.kyc_history (player_id, previous_status, status, actor, reason, at) values (?, ?, ?, ?, ?, ?)', [
    player.id,
    previousStatus,
    status,
    by.actor,
    by.reason,
    at,
  ]);
  player.kycStatus = status;
  player.kycUpdatedAt = at;
  player.updatedAt = at;
  await writeEvent(ormRunner(tx), schema, { operatorId: player.operatorId, brandId: player.brandId, environment: player.environment }, 'kyc.status_changed', {
    playerId: player.id,
    externalId: player.externalId,
    previousStatus,
    status,
  });
  return true;
}
