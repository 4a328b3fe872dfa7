// Process entry: read and validate the configuration, start the compliance service, stop gracefully on SIGINT/SIGTERM.
import { runMain, startService } from '@bo/service-kit';
import { ComplianceConfigSchema } from './config.ts';
import { complianceService } from './service.ts';

await runMain('compliance', ComplianceConfigSchema, (config) => startService(complianceService, config));
