// Process entry: read config, start the wallet service (ledger + games), stop gracefully.
import { loadConfig, runMain, startService } from '@bo/service-kit';
import { WalletConfigSchema } from './config.ts';
import { walletService } from './service.ts';

await runMain('wallet', () => startService(walletService, loadConfig(WalletConfigSchema)));
