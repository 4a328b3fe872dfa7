// The harm feed (issue #68): each deposit, declined deposit and cancelled withdrawal of any
// operator's player (both environments, apart: a player is of one) counted once into the player's
// day in the operator's time zone, and the player assessed again, in ONE transaction: a redelivery
// counts nothing and changes nothing. The AML watch's consumer hands it the events (event-watch.ts).
import type { HarmThresholds } from '@bo/contracts';
import type { Sql } from '@bo/service-kit';
import { localDateOf } from '../domain/business-days.ts';
import { countHarmEvent, harmStateOf, saveHarmLevel } from '../store/harm.ts';
import type { PlayerRef } from '../store/watch.ts';
import type { OperatorProfiles } from '../watch/operator-profiles.ts';
import type { HarmEvent } from './harm-events.ts';
import { DEFAULT_HARM_THRESHOLDS } from './harm-thresholds.ts';
import { assessPlayer, changeOf } from './markers.ts';
import { firstDayRead } from './player-day.ts';

export type HarmFeed = (p: PlayerRef, e: HarmEvent) => Promise<void>;

export function harmFeed(o: { sql: Sql; profiles: Pick<OperatorProfiles, 'complianceOf'>; thresholds?: HarmThresholds }): HarmFeed {
  const t = o.thresholds ?? DEFAULT_HARM_THRESHOLDS;
  return async (p, e) => {
    const { timeZone } = await o.profiles.complianceOf(p.operatorId);
    const day = localDateOf(e.at, timeZone);
    await o.sql.transaction(
      async (tx) => {
        if (!(await countHarmEvent(tx, p, e, day))) return;
        // From the event's day's windows: a later assessment day (below) reads within them.
        const { days, since, stored } = await harmStateOf(tx, p.playerId, firstDayRead(day, t));
        // An event of an earlier day (a redelivery after later ones) does not take the assessment back in time.
        const asOf = stored && stored.assessedOn > day ? stored.assessedOn : day;
        const assessment = assessPlayer(days, asOf, t, since);
        await saveHarmLevel(tx, p, assessment, changeOf(stored, assessment), e, stored);
      },
      { idempotent: true },
    );
  };
}
