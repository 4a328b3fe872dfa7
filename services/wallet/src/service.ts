// The wallet service: the ledger and balances, and the games domain, which lives here because
// real-money play moves money and must share the ledger's transactions (see docs/architecture.md).
import { composeService } from '@bo/service-kit';
import { ledgerModule } from './ledger/module.ts';
import { gamesModule } from './games/module.ts';

export const walletService = composeService('wallet', 'wallet', [ledgerModule, gamesModule]);
