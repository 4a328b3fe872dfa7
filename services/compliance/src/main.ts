// Process entry: read and validate the configuration, start the compliance service, stop gracefully on SIGINT/SIGTERM.
// Tracing first: its instrumentations patch modules as they load (service-kit's tracing.ts).
import { startTracing } from '@bo/service-kit/tracing';

await startTracing('compliance');
const { runMain, startService } = await import('@bo/service-kit');
const { ComplianceConfigSchema } = await import('./config.ts');
const { complianceService, screeningRefusal } = await import('./service.ts');

await runMain('compliance', ComplianceConfigSchema, (config) => {
  // One line before anything connects, as for a development secret (issue #60).
  const refusal = screeningRefusal(config);
  if (refusal) {
    process.stderr.write(`compliance: refusing to start in production: ${refusal}\n`);
    process.exit(1);
  }
  return startService(complianceService, config);
});
