// The Betsy connector's face (docs/connectors-betsy.md): its partner backend API routes. Its
// mapping table is exported for the docs' test.
import type { Connector } from '../connector.ts';
import { betsyRoutes } from './routes.ts';

export const betsyConnector: Connector = { protocol: 'betsy', register: betsyRoutes };
export { BETSY_REFUSALS, betsyCodeOf } from './statuses.ts';
