// Process entry: read and validate the configuration, start the compliance service, stop gracefully on SIGINT/SIGTERM.
// Tracing first: its instrumentations patch modules as they load (service-kit's tracing.ts).
import { startTracing } from '@bo/service-kit/tracing';

await startTracing('compliance');
const { runMain, startService } = await import('@bo/service-kit');
const { ComplianceConfigSchema } = await import('./config.ts');
const { complianceService } = await import('./service.ts');

await runMain('compliance', ComplianceConfigSchema, (config) => startService(complianceService, config));
