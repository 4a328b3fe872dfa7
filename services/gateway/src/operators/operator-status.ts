// An operator's status read from the gateway's own table, not from a cache: a check made with it
// sees a suspension the moment it commits, on every replica (the credential cache, by contrast,
// is dropped on the other replicas when the broadcast lands).
import type { SqlRunner } from '@bo/service-kit';

export type OperatorStatus = 'active' | 'suspended';

/** The operator's status now; undefined for an unknown operator. */
export function operatorStatusReader(sql: SqlRunner): (operatorId: string) => Promise<OperatorStatus | undefined> {
  return async (operatorId) => {
    const [row] = await sql.query<{ status: OperatorStatus }>('select status from gateway.operators where id = ?', [operatorId]);
    return row?.status;
  };
}
