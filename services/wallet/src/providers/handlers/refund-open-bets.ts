// The closing of an account after an impediment hit refunds the player's open provider bets in full
// (IN SPA/MF 31/2025; issue #46 item 4, docs/eligibility.md "After a hit"). Each refund is the
// rollback the provider could have sent, made by us: ONE statement through the providers' own
// posting (store/postings.ts `postMove`), under the transaction id `bo-void:<the bet's id>`, which
//   - credits the bet's amount back (ROLLBACK) and undoes its usage where it counted;
//   - marks the bet rolled back (`rolled_back_by`) and, with the round's last bet, voids the round;
//   - for a sports bet, writes `sports_bet.settled` (voided) for the operator.
// So the provider's later calls meet the existing rules: a win on the voided round is 409
// ROUND_CLOSED, its own rollback of the bet answers `moved` 0.00 (rolled back already), a new bet of
// the closed player is refused. A bet the provider rolled back (or a round it settled) meanwhile
// fails the statement's conditions and is left as the provider made it. A round still open with a win
// already credited (a partial win, `roundClosed: false`) has its bets refunded in full too (issue #60:
// the IN cancels every open bet with a full refund); the win credited stays the bettor's, and the round
// is voided with its last bet. `roundsLeftOpen` is 0 since then (kept for the contract).
import { newId } from '@bo/contracts';
import { addMoney, subMoney, uniqueViolation, type ServiceDeps } from '@bo/service-kit';
import { ensureProviderClearingAccount } from '../../ledger/index.ts';
import { openBetsOf } from '../store/open-bets.ts';
import { failedCondition, postMove, type CreditPosting } from '../store/postings.ts';
import { sportsBetSettled } from '../store/sports-events.ts';

/** Our own transaction ids on the provider's table start with this: a refund at the closing. */
export const CLOSING_REFUND_PREFIX = 'bo-void:';

export interface OpenBetsRefund {
  refundedBets: number;
  /** The sum refunded (one currency: the player's). */
  refunded: string;
  roundsLeftOpen: number;
}

export async function refundOpenBets(
  deps: Pick<ServiceDeps, 'sql' | 'outbox'>,
  player: { brandId: string; playerId: string },
  at: Date,
): Promise<OpenBetsRefund> {
  const bets = await openBetsOf(deps.sql, player.brandId, player.playerId);
  let refundedBets = 0;
  let refunded = '0.00';
  for (const bet of bets) {
    const move: CreditPosting = {
      id: newId('providerTransaction'),
      kind: 'rollback',
      providerId: bet.providerId,
      environment: bet.environment,
      transactionId: `${CLOSING_REFUND_PREFIX}${bet.betTransactionId}`,
      roundId: bet.roundId,
      betTransactionId: bet.betTransactionId,
      brandId: bet.brandId,
      playerId: player.playerId,
      currency: bet.currency,
      requested: subMoney(0, bet.moved),
      amount: subMoney(0, bet.moved),
      at,
      usageAt: new Date(bet.placedAt),
      clearingAccountId: await ensureProviderClearingAccount(deps.sql, bet.brandId, bet.providerId, bet.currency),
      closingRefund: true,
      ...(bet.roundKind === 'sports' ? { outbox: sportsBetSettled() } : {}),
    };
    try {
      // Undefined: our id is taken, a run of this closing refunded the bet already.
      if (await postMove(deps.sql, move)) {
        refundedBets++;
        refunded = addMoney(refunded, move.amount);
      }
    } catch (e) {
      // The provider rolled the bet back, or settled its round, after our read: its own move stands.
      if (failedCondition(e) === undefined && uniqueViolation(e) === undefined) throw e;
    }
  }
  if (refundedBets > 0) deps.outbox.poke();
  return { refundedBets, refunded, roundsLeftOpen: 0 };
}
