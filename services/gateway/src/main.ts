import { runMain } from '@bo/service-kit';
import { loadGatewayConfig } from './config.ts';
import { startGateway } from './gateway.ts';

await runMain('gateway', () => startGateway(loadGatewayConfig()));
