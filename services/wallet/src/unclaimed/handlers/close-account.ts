// wallet.impeded.closeAccount (players → wallet, at the closing of an account after an impediment hit;
// players impediments/flows/closing.ts): the player's open provider bets are refunded (the providers
// module's refundOpenBets), then the account is recorded as closed after a hit, with the deadline of
// the return to the bettor's own account (closedAt + UNCLAIMED_RETURN_DAYS): what the return has not
// taken by then is held (handlers/job.ts). Asked again until it answers; a repeat refunds nothing
// more and keeps the first deadline. Our own studio's rounds need nothing here: each settles in the
// call that plays it (docs/games.md), so none is ever open.
import type { impededAccountMessages } from '@bo/contracts';
import { internalScopeOf, ruleClock, type HandlerOf, type ServiceDeps } from '@bo/service-kit';
import type { WalletConfig } from '../../config.ts';
import { refundOpenBets } from '../../providers/index.ts';
import { daysAfter } from '../domain/fund-split.ts';
import { recordImpededAccount } from '../store/unclaimed-funds.ts';

export function closeImpededAccount(deps: ServiceDeps<WalletConfig>): HandlerOf<typeof impededAccountMessages.close> {
  return async (req) => {
    internalScopeOf(req);
    const b = req.body;
    const refund = await refundOpenBets(deps, { brandId: b.brandId, playerId: b.playerId }, ruleClock.now());
    const closedAt = new Date(b.closedAt);
    const returnDueAt = await recordImpededAccount(deps.sql, b, closedAt, daysAfter(closedAt, deps.config.UNCLAIMED_RETURN_DAYS));
    return { status: 200, body: { ...refund, returnDueAt: returnDueAt.toISOString() } };
  };
}
