// The harm feed (issue #68): each deposit, declined deposit and cancelled withdrawal of any
// operator's player (both environments, apart: a player is of one) counted once into the player's
// day in the operator's time zone, and the player assessed again, in ONE transaction: a redelivery
// counts nothing and changes nothing. The AML watch's consumer hands it the events (event-watch.ts).
//
// Group commit (docs/money.md): the events that arrive while a batch runs go together in the next
// one: one statement counts them all, one reads every player of the batch, and each player is
// assessed once per batch, however many of their events it holds.
import type { HarmThresholds } from '@bo/contracts';
import { groupCommit, type OutboxRelay, type Sql } from '@bo/service-kit';
import { localDateOf } from '../domain/business-days.ts';
import { countHarmEvents, harmStatesOf, saveHarmLevel, type HarmEventToCount } from '../store/harm.ts';
import type { PlayerRef } from '../store/watch.ts';
import type { OperatorProfiles } from '../watch/operator-profiles.ts';
import type { HarmEvent } from './harm-events.ts';
import { DEFAULT_HARM_THRESHOLDS } from './harm-thresholds.ts';
import { assessPlayer, changeOf } from './markers.ts';
import { firstDayRead } from './player-day.ts';

export type HarmFeed = (p: PlayerRef, e: HarmEvent) => Promise<void>;

/** A ceiling: the watch judges a few events at once (WATCH_PARALLEL), so a batch seldom holds more. */
const HARM_BATCH = 32;

export function harmFeed(o: {
  sql: Sql;
  profiles: Pick<OperatorProfiles, 'complianceOf'>;
  outbox: Pick<OutboxRelay, 'poke'>;
  thresholds?: HarmThresholds;
}): HarmFeed {
  const t = o.thresholds ?? DEFAULT_HARM_THRESHOLDS;
  /** True when a level moved: its `player.risk_level_changed` waits in the outbox. */
  const countAndAssess = (items: HarmEventToCount[]): Promise<boolean> =>
    o.sql.transaction(
      async (tx) => {
        const recorded = await countHarmEvents(tx, items);
        // Per player: the events counted now, the earliest and the latest day among them.
        const counted = new Map<string, { p: PlayerRef; first: string; last: HarmEventToCount }>();
        for (const item of items) {
          if (!recorded.has(item.e.eventId)) continue;
          const seen = counted.get(item.p.playerId);
          if (!seen) counted.set(item.p.playerId, { p: item.p, first: item.day, last: item });
          else {
            if (item.day < seen.first) seen.first = item.day;
            if (item.day >= seen.last.day) seen.last = item;
          }
        }
        if (counted.size === 0) return false;
        // From the earliest event's windows: a later assessment day (below) reads within them.
        const states = await harmStatesOf(
          tx,
          [...counted.values()].map((c) => ({ playerId: c.p.playerId, from: firstDayRead(c.first, t) })),
        );
        let moved = false;
        for (const { p, last } of counted.values()) {
          const { days, since, stored } = states.get(p.playerId) ?? { days: [], since: undefined, stored: undefined };
          // An event of an earlier day (a redelivery after later ones) does not take the assessment back in time.
          const asOf = stored && stored.assessedOn > last.day ? stored.assessedOn : last.day;
          const assessment = assessPlayer(days, asOf, t, since);
          if (await saveHarmLevel(tx, p, assessment, changeOf(stored, assessment), last.e, stored)) moved = true;
        }
        return moved;
      },
      { idempotent: true },
    );
  const inBatches = groupCommit<HarmEventToCount, void>({ max: HARM_BATCH }, async (items) => {
    if (await countAndAssess(items)) o.outbox.poke();
    return items.map(() => undefined);
  });
  return async (p, e) => {
    const { timeZone } = await o.profiles.complianceOf(p.operatorId);
    await inBatches({ p, e, day: localDateOf(e.at, timeZone) });
  };
}
