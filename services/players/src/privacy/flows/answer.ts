// Answering a data request (issue #69): access and portability gather what every service holds about
// the player (`<service>.personalData.export`) into the file; a service that does not answer leaves
// the request `received`, and the privacy loop tries again until the law's 15 days, then alerts.
import { createHash } from 'node:crypto';
import { PERSONAL_DATA_SERVICES, personalDataMessages, type PersonalDataCursor, type PersonalDataExport, type PersonalDataTable } from '@bo/contracts';
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
      service === 'players' ? exportPersonalData(deps.sql, playersPersonalData, playerId) : exportOf(deps, service, playerId),
    ),
  );
}

/** A service's whole export, page after page (each page within a NATS message), its tables' rows joined. */
async function exportOf(deps: ServiceDeps, service: string, playerId: string): Promise<PersonalDataExport> {
  const tables = new Map<string, PersonalDataTable>();
  let after: PersonalDataCursor | undefined;
  do {
    const page: PersonalDataExport = await deps.call<PersonalDataExport>(personalDataMessages(service).export.subject, {
      playerId,
      ...(after ? { after } : {}),
    });
    for (const t of page.tables) {
      const seen = tables.get(t.table);
      if (seen) seen.rows.push(...t.rows);
      else tables.set(t.table, t);
    }
    after = page.next ?? undefined;
  } while (after);
  return { service, tables: [...tables.values()] };
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
