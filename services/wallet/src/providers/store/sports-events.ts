// The sports bet webhooks (`sports_bet.placed`, `sports_bet.settled`; docs/webhooks.md), written to
// the wallet's outbox BY THE SAME STATEMENT as the money they report (store/postings.ts): an
// `o as (insert into wallet.outbox …)` CTE that inserts the event's row once per row of the CTE it
// reads, so the event exists exactly when the money moved, and a replay (which writes nothing)
// writes no second event.
// - placed: from `x`, the bet's transaction row; its data is all known before the statement, so
//   the committed row is handed to the relay to publish at once (`publishCommitted`).
// - settled: from `r`, the round row the win or rollback updated (`returning *`), only when that
//   row is a sports bet that is no longer open: settled (the win, with the outcome) or voided (its
//   last stake rolled back). Its figures (staked, won, closedAt) are the row's as the statement
//   left it, so the payload is made in SQL; the relay reads it from the outbox (poke).
import { newId, type BetSlip, type EventDataByType } from '@bo/contracts';
import { eventInsertFrom, formatMoney, type OutboxRow } from '@bo/service-kit';

export interface OutboxPart {
  text: string;
  params: unknown[];
}

/** The `sports_bet.placed` outbox insert of a sports bet (reads `x`), and the row to publish once committed. */
export function sportsBetPlaced(b: {
  operatorId: string;
  brandId: string;
  environment: 'sandbox' | 'production';
  playerId: string;
  providerId: string;
  roundId: string;
  transactionId: string;
  gameCode: string;
  currency: string;
  amount: string;
  slip: BetSlip | null;
  at: Date;
}): OutboxPart & { row: OutboxRow } {
  const data: EventDataByType['sports_bet.placed'] = {
    playerId: b.playerId,
    providerId: b.providerId,
    betId: b.roundId,
    transactionId: b.transactionId,
    gameCode: b.gameCode,
    currency: b.currency,
    stake: formatMoney(b.amount),
    slip: b.slip,
    placedAt: b.at.toISOString(),
  };
  const insert = eventInsertFrom('wallet', 'x', { operatorId: b.operatorId, brandId: b.brandId, environment: b.environment }, 'sports_bet.placed', data);
  return { text: insert.text, params: insert.params, row: insert.row };
}

const UTC_MS = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

/** The `sports_bet.settled` outbox insert (reads `r`, the round as the statement left it): none for a casino round or a round still open. */
export function sportsBetSettled(): OutboxPart {
  const eventId = newId('event');
  return {
    text: `insert into wallet.outbox (event_id, subject_type, environment, operator_id, brand_id, payload)
           select ?, 'sports_bet.settled', r.environment, r.operator_id, r.brand_id,
                  jsonb_build_object('id', ?::text, 'type', 'sports_bet.settled',
                    'createdAt', to_char(clock_timestamp() at time zone 'UTC', ${UTC_MS}), 'environment', r.environment,
                    'data', jsonb_build_object('playerId', r.player_id, 'providerId', r.provider_id, 'betId', r.round_id,
                      'gameCode', coalesce((select g.game_code from wallet.games g where g.id = r.game_id), ''), 'currency', r.currency,
                      'status', r.status, 'outcome', r.outcome, 'staked', r.staked::text, 'won', r.won::text, 'slip', r.slip,
                      'settledAt', to_char(r.closed_at at time zone 'UTC', ${UTC_MS})))::text
           from r where r.kind = 'sports' and r.status <> 'open'
           returning 1`,
    params: [eventId, eventId],
  };
}
