// Process entry: read and validate the configuration, start the gateway, stop gracefully.
import { runMain } from '@bo/service-kit';
import { GatewayConfigSchema } from './config.ts';
import { startGateway } from './gateway.ts';

await runMain('gateway', GatewayConfigSchema, (config) => startGateway(config));
