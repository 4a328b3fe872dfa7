// The unclaimed module of the wallet (issue #46 item 4; docs/eligibility.md "After a hit"): the money
// of accounts closed after an impediment hit. At the closing the players service asks it to refund
// the player's open bets and record the account; what the return to the bettor's own account has not
// taken by its deadline is held 180 days from the communication to the bettor on the brand's
// unclaimed-funds account, then transferred to FIES and FUNCAP and paid to them through payments. Its tables' migration must run after the providers' (the accounts' kinds): it is
// the last module of the wallet's composition.
import { afterHitAdminOperations, fundPayoutMessages, impededAccountMessages } from '@bo/contracts';
import { handle, type ServiceModule } from '@bo/service-kit';
import type { WalletConfig } from '../config.ts';
import { unclaimedMigrations } from './store/migrations.ts';
import { closeImpededAccount } from './handlers/close-account.ts';
import { adminUnclaimedHandlers } from './handlers/admin.ts';
import { startUnclaimedFunds } from './handlers/job.ts';
import { postFundPayoutHandler } from './handlers/fund-payout.ts';

export const unclaimedModule: ServiceModule<WalletConfig> = {
  entities: [],
  migrations: unclaimedMigrations,
  handlers: (deps) => {
    const admin = adminUnclaimedHandlers(deps);
    return {
      ...handle(impededAccountMessages.close, closeImpededAccount(deps)),
      // Payments paid a transfer's half to its fund (issue #60): the ledger move.
      ...handle(fundPayoutMessages.post, postFundPayoutHandler(deps)),
      ...handle(afterHitAdminOperations.adminListUnclaimedFunds, admin.list),
      ...handle(afterHitAdminOperations.adminListFundTransfers, admin.transfers),
      ...handle(afterHitAdminOperations.adminRunUnclaimedFunds, admin.run),
      ...handle(afterHitAdminOperations.adminReturnUnclaimedFunds, admin.giveBack),
    };
  },
  background: (deps) => startUnclaimedFunds(deps),
};
