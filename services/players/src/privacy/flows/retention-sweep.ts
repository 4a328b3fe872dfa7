// The retention sweep (issue #69 item 2; docs/privacy.md, "Retention"): anonymises what has passed its
// retention, in batches, idempotent and restartable. A closed player whose duty ended (five years after
// the account closed) is anonymised in every service, then marked (`anonymised_at`): a pass stopped
// half-way anonymises the same player again, which changes nothing already anonymised. Connection
// data is anonymised six months after it was collected, whatever the account.
import { PERSONAL_DATA_CATEGORY_NAMES, PERSONAL_DATA_SERVICES, personalDataMessages } from '@bo/contracts';
import { anonymisePersonalData, counter, ruleClock, type ServiceDeps } from '@bo/service-kit';
import { playersPersonalData } from '../store/catalogue.ts';
import { closedLongEnoughBefore, collectedBefore } from '../domain/retention.ts';
import { markAnonymised, playersPastRetention, playersWithOldConnections } from '../store/player-facts.ts';

export interface SweepPass {
  players: number;
  connections: number;
  /** A batch was full: more may wait. */
  more: boolean;
}

const ANONYMISED_REASONS = ['relationship', 'connection'] as const;

/** bo_personal_data_anonymised_total, each reason sampled from the start. */
export function anonymisedCounter(deps: Pick<ServiceDeps, 'metrics'>) {
  const c = counter(deps.metrics, 'bo_personal_data_anonymised_total', 'Players anonymised by the retention sweep, by what ended (relationship, connection).', [
    'reason',
  ]);
  for (const reason of ANONYMISED_REASONS) c.inc({ reason }, 0);
  return c;
}

export async function retentionSweepPass(deps: ServiceDeps, batch: number): Promise<SweepPass> {
  const anonymised = anonymisedCounter(deps);
  const now = ruleClock.now();
  const due = await playersPastRetention(deps.sql, closedLongEnoughBefore(now), batch);
  for (const playerId of due) {
    // Every other service first, this one's own rows last (read here, not over NATS).
    for (const service of PERSONAL_DATA_SERVICES.filter((s) => s !== 'players'))
      await deps.call(personalDataMessages(service).anonymise.subject, { playerId, categories: PERSONAL_DATA_CATEGORY_NAMES });
    await anonymisePersonalData(deps.sql, playersPersonalData, playerId, PERSONAL_DATA_CATEGORY_NAMES);
    await markAnonymised(deps.sql, playerId, now);
    anonymised.inc({ reason: 'relationship' });
  }
  const before = collectedBefore('connection', now);
  const old = await playersWithOldConnections(deps.sql, before, batch);
  for (const playerId of old) {
    await anonymisePersonalData(deps.sql, playersPersonalData, playerId, ['connection'], before);
    anonymised.inc({ reason: 'connection' });
  }
  return { players: due.length, connections: old.length, more: due.length === batch || old.length === batch };
}
