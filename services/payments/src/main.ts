// Process entry: read and validate the configuration, start the payments service, stop gracefully (the reconciler with it).
// Tracing first: its instrumentations patch modules as they load (service-kit's tracing.ts).
import { startTracing } from '@bo/service-kit/tracing';

await startTracing('payments');
const { runMain, startService } = await import('@bo/service-kit');
const { PaymentsConfigSchema } = await import('./config.ts');
const { paymentsService } = await import('./service.ts');

await runMain('payments', PaymentsConfigSchema, (config) => startService(paymentsService, config));
