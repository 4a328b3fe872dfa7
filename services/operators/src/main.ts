// Process entry: read and validate the configuration, start the operators service, stop gracefully on SIGINT/SIGTERM.
import { runMain, startService } from '@bo/service-kit';
import { OperatorsConfigSchema } from './config.ts';
import { operatorsService } from './service.ts';

await runMain('operators', OperatorsConfigSchema, (config) => startService(operatorsService, config));
