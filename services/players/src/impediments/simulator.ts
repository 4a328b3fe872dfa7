// The simulated SPA impediment registry: no network. Its impeded CPFs are rows of
// players.simulated_impediments per operator (shared by every replica; the sandbox routes and our
// team put them there), and it can be told to be slow or down (settings at start, `control` at run
// time: the tests). `npm start`, the sandbox brands and the tests use it.
import type { ImpedimentReason } from '@bo/contracts';
import type { SqlRunner } from '@bo/service-kit';
import { allAnswered, type ImpedimentAnswer, type ImpedimentRegistry, type RegistryCaller } from './registry.ts';

export interface SimulatorMode {
  /** Answer every question `unavailable`. */
  down: boolean;
  /** Wait this long before answering (a slow registry). */
  latencyMs: number;
}

export interface ImpedimentSimulator extends ImpedimentRegistry {
  control(mode: Partial<SimulatorMode>): void;
  /** How many questions it was asked (one per CPF, batches included). */
  readonly asked: number;
}

export function impedimentSimulator(sql: SqlRunner, initial: Partial<SimulatorMode> = {}): ImpedimentSimulator {
  const mode: SimulatorMode = { down: false, latencyMs: 0, ...initial };
  let asked = 0;
  const answer = async (cpfs: string[], caller: RegistryCaller): Promise<Map<string, ImpedimentAnswer>> => {
    asked += cpfs.length;
    if (mode.latencyMs > 0) await new Promise((r) => setTimeout(r, mode.latencyMs));
    if (mode.down) return allAnswered(cpfs, { result: 'unavailable', why: 'simulator down' });
    const rows = await sql.query<{ cpf: string; reason: ImpedimentReason }>(
      'select cpf, reason from players.simulated_impediments where operator_id = ? and cpf = any(?::text[])',
      [caller.operatorId, cpfs],
    );
    const impeded = new Map(rows.map((r) => [r.cpf, r.reason]));
    return new Map(
      cpfs.map((cpf): [string, ImpedimentAnswer] => {
        const reason = impeded.get(cpf);
        return [cpf, reason ? { result: 'impeded', reasons: [reason] } : { result: 'not_impeded' }];
      }),
    );
  };
  return {
    async check(cpf, caller) {
      return (await answer([cpf], caller)).get(cpf)!;
    },
    checkBatch: answer,
    control(next) {
      Object.assign(mode, next);
    },
    get asked() {
      return asked;
    },
  };
}

/** Puts a CPF on the simulated registry of an operator (replacing its reason). */
export async function addSimulatedImpediment(sql: SqlRunner, operatorId: string, cpf: string, reason: ImpedimentReason, at: Date): Promise<void> {
  await sql.query(
    `insert into players.simulated_impediments (operator_id, cpf, reason, created_at) values (?, ?, ?, ?)
     on conflict (operator_id, cpf) do update set reason = excluded.reason`,
    [operatorId, cpf, reason, at],
  );
}

/** Takes a CPF off; whether it was there. */
export async function removeSimulatedImpediment(sql: SqlRunner, operatorId: string, cpf: string): Promise<boolean> {
  return (await sql.query('delete from players.simulated_impediments where operator_id = ? and cpf = ? returning cpf', [operatorId, cpf])).length > 0;
}
