// The open sweep's row through its entity (the ORM): locked by the batch that runs, its counters and
// cursor written at the batch's commit.
import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import { ImpedimentSweepEntity, type ImpedimentSweepRow } from '../../store/index.ts';

/** The sweep if still open, locked; null when another replica holds it (skip locked) or it finished. */
export async function lockOpenSweep(tx: EntityManager, sweepId: string): Promise<ImpedimentSweepRow | null> {
  return tx.findOne(ImpedimentSweepEntity, { id: sweepId, finishedAt: null }, { lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE });
}
