// The Evolution connector's face (docs/connectors-evolution.md): its One Wallet routes. Its statuses
// table is exported for the docs' test.
import type { Connector } from '../connector.ts';
import { evolutionRoutes } from './routes.ts';

export const evolutionConnector: Connector = { protocol: 'evolution', register: evolutionRoutes };
export { EVOLUTION_REFUSALS, evolutionStatusOf } from './statuses.ts';
