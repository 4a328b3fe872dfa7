// Process entry: read config, start the payments service (with its reconciler), stop gracefully.
import { loadConfig, runMain, startService } from '@bo/service-kit';
import { PaymentsConfigSchema } from './config.ts';
import { paymentsService } from './service.ts';

await runMain('payments', () => startService(paymentsService, loadConfig(PaymentsConfigSchema)));
