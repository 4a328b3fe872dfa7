// The deposits' and withdrawals' records the daily regulator file lists (handlers/regulator-records.ts).
import type { SqlRunner } from '@bo/service-kit';

export interface RegulatorDepositRow {
  id: string;
  player_id: string;
  amount: string;
  currency: string;
  method: string;
  external_reference: string;
  payer_cpf: string | null;
  status: string;
  created_at: string | Date;
  confirmed_at: string | Date | null;
}

export interface RegulatorWithdrawalRow {
  id: string;
  player_id: string;
  amount: string;
  currency: string;
  method: string;
  destination: string;
  status: string;
  created_at: string | Date;
}

export function regulatorDeposits(sql: SqlRunner, brandId: string, depositIds: string[]): Promise<RegulatorDepositRow[]> {
  return sql.query<RegulatorDepositRow>(
    `select id, player_id, amount::text as amount, currency, method, external_reference, payer_cpf, status, created_at, confirmed_at
             from payments.deposits where brand_id = ? and id = any(?::text[]) order by id`,
    [brandId, depositIds],
  );
}

export function regulatorWithdrawals(sql: SqlRunner, brandId: string, withdrawalIds: string[]): Promise<RegulatorWithdrawalRow[]> {
  return sql.query<RegulatorWithdrawalRow>(
    `select id, player_id, amount::text as amount, currency, method, destination, status, created_at
             from payments.withdrawals where brand_id = ? and id = any(?::text[]) order by id`,
    [brandId, withdrawalIds],
  );
}
