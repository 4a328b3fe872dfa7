// The player row every module reads and locks. Public operations always pass the caller's brand: a
// player of another brand is indistinguishable from an unknown one.
import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import { AppError, type PlayerStatus } from '@bo/contracts';
import { sqlIn, writeEvent } from '@bo/service-kit';
import { PlayerEntity, type PlayerRow } from './entities.ts';

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

/** `player.status.changed` into the outbox, in the caller's transaction: the status alone, never why (no tipping off). */
export async function writeStatusChanged(tx: EntityManager, schema: string, player: PlayerRow, previousStatus: PlayerStatus): Promise<void> {
  await writeEvent(sqlIn(tx), schema, { operatorId: player.operatorId, brandId: player.brandId, environment: player.environment }, 'player.status.changed', {
    playerId: player.id,
    externalId: player.externalId,
    previousStatus,
    status: player.status,
  });
}
