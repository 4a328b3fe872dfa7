// Process entry: read and validate the configuration, start the payments service, stop gracefully (the reconciler with it).
import { runMain, startService } from '@bo/service-kit';
import { PaymentsConfigSchema } from './config.ts';
import { paymentsService } from './service.ts';

await runMain('payments', PaymentsConfigSchema, (config) => startService(paymentsService, config));
