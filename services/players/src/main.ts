// Process entry: read and validate the configuration, start the players service, stop gracefully on SIGINT/SIGTERM.
// Tracing first: its instrumentations patch modules as they load (service-kit's tracing.ts).
import { startTracing } from '@bo/service-kit/tracing';

await startTracing('players');
const { runMain, startService } = await import('@bo/service-kit');
const { PlayersConfigSchema } = await import('./config.ts');
const { playersService } = await import('./service.ts');

await runMain('players', PlayersConfigSchema, (config) => startService(playersService, config));
