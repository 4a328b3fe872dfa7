// wallet.fundPayout.post (internal, payments → wallet; issue #60 item 6): payments paid one half of a
// transfer to its fund's account and holds the receipt; the wallet posts the move (FUND_PAYOUT: the
// brand's fund-transfer account to its payout clearing) once per payout, asked again until it answers.
import type { fundPayoutMessages } from '@bo/contracts';
import { crashPoint, internalScopeOf, ruleClock, type HandlerOf, type ServiceDeps } from '@bo/service-kit';
import { ensureClearingAccount } from '../../ledger/index.ts';
import { postFundPayout } from '../store/unclaimed-funds.ts';

export function postFundPayoutHandler(deps: ServiceDeps): HandlerOf<typeof fundPayoutMessages.post> {
  return async (req) => {
    internalScopeOf(req);
    const b = req.body;
    // The brand's accounts, ensured before the transaction (committed statements of their own).
    const payableId = await ensureClearingAccount(deps.sql, b.brandId, 'fund_transfer_payable', b.currency);
    const payoutId = await ensureClearingAccount(deps.sql, b.brandId, 'payout_clearing', b.currency);
    const posted = await postFundPayout(deps.sql, b, ruleClock.now(), { payableId, payoutId });
    crashPoint('wallet.fundPayout.after-commit');
    return { status: 200, body: posted };
  };
}
