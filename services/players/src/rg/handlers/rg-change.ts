// One responsible-gaming change of a locked player, in the caller's transaction: its history row,
// the player's new fields, and its event (naming the player) in the outbox. Pauses,
// self-exclusions and their ends all commit this way; the caller broadcasts the change
// (players.changed) once committed. A pause or a self-exclusion forces the marketing consent off and
// dates the block for the suppression list; a self-exclusion's end dates its end (issue #60 item 2).
import type { EventDataByType, EventType } from '@bo/contracts';
import { sqlIn, writeEvent, type ServiceDeps } from '@bo/service-kit';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { PlayerRow } from '../../store/index.ts';
import { recordChange, type RgChange } from '../store/limits.ts';
import { beginSelfExclusion, endSelfExclusion } from '../domain/standing.ts';
import { beginMarketingBlock, endMarketingBlock } from '../../marketing/index.ts';

type PlayerFields = Partial<Pick<PlayerRow, 'pausedUntil' | 'selfExcludedSince' | 'selfExcludedUntil'>>;
type EventData<T extends EventType> = Omit<EventDataByType[T], 'playerId' | 'externalId'>;

export async function commitRgChange<T extends EventType>(
  tx: EntityManager,
  deps: ServiceDeps,
  player: PlayerRow,
  now: Date,
  change: {
    history: RgChange;
    set: PlayerFields;
    /** The status a self-exclusion's start or end decides (domain/standing.ts: the one it replaced comes back at its end). */
    selfExclusion?: 'begins' | 'ends';
    event: T;
    /** A function: read of the player once the change is made (a self-exclusion's end tells the status it left). */
    data: EventData<T> | ((player: PlayerRow) => EventData<T>);
  },
): Promise<void> {
  recordChange(tx, player.id, now, change.history);
  Object.assign(player, change.set, { updatedAt: now });
  // Under a sanctions freeze the status stays bloqueado: the flow's status is the one the lift goes back to.
  if (change.selfExclusion === 'begins') beginSelfExclusion(player);
  if (change.selfExclusion === 'ends') endSelfExclusion(player);
  await tx.flush();
  const data = typeof change.data === 'function' ? change.data(player) : change.data;
  await writeEvent(sqlIn(tx), deps.schema, { operatorId: player.operatorId, brandId: player.brandId, environment: player.environment }, change.event, {
    playerId: player.id,
    externalId: player.externalId,
    ...data,
  } as EventDataByType[T]);
  if (change.event === 'player.paused') await beginMarketingBlock(tx, deps, player, 'pause', now, player.pausedUntil ?? null);
  if (change.selfExclusion === 'begins') await beginMarketingBlock(tx, deps, player, 'self_exclusion', now, player.selfExcludedUntil ?? null);
  if (change.selfExclusion === 'ends') await endMarketingBlock(tx, player.id, 'self_exclusion', now);
}

/**
 * The change that ends a self-exclusion (a term run out, or compliance lifting an indefinite one): the
 * status it replaced comes back, and its event tells the player's status after it (under a freeze,
 * a restriction or a closing, the status as it stands).
 */
export function selfExclusionEnd(history: Omit<RgChange, 'newValue'> & { by: 'team' | 'system' }) {
  return {
    history: { ...history, newValue: null },
    set: {},
    selfExclusion: 'ends' as const,
    event: 'player.self_exclusion.ended' as const,
    data: (player: PlayerRow) => ({ by: history.by, status: player.status }),
  };
}
