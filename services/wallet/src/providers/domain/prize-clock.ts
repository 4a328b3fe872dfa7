// The prize clock of a provider's win (issue #46 item 3; docs/eligibility.md, "The prize clock"):
// Portaria SPA/MF 615/2024, art. 7 §4, has prizes paid within 120 minutes of the end of the event
// bet on. A win that names when its event ended (`eventEndedAt`) is the prize's credit: its
// deadline is 120 minutes after that end, and it is on time when the credit's statement ran by then.
// A late credit is still paid (money owed to a player always is): the clock measures, never refuses.
import { PRIZE_CLOCK_MINUTES } from '@bo/contracts';

export type PrizeClock = 'on_time' | 'late' | 'untimed';
export const PRIZE_CLOCKS: readonly PrizeClock[] = ['on_time', 'late', 'untimed'];

/** When the prize of an event that ended at `eventEndedAt` is due. */
export function prizeDueAtOf(eventEndedAt: Date): Date {
  return new Date(eventEndedAt.getTime() + PRIZE_CLOCK_MINUTES * 60_000);
}

/** A credit made at `creditedAt`, against its deadline. */
export function prizeClockOf(creditedAt: Date, dueAt: Date): Exclude<PrizeClock, 'untimed'> {
  return creditedAt.getTime() <= dueAt.getTime() ? 'on_time' : 'late';
}
