// Our team and the unclaimed funds (issue #46 item 4): the held balances and the transfers to the
// funds, listed newest first (signed cursors bound to the filters); the job run now; and the return
// of a held balance to the bettor, a decision on money taken by a person (roles.ts). Both audited
// through the outbox (the kit's writeDecisionAudit: one audit row whatever is lost after the commit).
import { AppError, type afterHitAdminOperations } from '@bo/contracts';
import { adminScopeOf, decisionAuthorOf, listCursor, ruleClock, writeDecisionAudit, type HandlerOf, type ServiceDeps } from '@bo/service-kit';
import type { WalletConfig } from '../../config.ts';
import { ensureClearingAccount } from '../../ledger/index.ts';
import { findHold, holdPosition, listHolds, listTransfers, returnHold, toFundTransfer, toUnclaimedFunds, transferPosition } from '../store/unclaimed-funds.ts';
import { runUnclaimedFunds } from './job.ts';

type Ops = typeof afterHitAdminOperations;

export function adminUnclaimedHandlers(deps: ServiceDeps<WalletConfig>) {
  const holdCursors = listCursor(deps.config.LEDGER_CURSOR_SECRET, 'wallet.unclaimed_holds');
  const transferCursors = listCursor(deps.config.LEDGER_CURSOR_SECRET, 'wallet.fund_transfers');

  const list: HandlerOf<Ops['adminListUnclaimedFunds']> = async (req) => {
    adminScopeOf(req);
    const { status, brandId, playerId } = req.query;
    const scope = [status ?? '', brandId ?? '', playerId ?? ''];
    const limit = req.query.limit ?? 50;
    const after = req.query.cursor !== undefined ? holdCursors.decode(scope, req.query.cursor) : undefined;
    const rows = await listHolds(deps.sql, { status, brandId, playerId }, limit, after);
    return { status: 200, body: holdCursors.page(scope, rows, limit, toUnclaimedFunds, holdPosition) };
  };

  const transfers: HandlerOf<Ops['adminListFundTransfers']> = async (req) => {
    adminScopeOf(req);
    const scope = [req.query.brandId ?? ''];
    const limit = req.query.limit ?? 50;
    const after = req.query.cursor !== undefined ? transferCursors.decode(scope, req.query.cursor) : undefined;
    const rows = await listTransfers(deps.sql, { brandId: req.query.brandId }, limit, after);
    return { status: 200, body: transferCursors.page(scope, rows, limit, toFundTransfer, transferPosition) };
  };

  // The job's moves are transactions of their own (each audited by the ledger): the run our team
  // asked for is audited once it is done, in a transaction of its own (no row for a run that failed).
  const run: HandlerOf<Ops['adminRunUnclaimedFunds']> = async (req) => {
    const by = decisionAuthorOf(adminScopeOf(req), req.ctx);
    const body = await runUnclaimedFunds(deps);
    await deps.sql.transaction((tx) =>
      writeDecisionAudit(tx, deps.schema, by, { action: 'adminRunUnclaimedFunds', target: 'job:unclaimed-funds', before: null, after: body }),
    );
    deps.outbox.poke();
    return { status: 200, body };
  };

  const giveBack: HandlerOf<Ops['adminReturnUnclaimedFunds']> = async (req) => {
    const scope = adminScopeOf(req);
    const found = await findHold(deps.sql, req.params.id);
    if (!found) throw new AppError('UNCLAIMED_FUNDS_NOT_FOUND');
    // The brand's accounts, ensured before the transaction (committed statements of their own).
    const unclaimedId = await ensureClearingAccount(deps.sql, found.brandId, 'unclaimed_impeded', found.currency);
    const payoutId = await ensureClearingAccount(deps.sql, found.brandId, 'payout_clearing', found.currency);
    const { reference } = req.body;
    const done = await deps.sql.transaction(async (tx) => {
      const r = await returnHold(tx, found.id, ruleClock.now(), { reference, actor: scope.actor, unclaimedId, payoutId });
      if (r?.returned) {
        await writeDecisionAudit(tx, deps.schema, decisionAuthorOf(scope, req.ctx), {
          action: 'adminReturnUnclaimedFunds',
          target: `unclaimed:${found.id}`,
          before: found,
          after: r.hold,
        });
      }
      return r;
    });
    if (!done) throw new AppError('UNCLAIMED_FUNDS_NOT_FOUND');
    if (done.returned) deps.outbox.poke();
    // The same return asked again (a retry without its key): its answer; anything else has ended otherwise.
    else if (!(done.hold.status === 'returned' && done.hold.returnReference === reference)) {
      throw new AppError('UNCLAIMED_FUNDS_NOT_HELD', undefined, { status: done.hold.status });
    }
    return { status: 200, body: done.hold };
  };

  return { list, transfers, run, giveBack };
}
