// The simulated PSP key directory: no network. Its keys are rows of payments.simulated_pix_keys per
// operator (the sandbox routes put them there); a key it does not know is `not_found`. It can be
// told to be down (settings at start, `control` at run time: the tests).
import type { SqlRunner } from '@bo/service-kit';
import type { PixKeyDirectory } from './pix-key-directory.ts';

export interface PixKeySimulator extends PixKeyDirectory {
  control(mode: { down?: boolean }): void;
}

export function pixKeySimulator(sql: SqlRunner, initial: { down?: boolean } = {}): PixKeySimulator {
  let down = initial.down ?? false;
  return {
    async ownerOf(key, caller) {
      if (down) return { result: 'unavailable', why: 'simulator down' };
      const rows = await sql.query<{ ownerCpf: string }>('select owner_cpf as "ownerCpf" from payments.simulated_pix_keys where operator_id = ? and key = ?', [
        caller.operatorId,
        key,
      ]);
      return rows[0] ? { result: 'found', cpf: rows[0].ownerCpf } : { result: 'not_found' };
    },
    control(mode) {
      if (mode.down !== undefined) down = mode.down;
    },
  };
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
