// The screening simulator: its lists are rows of compliance.screening_simulator_entries, which our
// team edits through the admin API (a change screens every watched player again) and an operator's
// test key through the sandbox routes (its own sandbox players only). Matching is by CPF, exactly:
// what a provider's confirmed match on the Brazilian tax id would give.
import type { Sql } from '@bo/service-kit';
import type { ScreeningHit, ScreeningPort } from './port.ts';

export function screeningSimulator(sql: Sql): ScreeningPort {
  return {
    async screen(subject, caller) {
      const rows = await sql.query<{ id: string; list: ScreeningHit['list']; detail: string }>(
        `select id, list, detail from compliance.screening_simulator_entries
          where cpf = ? and (operator_id is null or (operator_id = ? and ? = 'sandbox')) order by created_at, id`,
        [subject.cpf, caller.operatorId, caller.environment],
      );
      return rows.map((r) => ({ list: r.list, detail: r.detail, reference: r.id }));
    },
  };
}
