// Answering a data request (issue #69): access and portability gather what every service holds about
// the player (`<service>.personalData.export`) into the file; a service that does not answer leaves
// the request `received`, and the privacy loop tries again until the law's 15 days, then alerts.
import { createHash } from 'node:crypto';
import { PERSONAL_DATA_SERVICES, personalDataMessages, type PersonalDataExport } from '@bo/contracts';
import { exportPersonalData, ruleClock, type ServiceDeps } from '@bo/service-kit';
import { personalDataFile } from '../domain/personal-data-file.ts';
import { collectedBefore } from '../domain/retention.ts';
import { playersPersonalData } from '../store/catalogue.ts';
import { answerDataRequest, type DataRequestRow } from '../store/data-requests.ts';
import { retentionFacts } from '../store/player-facts.ts';

/** Every service's rows about the player, this one's read here (throws when one does not answer). */
export async function gatherPersonalData(deps: ServiceDeps, playerId: string): Promise<PersonalDataExport[]> {
  return Promise.all(
    PERSONAL_DATA_SERVICES.map((service) =>
      service === 'players'
        ? exportPersonalData(deps.sql, playersPersonalData, playerId)
        : deps.call<PersonalDataExport>(personalDataMessages(service).export.subject, { playerId }),
    ),
  );
}

/** Makes and keeps the file of an access or portability request; false when it was answered meanwhile. */
export async function answerWithFile(deps: ServiceDeps, r: DataRequestRow): Promise<boolean> {
  const exports = await gatherPersonalData(deps, r.player_id);
  const now = ruleClock.now();
  const facts = await retentionFacts(deps.sql, r.player_id, collectedBefore('connection', now));
  const { file, records } = personalDataFile({
    requestId: r.id,
    playerId: r.player_id,
    operatorId: r.operator_id,
    brandId: r.brand_id,
    exports,
    closedAt: facts.closedAt,
    newestConnection: facts.newestConnection,
    now,
  });
  const text = JSON.stringify(file);
  const sha256 = createHash('sha256').update(text).digest('hex');
  return answerDataRequest(deps.sql, r.id, { status: 'answered', answer: { file: { records, sha256 } }, file: text, at: now });
}
