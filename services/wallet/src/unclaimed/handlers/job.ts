// The unclaimed-funds job (issue #46 item 4, issue #60 item 6): in every wallet replica every
// UNCLAIMED_FUNDS_INTERVAL_MS, and when our team asks (POST /admin/jobs/unclaimed-funds). Four passes,
// each move its own transaction (store/unclaimed-funds.ts), so runs in several replicas at once, a run
// repeated, or a run killed half-way and run again move every amount exactly once:
//   1. the hold: a closed account past its return deadline with money not reserved by a withdrawal
//      has it moved to the brand's unclaimed-funds account, held UNCLAIMED_HOLD_DAYS (180) from the
//      communication to the bettor (the SPA's FAQ), as the players service's communications log says;
//   2. the clock: a hold made before its communication was reported starts counting once it is;
//   3. the transfer: a hold past its 180 days goes to FIES and FUNCAP (recorded and posted);
//   4. the payment: each transfer not yet asked of payments is (payments pays both halves to the funds'
//      accounts and posts each through wallet.fundPayout.post).
// The players service or payments not answering leaves the work for the next run.
import { fundPayoutMessages, impedimentNoticeMessages, type UnclaimedFundsRun } from '@bo/contracts';
import { crashPoint, ruleClock, startLoop, type BackgroundTask, type ServiceDeps } from '@bo/service-kit';
import type { WalletConfig } from '../../config.ts';
import { ensureClearingAccount } from '../../ledger/index.ts';
import {
  accountsToHold,
  holdBalance,
  holdsAwaitingNotice,
  markPayoutRequested,
  nextHoldDue,
  startHoldClock,
  transferHold,
  transfersToRequest,
} from '../store/unclaimed-funds.ts';

/** Accounts, holds or transfers looked at per pass (a pass that finds this many runs again). */
const BATCH = 100;

type JobDeps = Pick<ServiceDeps<WalletConfig>, 'sql' | 'config' | 'call' | 'log'>;

/** When the operator reports having told the bettor of the block; undefined when none, or the players service did not answer. */
async function noticeOf(deps: JobDeps, brandId: string, playerId: string): Promise<Date | undefined> {
  try {
    const r = await deps.call<{ noticeSentAt: string | null }>(impedimentNoticeMessages.notice.subject, { brandId, playerId });
    return r.noticeSentAt ? new Date(r.noticeSentAt) : undefined;
  } catch (e) {
    deps.log.warn({ err: e, playerId }, 'the communication of a hold could not be asked: its clock waits');
    return undefined;
  }
}

export async function runUnclaimedFunds(deps: JobDeps, now = ruleClock.now()): Promise<UnclaimedFundsRun> {
  const holdDays = deps.config.UNCLAIMED_HOLD_DAYS;
  let holdsCreated = 0;
  for (let more = true; more; ) {
    const due = await accountsToHold(deps.sql, now, BATCH);
    for (const a of due) {
      const unclaimedId = await ensureClearingAccount(deps.sql, a.brandId, 'unclaimed_impeded', a.currency);
      const notice = await noticeOf(deps, a.brandId, a.playerId);
      if (!(await holdBalance(deps.sql, a, now, holdDays, unclaimedId, notice ?? null))) continue;
      holdsCreated++;
      crashPoint('wallet.unclaimed.hold.after-commit');
    }
    more = due.length === BATCH;
  }
  for (let after = '', more = true; more; ) {
    const waiting = await holdsAwaitingNotice(deps.sql, after, BATCH);
    for (const h of waiting) {
      const notice = await noticeOf(deps, h.brandId, h.playerId);
      if (notice) await startHoldClock(deps.sql, h.id, notice, holdDays);
    }
    more = waiting.length === BATCH;
    after = waiting.at(-1)?.id ?? after;
  }
  let transfersRecorded = 0;
  for (let hold = await nextHoldDue(deps.sql, now); hold; hold = await nextHoldDue(deps.sql, now, hold.id)) {
    const unclaimedId = await ensureClearingAccount(deps.sql, hold.brandId, 'unclaimed_impeded', hold.currency);
    const payableId = await ensureClearingAccount(deps.sql, hold.brandId, 'fund_transfer_payable', hold.currency);
    if (!(await transferHold(deps.sql, hold.id, now, { unclaimedId, payableId }))) continue;
    transfersRecorded++;
    crashPoint('wallet.unclaimed.transfer.after-commit');
  }
  let payoutsRequested = 0;
  for (const f of await transfersToRequest(deps.sql, BATCH)) {
    try {
      await deps.call(fundPayoutMessages.request.subject, {
        transferId: f.id,
        operatorId: f.operatorId,
        brandId: f.brandId,
        environment: f.environment,
        currency: f.currency,
        fies: f.fies,
        funcap: f.funcap,
      });
    } catch (e) {
      deps.log.warn({ err: e, transferId: f.id }, 'payments did not take the transfer to pay: asked again on the next run');
      continue;
    }
    await markPayoutRequested(deps.sql, f.id, now);
    payoutsRequested++;
  }
  return { holdsCreated, transfersRecorded, payoutsRequested, ranAt: now.toISOString() };
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
      if (run.holdsCreated + run.transfersRecorded + run.payoutsRequested > 0) deps.log.info(run, 'unclaimed funds moved');
    },
  });
  return [{ name: 'unclaimed funds', stop: loop.stop, problem: loop.problem }];
}
