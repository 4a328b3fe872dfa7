// Process entry: read and validate the configuration, start the gateway, stop gracefully.
// Tracing first: its instrumentations patch modules as they load (service-kit's tracing.ts).
import { startTracing } from '@bo/service-kit/tracing';

await startTracing('gateway');
const { runMain } = await import('@bo/service-kit/edge');
const { GatewayConfigSchema } = await import('./config.ts');
const { startGateway } = await import('./gateway.ts');

await runMain('gateway', GatewayConfigSchema, (config) => startGateway(config));
