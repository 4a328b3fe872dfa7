// The harm feed (issue #68): each deposit, declined deposit and cancelled withdrawal of any
// operator's player (both environments, apart: a player is of one) counted once into the player's
// day in the operator's time zone, and the player marked for assessment, in ONE statement (atomic on
// its own): a redelivery counts nothing. The AML watch's consumer hands it the events (event-watch.ts); the
// assessments loop (harm-assessments.ts) assesses each marked player once, however many events came.
//
// Group commit (docs/money.md): the events that arrive while a batch runs go together in the next one.
import { groupCommit, type Sql } from '@bo/service-kit';
import { localDateOf } from '../domain/business-days.ts';
import { countHarmEvents, type HarmEventToCount } from '../store/harm.ts';
import type { PlayerRef } from '../store/watch.ts';
import type { OperatorProfiles } from '../watch/operator-profiles.ts';
import type { HarmEvent } from './harm-events.ts';

export type HarmFeed = (p: PlayerRef, e: HarmEvent) => Promise<void>;

/** A ceiling: the watch judges a few events at once (WATCH_PARALLEL), so a batch seldom holds more. */
const HARM_BATCH = 32;

export function harmFeed(o: { sql: Sql; profiles: Pick<OperatorProfiles, 'complianceOf'> }): HarmFeed {
  const inBatches = groupCommit<HarmEventToCount, void>({ max: HARM_BATCH }, async (items) => {
    // One statement, its own transaction (its locks held to its end): no begin and commit to wait for.
    await countHarmEvents(o.sql, items);
    return items.map(() => undefined);
  });
  return async (p, e) => {
    const { timeZone } = await o.profiles.complianceOf(p.operatorId);
    await inBatches({ p, e, day: localDateOf(e.at, timeZone) });
  };
}
