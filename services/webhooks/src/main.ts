// Process entry: read config, start the webhooks service, stop gracefully on SIGINT/SIGTERM
// (intake stops, attempts under way finish and are recorded).
import { loadConfig, runMain, startService } from '@bo/service-kit';
import { WebhooksConfigSchema } from './config.ts';
import { webhooksService } from './service.ts';

await runMain('webhooks', () => {
  const config = loadConfig(WebhooksConfigSchema);
  return startService(webhooksService(config), config);
});
