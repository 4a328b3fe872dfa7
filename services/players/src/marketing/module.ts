// The marketing module (issue #60 item 2; docs/players.md, "Marketing permission"): the bettor's
// consent through the operator and the daily suppression list (the operator's and our team's). The
// blocks that force the consent off are begun by the flows that begin them (rg, impediments, our
// team's status change) through this module's face.
import { marketingAdminOperations, marketingOperations } from '@bo/contracts';
import { handle } from '@bo/service-kit';
import { ANSWERED_BY_EFFECT, type PlayersModule } from '../module.ts';
import { setMarketingConsent } from './handlers/consent.ts';
import { adminMarketingSuppressions, listMarketingSuppressions } from './handlers/suppressions.ts';

export const marketingModule: PlayersModule = {
  entities: [],
  migrations: [],
  handlers: (deps) => ({
    ...handle(marketingOperations.setMarketingConsent, setMarketingConsent(deps), ANSWERED_BY_EFFECT),
    ...handle(marketingOperations.listMarketingSuppressions, listMarketingSuppressions(deps)),
    ...handle(marketingAdminOperations.adminMarketingSuppressions, adminMarketingSuppressions(deps)),
  }),
};
