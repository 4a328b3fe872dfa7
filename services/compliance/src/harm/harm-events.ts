// What the harm feed reads from a domain event (issue #68): a deposit credited, a deposit declined
// or failed (for any reason: the UKGC's "failed deposits" are the player's, whatever the PSP said),
// a withdrawal the player cancelled (its money back in play), a limit the player raised or removed
// (through the operator: our team's changes are not the player's), or a refusal by one of the
// player's own limits. Any other event: nothing. A deposit keeps its payment method (the UKGC's
// "several payment methods"), never who paid.
import { Money } from '@bo/service-kit';
import type { Deposit, DomainEvent, Withdrawal } from '@bo/contracts';
import type { EventBody } from '../watch/money-events.ts';

export const HARM_EVENT_KINDS = ['deposit', 'failed_deposit', 'cancelled_withdrawal', 'limit_raised', 'limit_removed', 'limit_reached'] as const;
export type HarmEventKind = (typeof HARM_EVENT_KINDS)[number];

export interface HarmEvent {
  eventId: string;
  playerId: string;
  kind: HarmEventKind;
  /** The money's amount; null for a limit's event. */
  amount: string | null;
  /** A deposit's payment method, as the operator named it (lower case); null for any other event. */
  method: string | null;
  at: Date;
}

/** `PIX` and `pix ` are one method: the operator names them, we only count how many differ. */
const methodOf = (d: Deposit) => (typeof d.method === 'string' && d.method.trim().toLowerCase()) || null;

export function harmEventOf(e: EventBody): HarmEvent | undefined {
  if (e.type === 'deposit.confirmed') {
    const d = e.data as Deposit;
    return { eventId: e.id, playerId: d.playerId, kind: 'deposit', amount: d.amount, method: methodOf(d), at: new Date(d.confirmedAt ?? e.createdAt) };
  }
  if (e.type === 'deposit.failed') {
    const d = (e.data as { deposit: Deposit }).deposit;
    return { eventId: e.id, playerId: d.playerId, kind: 'failed_deposit', amount: d.amount, method: methodOf(d), at: new Date(d.failedAt ?? e.createdAt) };
  }
  if (e.type === 'withdrawal.status_changed') {
    const { withdrawal: w } = e.data as { withdrawal: Withdrawal };
    if (w.status !== 'cancelled') return undefined;
    return { eventId: e.id, playerId: w.playerId, kind: 'cancelled_withdrawal', amount: w.amount, method: null, at: new Date(w.updatedAt) };
  }
  if (e.type === 'player.limits.changed') {
    const l = e.data as DomainEvent<'player.limits.changed'>['data'];
    if (l.by !== 'operator' || l.previousValue === null) return undefined;
    const kind = l.value === null ? 'limit_removed' : new Money(l.value).gt(l.previousValue) ? 'limit_raised' : undefined;
    return kind && { eventId: e.id, playerId: l.playerId, kind, amount: null, method: null, at: new Date(e.createdAt) };
  }
  if (e.type === 'player.limit.reached') {
    const l = e.data as DomainEvent<'player.limit.reached'>['data'];
    return { eventId: e.id, playerId: l.playerId, kind: 'limit_reached', amount: null, method: null, at: new Date(e.createdAt) };
  }
  return undefined;
}
