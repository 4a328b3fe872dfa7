// Process entry: read and validate the configuration, start the players service, stop gracefully on SIGINT/SIGTERM.
import { runMain, startService } from '@bo/service-kit';
import { PlayersConfigSchema } from './config.ts';
import { playersService } from './service.ts';

await runMain('players', PlayersConfigSchema, (config) => startService(playersService, config));
