// Process entry: read and validate the configuration, start the operators service, stop gracefully on SIGINT/SIGTERM.
// Tracing first: its instrumentations patch modules as they load (service-kit's tracing.ts).
import { startTracing } from '@bo/service-kit/tracing';

await startTracing('operators');
const { runMain, startService } = await import('@bo/service-kit');
const { OperatorsConfigSchema } = await import('./config.ts');
const { operatorsService } = await import('./service.ts');

await runMain('operators', OperatorsConfigSchema, (config) => startService(operatorsService, config));
