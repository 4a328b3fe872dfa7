// The simulated PSP key directory's keys (providers/pix-key-simulator.ts): rows of
// payments.simulated_pix_keys per operator, put there by the sandbox routes and the tests.
import type { SqlRunner } from '@bo/service-kit';

/** The CPF that owns `key` for this operator, if the simulator knows the key. */
export async function simulatedKeyOwner(sql: SqlRunner, operatorId: string, key: string): Promise<string | undefined> {
  const rows = await sql.query<{ ownerCpf: string }>('select owner_cpf as "ownerCpf" from payments.simulated_pix_keys where operator_id = ? and key = ?', [
    operatorId,
    key,
  ]);
  return rows[0]?.ownerCpf;
}

export async function addSimulatedPixKey(sql: SqlRunner, operatorId: string, key: string, ownerCpf: string): Promise<void> {
  await sql.query(
    `insert into payments.simulated_pix_keys (operator_id, key, owner_cpf, created_at) values (?, ?, ?, now())
     on conflict (operator_id, key) do update set owner_cpf = excluded.owner_cpf`,
    [operatorId, key, ownerCpf],
  );
}

export async function removeSimulatedPixKey(sql: SqlRunner, operatorId: string, key: string): Promise<boolean> {
  return (await sql.query('delete from payments.simulated_pix_keys where operator_id = ? and key = ? returning key', [operatorId, key])).length > 0;
}
