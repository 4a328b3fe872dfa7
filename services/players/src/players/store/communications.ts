// The communications log (issue #46 item 4; IN SPA/MF 31/2025): the messages an operator reports it
// sent a bettor, kept five years. Rows are written once; the table's triggers refuse any change, and
// any deletion before `retain_until` (entities.ts, CommunicationEntity). Through the ORM; the
// impediment notice the unclaimed funds' days count from is read in plain SQL (impediment-notices.ts).
import type { EntityManager } from '@mikro-orm/postgresql';
import { COMMUNICATION_RETENTION_YEARS, newId, type Communication, type CommunicationInput } from '@bo/contracts';
import type { ListPosition } from '@bo/service-kit';
import { CommunicationEntity, type CommunicationRow } from '../../store/index.ts';

/** Five calendar years after `at` (29 February gives 1 March: kept a day longer, never shorter). */
export function retainedUntil(at: Date): Date {
  const until = new Date(at);
  until.setUTCFullYear(until.getUTCFullYear() + COMMUNICATION_RETENTION_YEARS);
  return until;
}

/** The row, written at the caller's flush. */
export function recordCommunication(tx: EntityManager, playerId: string, input: CommunicationInput, now: Date): CommunicationRow {
  return tx.create(CommunicationEntity, {
    id: newId('communication'),
    playerId,
    channel: input.channel,
    kind: input.kind,
    sentAt: new Date(input.sentAt),
    summary: input.summary,
    reference: input.reference ?? null,
    recordedAt: now,
    retainUntil: retainedUntil(now),
  });
}

export function toCommunication(row: CommunicationRow): Communication {
  return {
    id: row.id,
    playerId: row.playerId,
    channel: row.channel,
    kind: row.kind,
    sentAt: row.sentAt.toISOString(),
    summary: row.summary,
    reference: row.reference ?? null,
    recordedAt: row.recordedAt.toISOString(),
    retainUntil: row.retainUntil.toISOString(),
  };
}

/** A page of the player's log, newest `sentAt` first (ids break ties), after `after`; `limit + 1` rows (the extra says more follow). */
export async function communicationsOf(em: EntityManager, playerId: string, limit: number, after?: ListPosition): Promise<CommunicationRow[]> {
  const at = after ? new Date(after.at) : undefined;
  return em.find(
    CommunicationEntity,
    { playerId, ...(after ? { $or: [{ sentAt: { $lt: at } }, { sentAt: at, id: { $lt: after.id } }] } : {}) },
    { orderBy: [{ sentAt: 'desc' }, { id: 'desc' }], limit: limit + 1 },
  );
}

export const positionOf = (row: CommunicationRow): ListPosition => ({ at: row.sentAt.toISOString(), id: row.id });
