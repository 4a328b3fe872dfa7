// What the harm feed reads from a domain event (issue #68): a deposit credited, a deposit declined
// or failed (for any reason: the UKGC's "failed deposits" are the player's, whatever the PSP said),
// or a withdrawal the player cancelled (its money back in play). Any other event: nothing.
import type { Deposit, Withdrawal } from '@bo/contracts';
import type { EventBody } from '../watch/money-events.ts';

export const HARM_EVENT_KINDS = ['deposit', 'failed_deposit', 'cancelled_withdrawal'] as const;
export type HarmEventKind = (typeof HARM_EVENT_KINDS)[number];

export interface HarmEvent {
  eventId: string;
  playerId: string;
  kind: HarmEventKind;
  amount: string;
  at: Date;
}

export function harmEventOf(e: EventBody): HarmEvent | undefined {
  if (e.type === 'deposit.confirmed') {
    const d = e.data as Deposit;
    return { eventId: e.id, playerId: d.playerId, kind: 'deposit', amount: d.amount, at: new Date(d.confirmedAt ?? e.createdAt) };
  }
  if (e.type === 'deposit.failed') {
    const d = (e.data as { deposit: Deposit }).deposit;
    return { eventId: e.id, playerId: d.playerId, kind: 'failed_deposit', amount: d.amount, at: new Date(d.failedAt ?? e.createdAt) };
  }
  if (e.type === 'withdrawal.status_changed') {
    const { withdrawal: w } = e.data as { withdrawal: Withdrawal };
    if (w.status !== 'cancelled') return undefined;
    return { eventId: e.id, playerId: w.playerId, kind: 'cancelled_withdrawal', amount: w.amount, at: new Date(w.updatedAt) };
  }
  return undefined;
}
