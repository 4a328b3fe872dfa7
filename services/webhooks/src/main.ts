// Process entry: read and validate the configuration, start the webhooks service, stop gracefully (intake stops, attempts under way finish and are recorded).
// Tracing first: its instrumentations patch modules as they load (service-kit's tracing.ts).
import { startTracing } from '@bo/service-kit/tracing';

await startTracing('webhooks');
const { runMain, startService } = await import('@bo/service-kit');
const { WebhooksConfigSchema } = await import('./config.ts');
const { webhooksService } = await import('./service.ts');

await runMain('webhooks', WebhooksConfigSchema, (config) => startService(webhooksService, config));
