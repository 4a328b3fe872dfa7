// The transfers of unclaimed funds to FIES and FUNCAP, paid by payments (issue #60 item 6): the wallet
// asks for a recorded transfer's payment (payments.fundPayouts.request, internal: idempotent by the
// transfer, each half to its fund's account as configured); our team lists the payouts with their
// receipts (GET /admin/fund-payouts). The paying itself is flows/fund-payouts.ts's loop.
import type { afterHitAdminOperations, fundPayoutMessages } from '@bo/contracts';
import { adminScopeOf, internalScopeOf, listCursor, ruleClock, type HandlerOf, type ServiceDeps } from '@bo/service-kit';
import type { PaymentsConfig } from '../config.ts';
import { listPayouts, payoutPosition, requestPayouts, toFundPayout } from '../store/fund-payouts.ts';

export function requestFundPayouts(deps: ServiceDeps<PaymentsConfig>): HandlerOf<typeof fundPayoutMessages.request> {
  return async (req) => {
    internalScopeOf(req);
    const destinations = { fies: deps.config.FUND_PAYOUT_FIES_ACCOUNT, funcap: deps.config.FUND_PAYOUT_FUNCAP_ACCOUNT };
    const rows = await requestPayouts(deps.sql, req.body, destinations, ruleClock.now());
    return { status: 200, body: { data: rows.map(toFundPayout) } };
  };
}

export function adminListFundPayouts(deps: ServiceDeps<PaymentsConfig>): HandlerOf<typeof afterHitAdminOperations.adminListFundPayouts> {
  const cursors = listCursor(deps.config.LIST_CURSOR_SECRET, 'payments.fund_payouts');
  return async (req) => {
    adminScopeOf(req);
    const scope = [req.query.status ?? '', req.query.brandId ?? ''];
    const limit = req.query.limit ?? 50;
    const after = req.query.cursor !== undefined ? cursors.decode(scope, req.query.cursor) : undefined;
    const rows = await listPayouts(deps.sql, { status: req.query.status, brandId: req.query.brandId }, limit, after);
    return { status: 200, body: cursors.page(scope, rows, limit, toFundPayout, payoutPosition) };
  };
}
