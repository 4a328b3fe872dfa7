// The integrity module of the wallet (issue #60 item 3; docs/games.md, "Integrity holds"): our
// compliance team holds a sports slip's prize under an integrity suspicion (Portaria SPA/MF
// 1.231/2024 art. 26 III–IV). The provider's win of a held slip is accepted and kept on the brand's
// integrity-hold account (the providers module's win asks holdWinIfHeld first); another person
// releases it to the player or forfeits it; the suspicious-betting export lists the held slips by
// event. Its migration changes the accounts' kinds after unclaimed's: the last module of the wallet.
import { integrityAdminOperations } from '@bo/contracts';
import { handle, type ServiceModule } from '@bo/service-kit';
import type { WalletConfig } from '../config.ts';
import { integrityMigrations } from './store/migrations.ts';
import { adminIntegrityHandlers } from './handlers/admin.ts';

export const integrityModule: ServiceModule<WalletConfig> = {
  entities: [],
  migrations: integrityMigrations,
  handlers: (deps) => {
    const admin = adminIntegrityHandlers(deps);
    return {
      ...handle(integrityAdminOperations.adminPlaceIntegrityHold, admin.place),
      ...handle(integrityAdminOperations.adminListIntegrityHolds, admin.list),
      ...handle(integrityAdminOperations.adminReleaseIntegrityHold, admin.release),
      ...handle(integrityAdminOperations.adminForfeitIntegrityHold, admin.forfeit),
      ...handle(integrityAdminOperations.adminSuspiciousBettingExport, admin.exportFile),
    };
  },
};
