// Process entry: read and validate the configuration, start the wallet service, stop gracefully (ledger and games).
import { runMain, startService } from '@bo/service-kit';
import { WalletConfigSchema } from './config.ts';
import { walletService } from './service.ts';

await runMain('wallet', WalletConfigSchema, (config) => startService(walletService, config));
