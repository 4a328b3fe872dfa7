// The eligibility rules' days (docs/eligibility.md): a check's calendar day in the operator's time
// zone (at most one registry question per player per day), and the withdrawal window after a hit.
import type { PlayersConfig } from '../../config.ts';

const DAY_MS = 86_400_000;

/** The calendar day of `at` in the operator's time zone (`YYYY-MM-DD`). */
export function dayIn(at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
}

/** After a hit, withdrawals stay open IMPEDIMENT_WITHDRAWAL_DAYS. */
export function withdrawalsUntil(restrictedAt: Date, config: Pick<PlayersConfig, 'IMPEDIMENT_WITHDRAWAL_DAYS'>): Date {
  return new Date(restrictedAt.getTime() + config.IMPEDIMENT_WITHDRAWAL_DAYS * DAY_MS);
}
