// What the watch reads from a domain event: the money movement it records, or nothing (an event
// it does not watch). Deposits count once confirmed; withdrawals once requested (the event with no
// previous status); a deposit refused because its payer was not the player (`deposit.failed`
// with failureReason `payer_mismatch`, from the eligibility work) is an attempt of its own.
import type { Deposit, Withdrawal } from '@bo/contracts';
import type { MoneyEvent } from '../domain/rules.ts';

export type WatchedEvent = (MoneyEvent & { playerId: string }) | (Omit<MoneyEvent, 'kind'> & { kind: 'failed_deposit'; playerId: string });

/** A domain event's envelope as the events stream carries it. */
export interface EventBody {
  id: string;
  type: string;
  createdAt: string;
  data: unknown;
}

export function watchedEventOf(e: EventBody): WatchedEvent | undefined {
  if (e.type === 'deposit.confirmed') {
    const d = e.data as Deposit;
    return {
      eventId: e.id,
      playerId: d.playerId,
      kind: 'deposit',
      reference: d.id,
      amount: d.amount,
      destination: null,
      at: new Date(d.confirmedAt ?? e.createdAt),
    };
  }
  if (e.type === 'withdrawal.status_changed') {
    const { withdrawal: w, previousStatus } = e.data as { withdrawal: Withdrawal; previousStatus: string | null };
    if (previousStatus !== null) return undefined;
    return {
      eventId: e.id,
      playerId: w.playerId,
      kind: 'withdrawal',
      reference: w.id,
      amount: w.amount,
      destination: w.destination,
      at: new Date(w.createdAt),
    };
  }
  if (e.type === 'deposit.failed') {
    // `{ deposit, refundRequired }` (contracts' events.ts): the payments service's br-spa payer check.
    const d = (e.data as { deposit: Deposit }).deposit;
    if (d.failureReason !== 'payer_mismatch') return undefined;
    return {
      eventId: e.id,
      playerId: d.playerId,
      kind: 'failed_deposit',
      reference: d.id,
      amount: d.amount,
      destination: null,
      at: new Date(d.failedAt ?? e.createdAt),
    };
  }
  return undefined;
}
