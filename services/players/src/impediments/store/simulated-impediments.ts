// The simulated SPA registry's rows (players.simulated_impediments), per operator: the kit's SQL.
import type { ImpedimentReason } from '@bo/contracts';
import type { SqlRunner } from '@bo/service-kit';

export async function simulatedImpediments(sql: SqlRunner, operatorId: string): Promise<Array<{ cpf: string; reason: ImpedimentReason }>> {
  return sql.query<{ cpf: string; reason: ImpedimentReason }>('select cpf, reason from players.simulated_impediments where operator_id = ?', [operatorId]);
}

/** Puts a CPF on an operator's list, replacing its reason. */
export async function putSimulatedImpediment(sql: SqlRunner, operatorId: string, cpf: string, reason: ImpedimentReason, at: Date): Promise<void> {
  await sql.query(
    `insert into players.simulated_impediments (operator_id, cpf, reason, created_at) values (?, ?, ?, ?)
     on conflict (operator_id, cpf) do update set reason = excluded.reason`,
    [operatorId, cpf, reason, at],
  );
}

/** Takes a CPF off; whether it was there. */
export async function removeSimulatedImpediment(sql: SqlRunner, operatorId: string, cpf: string): Promise<boolean> {
  const rows = await sql.query('delete from players.simulated_impediments where operator_id = ? and cpf = ? returning cpf', [operatorId, cpf]);
  return rows.length > 0;
}
