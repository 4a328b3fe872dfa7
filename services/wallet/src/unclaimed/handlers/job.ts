// The unclaimed-funds job (issue #46 item 4): in every wallet replica every UNCLAIMED_FUNDS_INTERVAL_MS,
// and when our team asks (POST /admin/jobs/unclaimed-funds). Two passes, each move its own
// transaction (store/unclaimed-funds.ts), so runs in several replicas at once, a run repeated, or a
// run killed half-way and run again move every amount exactly once:
//   1. the hold: a closed account past its return deadline with money not reserved by a withdrawal
//      has it moved to the brand's unclaimed-funds account, held UNCLAIMED_HOLD_DAYS (180);
//   2. the transfer: a hold past its 180 days goes to FIES and FUNCAP (recorded and posted).
import type { UnclaimedFundsRun } from '@bo/contracts';
import { crashPoint, ruleClock, startLoop, type BackgroundTask, type ServiceDeps } from '@bo/service-kit';
import type { WalletConfig } from '../../config.ts';
import { ensureClearingAccount } from '../../ledger/index.ts';
import { accountsToHold, holdBalance, nextHoldDue, transferHold } from '../store/unclaimed-funds.ts';

/** Accounts looked at per pass of the hold (a pass that finds this many runs again). */
const BATCH = 100;

export async function runUnclaimedFunds(deps: Pick<ServiceDeps<WalletConfig>, 'sql' | 'config'>, now = ruleClock.now()): Promise<UnclaimedFundsRun> {
  let holdsCreated = 0;
  for (let more = true; more; ) {
    const due = await accountsToHold(deps.sql, now, BATCH);
    for (const a of due) {
      const unclaimedId = await ensureClearingAccount(deps.sql, a.brandId, 'unclaimed_impeded', a.currency);
      if (!(await holdBalance(deps.sql, a, now, deps.config.UNCLAIMED_HOLD_DAYS, unclaimedId))) continue;
      holdsCreated++;
      crashPoint('wallet.unclaimed.hold.after-commit');
    }
    more = due.length === BATCH;
  }
  let transfersRecorded = 0;
  for (let hold = await nextHoldDue(deps.sql, now); hold; hold = await nextHoldDue(deps.sql, now, hold.id)) {
    const unclaimedId = await ensureClearingAccount(deps.sql, hold.brandId, 'unclaimed_impeded', hold.currency);
    const payableId = await ensureClearingAccount(deps.sql, hold.brandId, 'fund_transfer_payable', hold.currency);
    if (!(await transferHold(deps.sql, hold.id, now, { unclaimedId, payableId }))) continue;
    transfersRecorded++;
    crashPoint('wallet.unclaimed.transfer.after-commit');
  }
  return { holdsCreated, transfersRecorded, ranAt: now.toISOString() };
}

export function startUnclaimedFunds(deps: ServiceDeps<WalletConfig>): BackgroundTask[] {
  const intervalMs = deps.config.UNCLAIMED_FUNDS_INTERVAL_MS;
  if (intervalMs === 0) return [];
  const loop = startLoop({
    name: 'unclaimed funds',
    intervalMs,
    log: deps.log,
    startNow: false,
    maxBackoffMs: intervalMs,
    run: async () => {
      const run = await runUnclaimedFunds(deps);
      if (run.holdsCreated + run.transfersRecorded > 0) deps.log.info(run, 'unclaimed funds moved');
    },
  });
  return [{ name: 'unclaimed funds', stop: loop.stop, problem: loop.problem }];
}
