// The Hub88 connector's face (docs/connectors-hub88.md): its Wallet API routes. Its statuses table
// is exported for the docs' test.
import type { Connector } from '../connector.ts';
import { hub88Routes } from './routes.ts';

export const hub88Connector: Connector = { protocol: 'hub88', register: hub88Routes };
export { HUB88_REFUSALS } from './statuses.ts';
