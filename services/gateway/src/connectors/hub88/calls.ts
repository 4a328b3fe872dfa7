// Hub88's Wallet API calls as the provider wallet's operations (docs/connectors-hub88.md):
//   /user/info             the player this provider had a session of (the brand is the sub-partner)
//   /user/balance          wallet.provider.balance with the session token (an expired one reads too)
//   /transaction/bet       wallet.provider.bet: transaction_uuid → transactionId, round → roundId;
//                          `round_closed: true` then settles the round (a win of 0.00: `close:<transaction_uuid>`)
//   /transaction/win       the provider wallet's win naming its bet (reference_transaction_uuid, part of its
//                          identity), paid by the wallet only on a live bet of the user
//   /transaction/rollback  wallet.provider.rollback of reference_transaction_uuid (a bet never received: recorded, RS_OK)
// Money Hub88 still sends after its round was settled (a win, a rollback's stake) is owed to the
// player and paid: as a correction credit of the settled round under the call's own transaction_uuid
// (the native API's way to pay a settled round), answered RS_OK.
// Amounts cross as Int64 × 100000 both ways, exactly (a value that is not whole cents is refused,
// never rounded). The token is checked on bets only: wins and rollbacks may come after the
// session. Nothing here keeps an answer: a repeated transaction_uuid is the wallet's replay.
import {
  hub88AmountToMoney,
  moneyToHub88Amount,
  type ErrorBody,
  type Hub88Answer,
  type Hub88BalanceRequest,
  type Hub88BetRequest,
  type Hub88RollbackRequest,
  type Hub88Status,
  type Hub88UserInfoRequest,
  type Hub88WalletCall,
  type Hub88WinRequest,
  type OperationReply,
  type ProviderScope,
  type ProviderTransactionResult,
} from '@bo/contracts';
import type { ProviderWallet } from '../provider-wallet.ts';
import { hub88StatusOf } from './statuses.ts';
import type { TokenPlayers } from '../token-players.ts';

export interface Hub88Context {
  scope: ProviderScope;
  requestId: string;
  wallet: ProviderWallet;
  tokens: TokenPlayers;
}

const refused = (request_uuid: string, user: string | undefined, status: Hub88Status): Hub88Answer => ({
  status,
  request_uuid,
  ...(user === undefined ? {} : { user }),
});

const accepted = (request_uuid: string, user: string, currency: string, balance: string): Hub88Answer => ({
  user,
  status: 'RS_OK',
  request_uuid,
  currency,
  balance: moneyToHub88Amount(balance),
});

/** A refusal of the wallet in Hub88's words; not enough money carries the balance now (Hub88 asks for it). */
function refusalOf(call: Hub88WalletCall, request_uuid: string, user: string, error: ErrorBody, currency?: string): Hub88Answer {
  const status = hub88StatusOf(call, error);
  const balance = (error.details as { balance?: unknown } | undefined)?.balance;
  if (status === 'RS_ERROR_NOT_ENOUGH_MONEY' && typeof balance === 'string' && currency) return { ...accepted(request_uuid, user, currency, balance), status };
  return refused(request_uuid, user, status);
}

const moved = (call: Hub88WalletCall, r: Hub88BetRequest | Hub88WinRequest | Hub88RollbackRequest, reply: OperationReply<ProviderTransactionResult>) =>
  reply.ok
    ? accepted(r.request_uuid, r.user, reply.body.currency, reply.body.balance)
    : refusalOf(call, r.request_uuid, r.user, reply.error, 'currency' in r ? r.currency : undefined);

export async function userInfo(c: Hub88Context, r: Hub88UserInfoRequest): Promise<Hub88Answer> {
  const player = await c.wallet.player(c.scope, r.user, c.requestId);
  if (!player) return refused(r.request_uuid, r.user, 'RS_ERROR_UNKNOWN');
  // What Hub88 needs of the player, and nothing more (LGPD: no name, birth date or e-mail leaves us).
  return { user: r.user, status: 'RS_OK', request_uuid: r.request_uuid, sub_partner_id: player.brandId, country: 'BR' };
}

export async function userBalance(c: Hub88Context, r: Hub88BalanceRequest): Promise<Hub88Answer> {
  const reply = await c.wallet.balance(c.scope, r.token, c.requestId);
  if (!reply.ok) return refusalOf('balance', r.request_uuid, r.user ?? '', reply.error);
  if (r.user !== undefined && r.user !== reply.body.playerId) return refused(r.request_uuid, r.user, 'RS_ERROR_INVALID_TOKEN');
  c.tokens.remember(c.scope, r.token, reply.body.playerId);
  return accepted(r.request_uuid, r.user ?? reply.body.playerId, reply.body.currency, reply.body.balance);
}

/**
 * A call's game as the wallet keys it (part of its transaction's identity), when it can: a code
 * the wallet cannot key (a space, over 128 characters) is left out rather than refuse a win owed.
 */
const keyableGame = (gameCode: string | null | undefined) => (gameCode && /^[\x21-\x7e]{1,128}$/.test(gameCode) ? { gameCode } : {});

/** Our transaction id of the win of 0.00 that closes a round whose bet says `round_closed: true`. */
const hub88CloseId = (transactionUuid: string) => `close:${transactionUuid}`;

/** A conflict only because an earlier call under the id was paid as a correction (a retry of it): `differs` names nothing else. */
function paidAsCorrection(error: ErrorBody): boolean {
  if (error.code !== 'TRANSACTION_CONFLICT') return false;
  const differs = (error.details as { differs?: unknown } | undefined)?.differs;
  return Array.isArray(differs) && differs.includes('kind') && differs.every((d) => d === 'kind' || d === 'betTransactionId');
}

/**
 * Money owed after its round was settled, paid as a correction credit of that round (the native
 * API's way: docs/providers.md, "corrections") under the call's own transaction_uuid, so a retry
 * replays it. A win of 0.00 moves nothing and records nothing: its answer is the balance.
 */
async function paidOnSettledRound(
  c: Hub88Context,
  call: 'win' | 'rollback',
  r: { request_uuid: string; user: string; transaction_uuid: string },
  o: { roundId: string; amount: string; currency: string; reason: string },
): Promise<Hub88Answer> {
  if (o.amount === '0.00') {
    const player = await c.wallet.player(c.scope, r.user, c.requestId);
    return player ? accepted(r.request_uuid, r.user, player.currency, player.balance) : refused(r.request_uuid, r.user, 'RS_ERROR_UNKNOWN');
  }
  const reply = await c.wallet.correction(
    c.scope,
    { transactionId: r.transaction_uuid, playerId: r.user, roundId: o.roundId, amount: o.amount, currency: o.currency, reason: o.reason },
    c.requestId,
  );
  return reply.ok ? accepted(r.request_uuid, r.user, reply.body.currency, reply.body.balance) : refusalOf(call, r.request_uuid, r.user, reply.error);
}

/**
 * A supplier promotion's zero bet (`is_supplier_promo: true`, amount 0; Hub88's changelog, May 2025):
 * it only announces the promotion's win, so it moves and records nothing, and is answered RS_OK with
 * the balance (its token one we issued to this user, its session possibly ended). Its transaction_uuid
 * taken by a call we recorded is a duplicate. The win pays the promotion (supplierPromoWin).
 */
async function supplierPromoBet(c: Hub88Context, r: Hub88BetRequest): Promise<Hub88Answer> {
  if (await c.wallet.transaction(c.scope, r.transaction_uuid, c.requestId)) return refused(r.request_uuid, r.user, 'RS_ERROR_DUPLICATE_TRANSACTION');
  const reply = await c.wallet.balance(c.scope, r.token, c.requestId);
  if (!reply.ok) return refusalOf('bet', r.request_uuid, r.user, reply.error);
  if (reply.body.currency !== r.currency) return refused(r.request_uuid, r.user, 'RS_ERROR_WRONG_CURRENCY');
  return accepted(r.request_uuid, r.user, reply.body.currency, reply.body.balance);
}

export async function bet(c: Hub88Context, r: Hub88BetRequest): Promise<Hub88Answer> {
  const amount = hub88AmountToMoney(r.amount);
  if (amount === undefined) return refused(r.request_uuid, r.user, 'RS_ERROR_WRONG_TYPES');
  const owner = await c.tokens.playerOf(c.wallet, c.scope, r.token, c.requestId);
  if (!owner.ok) return refusalOf('bet', r.request_uuid, r.user, owner.error as ErrorBody);
  if (owner.playerId !== r.user) return refused(r.request_uuid, r.user, 'RS_ERROR_INVALID_TOKEN');
  if (r.is_supplier_promo === true && amount === '0.00') return supplierPromoBet(c, r);
  const body = {
    transactionId: r.transaction_uuid,
    token: r.token,
    roundId: r.round ?? r.transaction_uuid,
    gameCode: r.game_code,
    amount,
    currency: r.currency,
  };
  // A free bet (Hub88's Freebets API, `is_free: true`, issue #59 item 1): its stake is not the
  // player's, so nothing is taken; its round's wins are FREE_BET_WIN (docs/connectors-hub88.md, "Free
  // bets"). Under Brazil's rules it is refused (BONUS_FORBIDDEN: an advantage before a bet).
  // A supplier promotion's bet of an amount is a free bet too (Hub88: `is_free: true` is implied).
  const reply =
    r.is_free === true || r.is_supplier_promo === true
      ? await c.wallet.freeBet(c.scope, { ...body, ...(r.reward_uuid ? { rewardId: r.reward_uuid } : {}) }, c.requestId)
      : await c.wallet.bet(c.scope, body, c.requestId);
  // A bet sent again after its rollback (issue #66): the wallet replays its first answer, but the bet
  // no longer stands (its stake was refunded); Hub88 must never be told it does. Read on replays only.
  if (reply.ok && reply.body.replayed && (await c.wallet.transaction(c.scope, r.transaction_uuid, c.requestId))?.rolledBack) {
    return refused(r.request_uuid, r.user, 'RS_ERROR_DUPLICATE_TRANSACTION');
  }
  // `round_closed: true` on a bet: the round ends with it, no win will come (Hub88: "denotes when
  // the round is closed"). It is settled at once by a win of 0.00, which moves no money, under an id
  // of ours; a retry of the bet closes it again (a replay). A round the close cannot settle (its
  // bets rolled back meanwhile) stays as it is.
  if (reply.ok && r.round_closed === true) {
    await c.wallet.win(
      c.scope,
      {
        transactionId: hub88CloseId(r.transaction_uuid),
        playerId: r.user,
        roundId: reply.body.roundId,
        amount: '0.00',
        currency: reply.body.currency,
        roundClosed: true,
      },
      c.requestId,
    );
  }
  return moved('bet', r, reply);
}

/**
 * A supplier promotion's win (`is_supplier_promo: true`; Hub88's changelog, May 2025): money the game
 * supplier funds, owed whether or not its zero bet reached us, and possibly after its round and the
 * session ended. Paid as the provider wallet's promotional credit (PROMO_CREDIT, `promo_win`) under
 * its transaction_uuid (exactly once; a retry answers the first answer), its promotion the round (or
 * the bet it names). Its token, when sent, must be one we issued to this user (Hub88: "verified to be
 * valid"), its expiry not checked. Under Brazil's rules the wallet's rule for a promotional credit
 * holds (BONUS_FORBIDDEN with no paid bet of the player with the provider before it).
 */
async function supplierPromoWin(c: Hub88Context, r: Hub88WinRequest, amount: string): Promise<Hub88Answer> {
  if (r.token) {
    const owner = await c.tokens.playerOf(c.wallet, c.scope, r.token, c.requestId);
    if (!owner.ok) return refusalOf('win', r.request_uuid, r.user, owner.error as ErrorBody);
    if (owner.playerId !== r.user) return refused(r.request_uuid, r.user, 'RS_ERROR_INVALID_TOKEN');
  }
  // Nothing owed: the balance (Hub88 sends a promotion's win with an amount).
  if (amount === '0.00') {
    const player = await c.wallet.player(c.scope, r.user, c.requestId);
    return player ? accepted(r.request_uuid, r.user, player.currency, player.balance) : refused(r.request_uuid, r.user, 'RS_ERROR_UNKNOWN');
  }
  const reply = await c.wallet.promoCredit(
    c.scope,
    {
      transactionId: r.transaction_uuid,
      playerId: r.user,
      amount,
      currency: r.currency,
      promotionType: 'promo_win',
      promotionId: r.round ?? r.reference_transaction_uuid ?? r.transaction_uuid,
      ...keyableGame(r.game_code),
    },
    c.requestId,
  );
  return moved('win', r, reply);
}

export async function win(c: Hub88Context, r: Hub88WinRequest): Promise<Hub88Answer> {
  const amount = hub88AmountToMoney(r.amount);
  if (amount === undefined) return refused(r.request_uuid, r.user, 'RS_ERROR_WRONG_TYPES');
  if (r.is_supplier_promo === true) return supplierPromoWin(c, r, amount);
  // Only a supplier promotion's win may name no bet.
  if (!r.reference_transaction_uuid) return refused(r.request_uuid, r.user, 'RS_ERROR_WRONG_SYNTAX');
  const betId = r.reference_transaction_uuid;
  // The bet this win pays must be one we took, of this user, not rolled back ("wasn't processed or was
  // rolled back"): the wallet's win of a bet checks it (ROUND_NOT_FOUND otherwise). Its round is the
  // call's, or (none sent) the bet's, read here.
  const roundId = r.round ?? (await c.wallet.transaction(c.scope, betId, c.requestId))?.roundId;
  if (roundId === undefined) return refused(r.request_uuid, r.user, 'RS_ERROR_TRANSACTION_DOES_NOT_EXIST');
  // Its bet is part of a win's identity: the same transaction_uuid naming another bet is a duplicate.
  const reply = await c.wallet.winOfBet(
    c.scope,
    {
      transactionId: r.transaction_uuid,
      playerId: r.user,
      roundId,
      amount,
      currency: r.currency,
      roundClosed: r.round_closed !== false,
      betTransactionId: betId,
      // The game is part of a transaction's identity too (Hub88's statuses: "… round, user or game").
      ...keyableGame(r.game_code),
    },
    c.requestId,
  );
  // A win of a live bet whose round was settled (an earlier win closed it) is still owed: paid.
  const settled =
    !reply.ok &&
    ((reply.error.code === 'ROUND_CLOSED' && (reply.error.details as { status?: unknown } | undefined)?.status === 'settled') || paidAsCorrection(reply.error));
  if (settled) return paidOnSettledRound(c, 'win', r, { roundId, amount, currency: r.currency, reason: 'Hub88 win after its round was settled' });
  return moved('win', r, reply);
}

export async function rollback(c: Hub88Context, r: Hub88RollbackRequest): Promise<Hub88Answer> {
  // The bet's own round when we have the bet (Hub88 may send none); the call's otherwise.
  const ref = await c.wallet.transaction(c.scope, r.reference_transaction_uuid, c.requestId);
  const roundId = ref?.kind === 'bet' || ref?.kind === 'free_bet' ? ref.roundId : (r.round ?? r.reference_transaction_uuid);
  const reply = await c.wallet.rollback(
    c.scope,
    { transactionId: r.transaction_uuid, playerId: r.user, betTransactionId: r.reference_transaction_uuid, roundId },
    c.requestId,
  );
  // Hub88: a rollback whose transaction cannot be found is answered RS_OK. A player this provider
  // never had a session of has nothing to roll back (and no balance of theirs to tell).
  if (!reply.ok && reply.error.code === 'ROUND_NOT_FOUND' && !(reply.error.details as { betTransactionId?: unknown } | undefined)?.betTransactionId) {
    return { user: r.user, status: 'RS_OK', request_uuid: r.request_uuid };
  }
  // A rollback of a live bet of the user whose round was settled (a win, or `round_closed`): the
  // bet is Hub88's to cancel, so its stake is owed back: paid as a correction of the settled round.
  const liveBet = ref?.kind === 'bet' && !ref.neverReceived && !ref.rolledBack && ref.playerId === r.user;
  if (liveBet && !reply.ok && (reply.error.code === 'BET_ALREADY_SETTLED' || paidAsCorrection(reply.error))) {
    return paidOnSettledRound(c, 'rollback', r, {
      roundId,
      amount: ref.amount,
      currency: ref.currency,
      reason: 'Hub88 rollback of a bet whose round was settled',
    });
  }
  return moved('rollback', r, reply);
}
