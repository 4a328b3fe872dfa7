// An operator's status, kept by a replica for OPERATOR_STATUS_LEASE_MS (a lease) instead of being
// asked of the operators service on every play-page round and provider bet. Two things keep a
// suspension in force on every replica before the admin call that made it answers:
// - the lease is counted from before the question was sent, so it ends before the change commits
//   plus the lease; the operators service waits that long after a status change's commit before it
//   answers (handlers/admin-operators.ts), so no status read before the change is still used;
// - the change's broadcast (`gateway.invalidate`) drops the entry as soon as it lands, and a read in
//   flight across it is not kept (it may have read the old status): the usual case is faster than the wait.
import type { NatsConnection } from '@nats-io/transport-node';
import { gatewayInvalidateSubject, OPERATOR_STATUS_LEASE_MS, type OperatorChanged } from '@bo/contracts';

export type OperatorStatus = 'active' | 'suspended' | undefined;

export interface OperatorStatusLease {
  /** The operator's status: from this replica's lease while it runs, else asked (undefined: unknown operator). */
  status(operatorId: string, requestId: string): Promise<OperatorStatus>;
  stop(): void;
}

export interface OperatorStatusLeaseOptions {
  nc: NatsConnection;
  prefix: string;
  /** `operators.status.get`, asked on a miss. */
  ask(operatorId: string, requestId: string): Promise<OperatorStatus>;
  /** Monotonic milliseconds; tests move it. */
  clock?: () => number;
  leaseMs?: number;
}

const MAX_ENTRIES = 10_000;

export function operatorStatusLease(o: OperatorStatusLeaseOptions): OperatorStatusLease {
  const clock = o.clock ?? (() => performance.now());
  const leaseMs = o.leaseMs ?? OPERATOR_STATUS_LEASE_MS;
  const entries = new Map<string, { status: OperatorStatus; until: number }>();
  // Bumped by every broadcast: an answer asked before a change is not kept after it.
  let generation = 0;
  const sub = o.nc.subscribe(gatewayInvalidateSubject(o.prefix), {
    callback: (err, msg) => {
      generation++;
      if (err) return entries.clear();
      try {
        entries.delete(msg.json<OperatorChanged>().operatorId);
      } catch {
        entries.clear();
      }
    },
  });
  return {
    async status(operatorId, requestId) {
      const kept = entries.get(operatorId);
      if (kept && clock() < kept.until) return kept.status;
      const seen = generation;
      const askedAt = clock();
      const status = await o.ask(operatorId, requestId);
      if (seen === generation) {
        if (entries.size >= MAX_ENTRIES) entries.clear();
        entries.set(operatorId, { status, until: askedAt + leaseMs });
      }
      return status;
    },
    stop: () => sub.unsubscribe(),
  };
}
