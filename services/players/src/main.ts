// Process entry: read config, start the players service, stop gracefully on SIGINT/SIGTERM.
import { loadConfig, runMain, startService } from '@bo/service-kit';
import { PlayersConfigSchema } from './config.ts';
import { playersService } from './service.ts';

await runMain('players', () => startService(playersService, loadConfig(PlayersConfigSchema)));
