// Paying the transfers of unclaimed funds to FIES and FUNCAP (issue #60 item 6; docs/money.md, "Unclaimed
// funds"). Each pending payout, one at a time under its row lock (`for update skip locked`: replicas never
// work on the same one), in one transaction:
//   1. the rail pays it to the fund's account (idempotent on the payout id: asked again after a crash or
//      by another replica, it answers the first payment's receipt; refused: `failed`, nothing posted);
//   2. the wallet posts it (wallet.fundPayout.post, FUND_PAYOUT: the brand's fund-transfer account to its
//      payout clearing; idempotent on the payout id);
//   3. `paid` with the receipt and the ledger transaction, committed.
// A crash or an outage anywhere before 3 leaves the row pending: the next pass repeats 1 and 2, which
// answer what they did, so the money leaves once and is posted once.
import { fundPayoutMessages } from '@bo/contracts';
import { crashPoint, ruleClock, startLoop, type BackgroundTask, type ServiceDeps } from '@bo/service-kit';
import type { PaymentsConfig } from '../config.ts';
import type { OwnAccount } from '../own-account/setup.ts';
import { lockNextPending, markFailed, markPaid } from '../store/fund-payouts.ts';

type PayDeps = Pick<ServiceDeps, 'sql' | 'call' | 'log'>;

/** Pays every pending payout it can lock; how many it paid. */
export async function payPendingFundPayouts(deps: PayDeps, own: Pick<OwnAccount, 'fundPayoutRailFor'>): Promise<number> {
  let paid = 0;
  for (let after = ''; ; ) {
    const step = await deps.sql.transaction(async (tx) => {
      const p = await lockNextPending(tx, after);
      if (!p) return undefined;
      const now = ruleClock.now();
      const answer = await own.fundPayoutRailFor(p.environment).send({
        payoutId: p.id,
        fund: p.fund,
        destination: p.destination,
        amount: p.amount,
        currency: p.currency,
        operatorId: p.operator_id,
        environment: p.environment,
      });
      if (answer.result === 'unavailable') {
        deps.log.warn({ payoutId: p.id, why: answer.why }, 'fund payout rail unavailable: the payout waits');
        return { id: p.id, paid: false };
      }
      if (answer.result === 'refused') {
        deps.log.error({ payoutId: p.id, reason: answer.reason }, 'fund payout refused by the rail: our finance team acts');
        await markFailed(tx, p.id, answer.reason, now);
        return { id: p.id, paid: false };
      }
      crashPoint('payments.fundPayout.after-send');
      const posted = await deps.call<{ transactionId: string }>(fundPayoutMessages.post.subject, {
        payoutId: p.id,
        transferId: p.transfer_id,
        fund: p.fund,
        brandId: p.brand_id,
        currency: p.currency,
        amount: p.amount,
      });
      crashPoint('payments.fundPayout.after-post');
      await markPaid(tx, p.id, answer.receipt, posted.transactionId, now);
      return { id: p.id, paid: true };
    });
    if (!step) return paid;
    if (step.paid) paid++;
    after = step.id;
  }
}

export function startFundPayouts(deps: ServiceDeps<PaymentsConfig>, own: OwnAccount): BackgroundTask {
  const name = 'fund payouts';
  const loop = startLoop({
    name,
    intervalMs: deps.config.FUND_PAYOUT_INTERVAL_MS,
    log: deps.log,
    maxBackoffMs: 10 * deps.config.FUND_PAYOUT_INTERVAL_MS,
    run: async () => {
      const paid = await payPendingFundPayouts(deps, own);
      if (paid > 0) deps.log.info({ paid }, 'fund payouts paid');
      return false;
    },
  });
  return { name, stop: loop.stop, problem: loop.problem };
}
