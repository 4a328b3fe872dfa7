// Process entry: read and validate the configuration, start the webhooks service, stop gracefully (intake stops, attempts under way finish and are recorded).
import { runMain, startService } from '@bo/service-kit';
import { WebhooksConfigSchema } from './config.ts';
import { webhooksService } from './service.ts';

await runMain('webhooks', WebhooksConfigSchema, (config) => startService(webhooksService, config));
