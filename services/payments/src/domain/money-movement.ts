// What a deposit's row and a withdrawal's row share: whose money, how much, and how it moves.
import { formatMoney } from '@bo/service-kit';

export interface MoneyMovementRow {
  id: string;
  operatorId: string;
  brandId: string;
  environment: 'sandbox' | 'production';
  playerId: string;
  amount: string;
  currency: string;
  method: string;
  createdAt: Date;
  updatedAt: Date;
}

/** The shared fields as the API shows them, first in a deposit's and a withdrawal's object. */
export function movementView(row: MoneyMovementRow): { id: string; playerId: string; amount: string; currency: string; method: string } {
  return { id: row.id, playerId: row.playerId, amount: formatMoney(row.amount), currency: row.currency, method: row.method };
}

/** The shared columns of an insert, in this order, and their values. */
export const MOVEMENT_COLUMNS = 'id, operator_id, brand_id, environment, player_id, amount, currency, method';
export const movementValues = (row: MoneyMovementRow): unknown[] => [
  row.id,
  row.operatorId,
  row.brandId,
  row.environment,
  row.playerId,
  row.amount,
  row.currency,
  row.method,
];
