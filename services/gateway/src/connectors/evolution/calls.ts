// Evolution's One Wallet calls as the provider wallet's operations (docs/connectors-evolution.md):
//   /check         the session of `sid` is live and `userId`'s (wallet.provider.authenticate)
//   /balance       wallet.provider.balance of `sid` (an expired session still reads)
//   /debit         wallet.provider.bet: transaction.id → transactionId, the bet (game.id, refId) → roundId
//   /credit        wallet.provider.win of that bet's round: `credit:<transaction.id>`, the round settled
//   /cancel        wallet.provider.rollback of the debit (transaction.id is the debit's): `cancel:<transaction.id>`
//   /promo_payout  wallet.provider.jackpotWin (a jackpot) or wallet.provider.promoCredit (free rounds'
//                  winnings, a tournament or reward prize): `promo:<promoTransaction.id>` (issue #59 item 1)
// Evolution settles bet by bet (a credit or a cancel names its debit's refId), so each bet is a round
// of its own, `<game.id>:<refId>`: a cancel of one bet while another of the same game is credited is
// then a rollback of an unsettled round, as Evolution expects. Amounts are read from the JSON text
// (a value that is not whole cents is refused, never rounded). The `sid` must be `userId`'s on every
// money call, but only a debit needs it live: credits and cancels come after the session too.
import {
  EVOLUTION_RETRYABLE_STATUSES,
  evolutionAmountToMoney,
  type EvolutionAnswer,
  type EvolutionBalanceRequest,
  type EvolutionCheckAnswer,
  type EvolutionCheckRequest,
  type EvolutionPromoPayoutRequest,
  type EvolutionStatus,
  type EvolutionTransactionRequest,
  type EvolutionWalletCall,
  type OperationReply,
  type ProviderScope,
  type ProviderTransactionResult,
} from '@bo/contracts';
import type { ProviderWallet } from '../provider-wallet.ts';
import type { TokenPlayers } from '../token-players.ts';
import { evolutionStatusOf } from './statuses.ts';

export interface EvolutionContext {
  scope: ProviderScope;
  requestId: string;
  wallet: ProviderWallet;
  tokens: TokenPlayers;
  /** The exact text of the request's `amount` (JSON.parse's source text), for its holder object. */
  amountOf: (holder: unknown) => string | undefined;
}

/** The bet a transaction belongs to, as our wallet keys its round (Evolution settles bet by bet). */
const evolutionRoundOf = (r: EvolutionTransactionRequest) => `${r.game.id}:${r.transaction.refId}`;
/** Our transaction ids of a credit and of a cancel (a cancel carries its debit's own id). */
const evolutionCreditId = (r: EvolutionTransactionRequest) => `credit:${r.transaction.id}`;
const evolutionCancelId = (r: EvolutionTransactionRequest) => `cancel:${r.transaction.id}`;

const answer = (status: EvolutionStatus, uuid: string | undefined, balance: string): EvolutionAnswer => ({
  status,
  balance,
  bonus: '0.00',
  ...(uuid === undefined ? {} : { uuid }),
  ...(EVOLUTION_RETRYABLE_STATUSES.has(status) ? { retransmission: true as const } : {}),
});

/** The player's balance now, for a refusal's answer (Evolution shows it); 0.00 when the sid names nobody of ours. */
async function balanceOf(c: EvolutionContext, sid: string): Promise<string> {
  const r = await c.wallet.balance(c.scope, sid, c.requestId);
  return r.ok ? r.body.balance : '0.00';
}

async function refused(c: EvolutionContext, call: EvolutionWalletCall, r: { uuid?: string; sid: string }, error: { code: string; details?: unknown }) {
  const status = evolutionStatusOf(call, error);
  const kept = (error.details as { balance?: unknown } | undefined)?.balance;
  return answer(status, r.uuid, typeof kept === 'string' ? kept : await balanceOf(c, r.sid));
}

const moved = async (c: EvolutionContext, call: EvolutionWalletCall, r: EvolutionTransactionRequest, reply: OperationReply<ProviderTransactionResult>) =>
  reply.ok ? answer('OK', r.uuid, reply.body.balance) : refused(c, call, r, reply.error);

/**
 * The `sid` must be a session token we issued to this provider, of `userId` (an expired one too):
 * another user's, or none of ours, is INVALID_SID before anything moves.
 */
async function ownerRefusal(c: EvolutionContext, r: { sid: string; userId: string; uuid?: string }): Promise<EvolutionAnswer | undefined> {
  const owner = await c.tokens.playerOf(c.wallet, c.scope, r.sid, c.requestId);
  if (!owner.ok) return answer(owner.error.code === 'SERVICE_UNAVAILABLE' ? 'TEMPORARY_ERROR' : 'INVALID_SID', r.uuid, '0.00');
  if (owner.playerId !== r.userId) return answer('INVALID_SID', r.uuid, '0.00');
  return undefined;
}

export async function check(c: EvolutionContext, r: EvolutionCheckRequest): Promise<EvolutionCheckAnswer> {
  const reply = await c.wallet.authenticate(c.scope, r.sid, c.requestId);
  const status: EvolutionStatus = !reply.ok ? evolutionStatusOf('check', reply.error) : reply.body.playerId === r.userId ? 'OK' : 'INVALID_SID';
  if (reply.ok) c.tokens.remember(c.scope, r.sid, reply.body.playerId);
  // Our session id never changes: Evolution keeps using the one it has.
  return { status, sid: r.sid, ...(r.uuid === undefined ? {} : { uuid: r.uuid }) };
}

export async function balance(c: EvolutionContext, r: EvolutionBalanceRequest): Promise<EvolutionAnswer> {
  const reply = await c.wallet.balance(c.scope, r.sid, c.requestId);
  if (!reply.ok) return answer(evolutionStatusOf('balance', reply.error), r.uuid, '0.00');
  if (reply.body.playerId !== r.userId) return answer('INVALID_SID', r.uuid, '0.00');
  c.tokens.remember(c.scope, r.sid, reply.body.playerId);
  if (reply.body.currency !== r.currency) return answer('INVALID_PARAMETER', r.uuid, reply.body.balance);
  return answer('OK', r.uuid, reply.body.balance);
}

export async function debit(c: EvolutionContext, r: EvolutionTransactionRequest): Promise<EvolutionAnswer> {
  const amount = evolutionAmountToMoney(c.amountOf(r.transaction));
  const notOwner = await ownerRefusal(c, r);
  if (notOwner) return notOwner;
  if (amount === undefined) return answer('INVALID_PARAMETER', r.uuid, await balanceOf(c, r.sid));
  const reply = await c.wallet.bet(
    c.scope,
    { transactionId: r.transaction.id, token: r.sid, roundId: evolutionRoundOf(r), gameCode: r.game.details.table.id, amount, currency: r.currency },
    c.requestId,
  );
  return moved(c, 'debit', r, reply);
}

export async function credit(c: EvolutionContext, r: EvolutionTransactionRequest): Promise<EvolutionAnswer> {
  const amount = evolutionAmountToMoney(c.amountOf(r.transaction));
  const notOwner = await ownerRefusal(c, r);
  if (notOwner) return notOwner;
  if (amount === undefined) return answer('INVALID_PARAMETER', r.uuid, await balanceOf(c, r.sid));
  // The credit settles its bet (a credit of 0 settles it lost); a second credit of the bet is BET_ALREADY_SETTLED.
  const reply = await c.wallet.win(
    c.scope,
    { transactionId: evolutionCreditId(r), playerId: r.userId, roundId: evolutionRoundOf(r), amount, currency: r.currency, roundClosed: true },
    c.requestId,
  );
  return moved(c, 'credit', r, reply);
}

export async function cancel(c: EvolutionContext, r: EvolutionTransactionRequest): Promise<EvolutionAnswer> {
  const notOwner = await ownerRefusal(c, r);
  if (notOwner) return notOwner;
  // The refund is the debit's own stake: the cancel's amount is Evolution's copy of it.
  const reply = await c.wallet.rollback(
    c.scope,
    { transactionId: evolutionCancelId(r), playerId: r.userId, betTransactionId: r.transaction.id, roundId: evolutionRoundOf(r) },
    c.requestId,
  );
  // A debit we never received: the cancel is recorded (the debit arriving later is refused) and
  // nothing moved, which Evolution's status for it says (its retransmission answers the same).
  if (reply.ok && reply.body.moved === '0.00') return answer('BET_DOES_NOT_EXIST', r.uuid, reply.body.balance);
  return moved(c, 'cancel', r, reply);
}

/** What an Evolution promotion type is to our wallet (docs/connectors-evolution.md, "Promotional payouts"). */
export function evolutionPromotionOf(type: string): 'jackpot' | 'free_round_winnings' | 'tournament_prize' | 'promo_win' {
  if (/jackpot/i.test(type)) return 'jackpot';
  if (/freeround/i.test(type)) return 'free_round_winnings';
  if (/tournament/i.test(type)) return 'tournament_prize';
  return 'promo_win';
}

/**
 * A promotional payout (free rounds' winnings, a tournament or reward prize, a jackpot) is a credit
 * with no bet, funded by Evolution (issue #59 item 1): a jackpot win (JACKPOT_WIN) or a promotional
 * credit (PROMO_CREDIT; free rounds' winnings FREE_BET_WIN), idempotent on `promo:<id>`. Under Brazil's
 * rules the wallet refuses an advantage before a bet (BONUS_FORBIDDEN: FINAL_ERROR_ACTION_FAILED).
 */
export async function promoPayout(c: EvolutionContext, r: EvolutionPromoPayoutRequest): Promise<EvolutionAnswer> {
  const amount = evolutionAmountToMoney(c.amountOf(r.promoTransaction));
  const notOwner = await ownerRefusal(c, r);
  if (notOwner) return notOwner;
  if (amount === undefined) return answer('INVALID_PARAMETER', r.uuid, await balanceOf(c, r.sid));
  const kind = evolutionPromotionOf(r.promoTransaction.type);
  const transactionId = `promo:${r.promoTransaction.id}`;
  const campaign = r.promoTransaction.voucherId ?? r.promoTransaction.type;
  const reply =
    kind === 'jackpot'
      ? await c.wallet.jackpotWin(c.scope, { transactionId, playerId: r.userId, jackpotId: campaign, amount, currency: r.currency }, c.requestId)
      : await c.wallet.promoCredit(
          c.scope,
          { transactionId, playerId: r.userId, amount, currency: r.currency, promotionType: kind, promotionId: campaign },
          c.requestId,
        );
  if (reply.ok) return answer('OK', r.uuid, reply.body.balance);
  return refused(c, 'promo_payout', r, reply.error);
}
