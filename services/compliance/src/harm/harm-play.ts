// The harm play pass (issue #68; docs/player-protection.md, "Play"): every HARM_PLAY_INTERVAL_MS, the
// hours of real-money play the wallet counted (wallet.rg_usage: stakes, bets, their squares, net loss,
// seconds played, reality checks acknowledged; harmPlayMessages.playHours) are read from the hour
// before the last pass began, and each player's days brought to the sums of their hours
// (store/harm-play.ts): the stake, loss, time and reality-check markers read them. A player whose days
// changed is marked for assessment, as the harm feed marks them. Every replica may run it: what a
// pass keeps is the wallet's figures, so two passes at once keep the same (under each player's lock).
//
// Why a read and not an event per round: a round pays for nothing here (the wallet's statement already
// adds its stake to the hour's usage), and a pass reads a page of a thousand player-hours in one
// indexed query. Why an hour read again is harmless: a pass keeps each hour as the wallet has it (set,
// never added), so the hour still being played, read at every pass, counts once.
import { harmPlayMessages, isAppError, type HarmPlayHour } from '@bo/contracts';
import { ruleClock, startLoop, type BackgroundTask, type Logger, type ServiceDeps, type Sql } from '@bo/service-kit';
import { localDateOf } from '../domain/business-days.ts';
import { brandOfOurs } from '../reports/brand-zone.ts';
import { keepPlayHours, passedPlayRead, playReadFrom, type PlayHourToKeep } from '../store/harm-play.ts';
import type { PlayerRef } from '../store/watch.ts';
import type { OperatorProfiles } from '../watch/operator-profiles.ts';

const HOUR_MS = 3_600_000;
/** Player-hours per page (one wallet read, one transaction here). */
const PAGE = 1000;
/** The first pass reads this far back: the default recent window and baseline, so a player's usual is known at once. */
export const FIRST_READ_DAYS = 63;

/** The hour of `instant` (0–23) in `timeZone`. */
const hourFormats = new Map<string, Intl.DateTimeFormat>();
export function localHourOf(instant: Date, timeZone: string): number {
  let format = hourFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', hourCycle: 'h23' });
    hourFormats.set(timeZone, format);
  }
  return Number(format.format(instant));
}

/** Night: the hours that start between 00:00 and 06:00 in the operator's time zone (the night_play marker's). */
export const isNightHour = (hour: Date, timeZone: string) => localHourOf(hour, timeZone) < 6;

export interface HarmPlayOptions {
  sql: Sql;
  call: ServiceDeps['call'];
  profiles: Pick<OperatorProfiles, 'complianceOf'>;
  log: Logger;
  intervalMs: number;
}

export function startHarmPlayPass(o: HarmPlayOptions): BackgroundTask {
  // A brand's operator and environment never change: asked once per brand.
  const brands = new Map<string, Promise<Omit<PlayerRef, 'playerId'> | null>>();
  const refOf = (brandId: string) => {
    let ref = brands.get(brandId);
    if (!ref) {
      ref = brandOfOurs(o, brandId).then(
        (b) => ({ brandId, ...b }),
        (e) => {
          brands.delete(brandId);
          if (isAppError(e) && e.code === 'BRAND_NOT_FOUND') return null;
          throw e;
        },
      );
      brands.set(brandId, ref);
    }
    return ref;
  };

  async function toKeep(h: HarmPlayHour): Promise<PlayHourToKeep | undefined> {
    const brand = await refOf(h.brandId);
    if (!brand) return undefined; // not a brand of ours: no operator to count it for
    const { timeZone } = await o.profiles.complianceOf(brand.operatorId);
    const hour = new Date(h.hour);
    return {
      p: { ...brand, playerId: h.playerId },
      hour: h.hour,
      day: localDateOf(hour, timeZone),
      night: isNightHour(hour, timeZone),
      bets: h.bets,
      stakeSum: h.stakeSum,
      stakeSquares: h.stakeSquares,
      netLoss: h.netLoss,
      secondsPlayed: h.secondsPlayed,
      realityChecks: h.realityChecks,
    };
  }

  async function pass(): Promise<void> {
    const began = ruleClock.now();
    const readFrom = (await playReadFrom(o.sql)) ?? new Date(began.getTime() - FIRST_READ_DAYS * 24 * HOUR_MS);
    // One hour at a time (the first pass reads weeks): each page sorts that hour's rows only, and the
    // wallet says which hour holds play next, so the hours nobody played are never asked for.
    let hour: number | null = Math.floor(readFrom.getTime() / HOUR_MS) * HOUR_MS;
    while (hour !== null && hour <= began.getTime()) {
      const window: { fromHour: string; toHour: string } = { fromHour: new Date(hour).toISOString(), toHour: new Date(hour + HOUR_MS).toISOString() };
      let after: { hour: string; brandId: string; playerId: string } | undefined;
      let next: string | null = null;
      for (;;) {
        const page: { hours: HarmPlayHour[]; nextHour?: string | null } = await o.call(harmPlayMessages.playHours.subject, {
          ...window,
          ...(after ? { after } : {}),
          limit: PAGE,
        });
        const keep = (await Promise.all(page.hours.map(toKeep))).filter((h) => h !== undefined);
        if (keep.length > 0) await o.sql.transaction((tx) => keepPlayHours(tx, keep), { idempotent: true });
        const last = page.hours.at(-1);
        if (page.hours.length < PAGE || !last) {
          next = page.nextHour ?? null;
          break;
        }
        after = { hour: last.hour, brandId: last.brandId, playerId: last.playerId };
      }
      hour = next === null ? null : Date.parse(next);
    }
    // The hour under way and the one before stay open to the wallet's late moves (a win credited after
    // the hour turned counts in the hour it is credited in; a rollback in its bet's): read again next pass.
    await passedPlayRead(o.sql, new Date(Math.floor(began.getTime() / HOUR_MS) * HOUR_MS - HOUR_MS));
  }

  const loop = startLoop({ name: 'harm play pass', intervalMs: o.intervalMs, maxBackoffMs: 600_000, log: o.log, run: pass });
  // Not a readiness problem: a pass that failed (the wallet away) is read again from where the last one began.
  return { name: 'harm play pass', stop: () => loop.stop(), problem: () => undefined };
}
