// Process entry: read and validate the configuration, start the wallet service, stop gracefully (ledger and games).
// Tracing first: its instrumentations patch modules as they load (service-kit's tracing.ts).
import { startTracing } from '@bo/service-kit/tracing';

await startTracing('wallet');
const { runMain, startService } = await import('@bo/service-kit');
const { WalletConfigSchema } = await import('./config.ts');
const { walletService } = await import('./service.ts');

await runMain('wallet', WalletConfigSchema, (config) => startService(walletService, config));
