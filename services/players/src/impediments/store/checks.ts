// The audit of every impediment question and its answer (players.impediment_checks): the kit's SQL.
import type { SqlRunner } from '@bo/service-kit';
import type { ImpedimentMoment } from '../../store/index.ts';
import type { CheckAnswer } from '../domain/internal-registry.ts';

export interface CheckSubject {
  operatorId: string;
  brandId: string;
  playerId: string | null;
  cpf: string;
}

/** The statement that records one question and its answer. */
export function checkRecord(who: CheckSubject, moment: ImpedimentMoment, answer: CheckAnswer, at: Date): { text: string; params: unknown[] } {
  return {
    text: 'insert into players.impediment_checks (operator_id, brand_id, player_id, cpf, moment, outcome, reasons, at) values (?, ?, ?, ?, ?, ?, ?, ?)',
    params: [who.operatorId, who.brandId, who.playerId, who.cpf, moment, answer.result, answer.result === 'impeded' ? answer.reasons.join(',') : null, at],
  };
}

/** Records one question and its answer (on its own connection: a refusal's rollback keeps it). */
export async function recordCheck(sql: SqlRunner, who: CheckSubject, moment: ImpedimentMoment, answer: CheckAnswer, at: Date): Promise<void> {
  const { text, params } = checkRecord(who, moment, answer, at);
  await sql.query(text, params);
}
