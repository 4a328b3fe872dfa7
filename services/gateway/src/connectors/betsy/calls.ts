// Betsy's partner backend calls as the provider wallet's operations (docs/connectors-betsy.md):
//   /user/profile         wallet.provider.authenticate of `token` (a live session)
//   /user/balance         wallet.provider.balance of `token`, of `userId`
//   POST /payment/bet 1   place bet: wallet.provider.bet, the bet's transactionId its id and its round
//                         (the bet slip), `metadata` its slip's legs, `gameType` its game
//   PUT  /payment/bet 2   settle: the first one a win of the slip `settle:<id>` (0 a lost bet,
//                         `refund` its stake back, `cashout` with the user's token); a later one with
//                         another payout (a resettle) a correction of the difference, `resettle:<id>:<n>`
//   PUT  /payment/bet 1   unsettle: a correction taking the payout back, `resettle:<id>:<n>`
//   PUT  /payment/bet 3   rollback: wallet.provider.rollback `rollback:<id>`; of a settled bet a
//                         correction `rollback:<id>` giving the stake back and taking the payout
//                         (a debit the balance does not cover is the player's debt: never refused);
//                         once it is there the bet's result is final: a settle of another payout
//                         is 20, an unsettle or another rollback moves nothing
//   PUT  /payment/bet 5   bet data update: the bet's latest state (odds, selections, status), kept
//                         by the wallet beside the bet with its earlier ones (wallet.connector.betUpdate);
//                         no money, before or after its settle
// Betsy names the bet, not the settlement: a settle's identity is its bet and payout, so a settle
// sent again with the payout in force moves nothing (a cash-out's too, its token then not asked
// again: the session may have ended since), and each change of payout is one correction
// numbered after the bet's earlier ones (two copies of one resettle both number it n: the wallet
// takes it once). Amounts are read from the JSON text (a value that is not whole cents is refused,
// never rounded).
import {
  betsyAmountToMoney,
  betsyError,
  betsyOutcome,
  betsySlipOf,
  betsyUpdateOrder,
  betsyUpdateSlipOf,
  type BetsyAnswer,
  type BetsyBalanceRequest,
  type BetsyBetUpdateRequest,
  type BetsyCall,
  type BetsyError,
  type BetsyPlaceBetRequest,
  type BetsyProfileRequest,
  type BetsyRollbackRequest,
  type BetsySettleRequest,
  type BetsyTransactionAnswer,
  type BetsyUnsettleRequest,
  type ConnectorRound,
  type OperationReply,
  type ProviderScope,
  type ProviderTransactionResult,
} from '@bo/contracts';
import type { ProviderWallet } from '../provider-wallet.ts';
import type { TokenPlayers } from '../token-players.ts';
import { betsyCodeOf } from './statuses.ts';

export interface BetsyContext {
  scope: ProviderScope;
  requestId: string;
  wallet: ProviderWallet;
  tokens: TokenPlayers;
  /** The exact text of a request member's number (JSON.parse's source text), for its holder object. */
  sourceOf: (holder: unknown, key: 'amount' | 'coefficient') => string | undefined;
  /** The request's JSON text as Betsy sent it (a bet data update is kept so: its numbers exact). */
  raw: string;
}

export type BetsyResult = { ok: true; answer: BetsyAnswer } | { ok: false; error: BetsyError };

/** Our transaction ids of a bet's settle, its resettlements (numbered) and its rollback. */
const settleId = (betId: string) => `settle:${betId}`;
const resettleId = (betId: string, n: number) => `resettle:${betId}:${n}`;
const rollbackId = (betId: string) => `rollback:${betId}`;

const refused = (call: BetsyCall, error: { code: string; details?: unknown }): BetsyResult => ({ ok: false, error: betsyError(betsyCodeOf(call, error)) });
const failed = (code: Parameters<typeof betsyError>[0], detail?: string): BetsyResult => ({ ok: false, error: betsyError(code, detail) });
const done = (transactionId: string, transactionTime: string): BetsyResult => ({
  ok: true,
  answer: { transactionId, transactionTime } satisfies BetsyTransactionAnswer,
});
const moved = (call: BetsyCall, betId: string, reply: OperationReply<ProviderTransactionResult>): BetsyResult =>
  reply.ok ? done(betId, reply.body.createdAt) : refused(call, reply.error);

const cents = (money: string) => BigInt(money.replace('.', ''));
const money = (c: bigint) => {
  const sign = c < 0n ? '-' : '';
  const digits = (c < 0n ? -c : c).toString().padStart(3, '0');
  return `${sign}${digits.slice(0, -2)}.${digits.slice(-2)}`;
};

/** The token must be a session we issued to this provider, of `userId` (an expired one too): else 3, before anything moves. */
async function ownerRefusal(c: BetsyContext, token: string, userId: string): Promise<BetsyResult | undefined> {
  const owner = await c.tokens.playerOf(c.wallet, c.scope, token, c.requestId);
  if (!owner.ok) return owner.error.code === 'SERVICE_UNAVAILABLE' ? failed(100) : failed(3);
  return owner.playerId === userId ? undefined : failed(3, 'the token is not the user’s');
}

export async function profile(c: BetsyContext, r: BetsyProfileRequest): Promise<BetsyResult> {
  const reply = await c.wallet.authenticate(c.scope, r.token, c.requestId);
  if (!reply.ok) return refused('profile', reply.error);
  c.tokens.remember(c.scope, r.token, reply.body.playerId);
  const { playerId, currency } = reply.body;
  return { ok: true, answer: { userId: playerId, currency, currencies: [currency], isTest: c.scope.environment === 'sandbox' } };
}

export async function balance(c: BetsyContext, r: BetsyBalanceRequest): Promise<BetsyResult> {
  // The balance reads after the session too (Betsy polls it while its frame is open).
  const reply = await c.wallet.balance(c.scope, r.token, c.requestId);
  if (!reply.ok) return refused('balance', reply.error);
  if (reply.body.playerId !== r.userId) return failed(3, 'the token is not the user’s');
  c.tokens.remember(c.scope, r.token, reply.body.playerId);
  if (reply.body.currency !== r.currency) return failed(5, `the user's currency is ${reply.body.currency}`);
  return { ok: true, answer: { userId: r.userId, currency: reply.body.currency, amount: reply.body.balance } };
}

export async function place(c: BetsyContext, r: BetsyPlaceBetRequest): Promise<BetsyResult> {
  const notOwner = await ownerRefusal(c, r.token, r.userId);
  if (notOwner) return notOwner;
  const amount = betsyAmountToMoney(c.sourceOf(r, 'amount'));
  if (amount === undefined) return failed(5, 'amount is not a whole number of cents');
  // A bonus bet is paid with an advantage Brazil's Lei 14.790/2023 (art. 29) forbids and our ledger has no type for.
  if ((r.bonusId ?? null) !== null || (r.bonusAmount ?? 0) > 0) return failed(5, 'bonus bets are not accepted');
  const slip = betsySlipOf(r, (holder) => c.sourceOf(holder, 'coefficient'));
  if (!slip) return failed(5, 'a coefficient or eventDate we cannot read');
  const reply = await c.wallet.bet(
    c.scope,
    { transactionId: r.transactionId, token: r.token, roundId: r.transactionId, gameCode: r.gameType, amount, currency: r.currency, slip },
    c.requestId,
  );
  return moved('place', r.transactionId, reply);
}

/** The bet slip a settle, unsettle or rollback names, as the user's: undefined answers 5 (unknown to us, or another user's). */
async function betOf(c: BetsyContext, r: { transactionId: string; userId: string }): Promise<ConnectorRound | undefined> {
  const round = await c.wallet.round(c.scope, r.transactionId, c.requestId);
  return round && round.playerId === r.userId ? round : undefined;
}

/**
 * A change of the settled bet's payout to `target`: one correction of the difference (nothing when it
 * is the payout in force). `'taken'`: another call of this bet took the correction's id first with
 * other data (two resettles read the same state): read again.
 */
async function repay(c: BetsyContext, call: BetsyCall, round: ConnectorRound, target: string, id: string, reason: string): Promise<BetsyResult | 'taken'> {
  const difference = cents(target) - cents(round.payout);
  if (difference === 0n) return done(round.roundId, round.lastAt);
  const reply = await c.wallet.correction(
    c.scope,
    { transactionId: id, playerId: round.playerId, roundId: round.roundId, amount: money(difference), currency: round.currency, reason },
    c.requestId,
  );
  if (!reply.ok && reply.error.code === 'TRANSACTION_CONFLICT') return 'taken';
  return moved(call, round.roundId, reply);
}

/** How often a call that lost its correction's id to another call of the same bet reads again. */
const RETRIES_AFTER_TAKEN = 5;
const ourFault = (call: BetsyCall) => refused(call, { code: 'TRANSACTION_CONFLICT' });

/**
 * True when Betsy rolled this settled bet back (its `rollback:<id>` correction is in the ledger): its
 * result can no longer change (a settle is code 20, an unsettle or another rollback moves nothing).
 */
async function rolledBackAfterSettle(c: BetsyContext, betId: string): Promise<boolean> {
  return (await settledBetRollback(c, betId)) !== null;
}

/** A settled bet's rollback correction, when it is in the ledger: every copy of the rollback is answered with its time. */
function settledBetRollback(c: BetsyContext, betId: string) {
  return c.wallet.transaction(c.scope, rollbackId(betId), c.requestId);
}

/**
 * A rolled-back settled bet's payout held at its stake. A resettle or unsettle that read the bet
 * before the rollback's correction committed (or a rollback that read it before theirs) posts a
 * difference computed from what it read, leaving the payout off the stake; whichever of them finishes
 * then reads the bet again and corrects the rest, numbered after the bet's corrections, so two that
 * read the same state post the same correction (the wallet takes it once) and the payout converges.
 */
async function holdRolledBack(c: BetsyContext, r: { transactionId: string; userId: string }): Promise<void> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const round = await betOf(c, r);
    if (!round || cents(round.payout) === cents(round.staked)) return;
    const reply = await c.wallet.correction(
      c.scope,
      {
        transactionId: resettleId(r.transactionId, round.corrections + 1),
        playerId: round.playerId,
        roundId: round.roundId,
        amount: money(cents(round.staked) - cents(round.payout)),
        currency: round.currency,
        reason: 'Rolled back by the sportsbook: a resettlement that crossed the rollback is undone',
      },
      c.requestId,
    );
    // Another writer took that number first: read again.
    if (!reply.ok && reply.error.code !== 'TRANSACTION_CONFLICT') return;
  }
}

/** A cash-out is the user's own act: its token must be a live session of the user's (Betsy's settle page). */
async function cashoutRefusal(c: BetsyContext, r: BetsySettleRequest): Promise<BetsyResult | undefined> {
  const live = await c.wallet.authenticate(c.scope, r.token!, c.requestId);
  if (!live.ok) return refused('settle', live.error);
  return live.body.playerId === r.userId ? undefined : failed(3, 'the token is not the user’s');
}

export async function settle(c: BetsyContext, r: BetsySettleRequest): Promise<BetsyResult> {
  const cashout = r.resultType.toLowerCase() === 'cashout';
  if (cashout && !r.token) return failed(3, 'a cashout carries the user’s token');
  const amount = betsyAmountToMoney(c.sourceOf(r, 'amount'));
  if (amount === undefined) return failed(5, 'amount is not a whole number of cents');
  // Read, then act; a settle that lost a race with another (the round no longer open) reads again once.
  for (let attempt = 0; ; attempt++) {
    const round = await betOf(c, r);
    if (!round) return failed(5, 'no bet of the user with this transactionId');
    if (round.currency !== r.currency) return failed(5, `the bet's currency is ${round.currency}`);
    if (round.status === 'voided') return failed(20, 'the bet was rolled back');
    if (round.status === 'settled') {
      // The payout in force: a settle sent again (Betsy's retry, a cash-out's included, whatever
      // became of the session since) is answered as the first time and moves nothing.
      if (cents(amount) === cents(round.payout)) return done(round.roundId, round.lastAt);
      if (await rolledBackAfterSettle(c, r.transactionId)) return failed(20, 'the bet was rolled back');
      const notTheUsers = cashout ? await cashoutRefusal(c, r) : undefined;
      if (notTheUsers) return notTheUsers;
      const resettled = await repay(
        c,
        'settle',
        round,
        amount,
        resettleId(r.transactionId, round.corrections + 1),
        `Resettled by the sportsbook: ${r.resultType} ${amount}`,
      );
      if (resettled === 'taken') {
        if (attempt < RETRIES_AFTER_TAKEN) continue;
        return ourFault('settle');
      }
      return (await crossedRollback(c, r, resettled)) ?? resettled;
    }
    const notTheUsers = cashout ? await cashoutRefusal(c, r) : undefined;
    if (notTheUsers) return notTheUsers;
    const outcome = betsyOutcome(r.resultType);
    const reply = await c.wallet.win(
      c.scope,
      {
        transactionId: settleId(r.transactionId),
        playerId: r.userId,
        roundId: r.transactionId,
        amount,
        currency: r.currency,
        roundClosed: true,
        ...(outcome ? { outcome } : {}),
      },
      c.requestId,
    );
    // Another settle of this bet (another payout) got there first: this one is then its resettlement.
    const lostRace = !reply.ok && (reply.error.code === 'ROUND_CLOSED' || reply.error.code === 'TRANSACTION_CONFLICT');
    if (!lostRace || attempt > 0) return moved('settle', r.transactionId, reply);
  }
}

export async function unsettle(c: BetsyContext, r: BetsyUnsettleRequest): Promise<BetsyResult> {
  for (let attempt = 0; ; attempt++) {
    const round = await betOf(c, r);
    if (!round) return failed(5, 'no bet of the user with this transactionId');
    // A bet not settled (or rolled back, before or after its settle) has no result to revert.
    if (round.status !== 'settled' || cents(round.payout) === 0n) return done(round.roundId, round.lastAt);
    if (await rolledBackAfterSettle(c, r.transactionId)) return done(round.roundId, round.lastAt);
    const unsettled = await repay(
      c,
      'unsettle',
      round,
      '0.00',
      resettleId(r.transactionId, round.corrections + 1),
      'Unsettled by the sportsbook: the result is reverted',
    );
    if (unsettled === 'taken') {
      if (attempt < RETRIES_AFTER_TAKEN) continue;
      return ourFault('unsettle');
    }
    return (await crossedRollback(c, r, unsettled)) ? done(round.roundId, round.lastAt) : unsettled;
  }
}

/** After a resettle or unsettle moved money: a rollback that committed meanwhile wins (the payout back to the stake, code 20). */
async function crossedRollback(c: BetsyContext, r: { transactionId: string; userId: string }, result: BetsyResult): Promise<BetsyResult | undefined> {
  if (!result.ok || !(await rolledBackAfterSettle(c, r.transactionId))) return undefined;
  await holdRolledBack(c, r);
  return failed(20, 'the bet was rolled back');
}

export async function rollback(c: BetsyContext, r: BetsyRollbackRequest): Promise<BetsyResult> {
  for (let attempt = 0; ; attempt++) {
    const round = await c.wallet.round(c.scope, r.transactionId, c.requestId);
    if (round && round.playerId !== r.userId) return failed(5, 'the bet is another user’s');
    if (round?.status === 'settled') {
      // Betsy takes back a bet it settled: the stake returns and the payout goes, as one correction;
      // what the balance does not cover is the player's debt (docs/providers.md), never a refusal.
      // Sent again (until answered, as Betsy does), it finds its correction and moves nothing more, and is
      // answered as the copy that posted it was: with the correction's time (the bet's latest move may be later).
      const posted = await settledBetRollback(c, r.transactionId);
      if (posted) {
        await holdRolledBack(c, r);
        return done(round.roundId, posted.createdAt);
      }
      const rolledBack = await repay(
        c,
        'rollback',
        round,
        round.staked,
        rollbackId(r.transactionId),
        `Rolled back by the sportsbook (errorCode ${r.errorCode ?? 'none'})`,
      );
      // 'taken': a copy of this rollback, which read another payout, posted it first: rolled back all the same,
      // and answered with that correction's time, as that copy was.
      if (rolledBack !== 'taken' && !rolledBack.ok) return rolledBack;
      await holdRolledBack(c, r);
      if (rolledBack !== 'taken') return rolledBack;
      const taken = await settledBetRollback(c, r.transactionId);
      return done(round.roundId, taken?.createdAt ?? round.lastAt);
    }
    // Open: the stake back. Voided or never received: recorded, nothing moves (a bet arriving later is refused).
    const reply = await c.wallet.rollback(
      c.scope,
      { transactionId: rollbackId(r.transactionId), playerId: r.userId, betTransactionId: r.transactionId, roundId: r.transactionId },
      c.requestId,
    );
    // No wallet of the user with us: there is no bet to find, nothing to give back.
    if (!reply.ok && reply.error.code === 'ROUND_NOT_FOUND' && !round) return done(r.transactionId, new Date().toISOString());
    // Settled between our read and the rollback: read again, and correct it.
    if (!reply.ok && reply.error.code === 'BET_ALREADY_SETTLED' && attempt === 0) continue;
    return moved('rollback', r.transactionId, reply);
  }
}

/** The most of a bet data update we keep (the wallet's limit): a larger one is code 5. */
const MAX_UPDATE_TEXT = 65_536;

/**
 * A bet data update (Betsy's "Bet data update"): "the latest actual state of a bet", sent before or
 * after its settle. The wallet keeps it beside the bet, with the bet's earlier updates; no money
 * moves and the bet's status, stake and payout stay the money calls'. The answer is the other calls'
 * (the bet's id, and when this state was first kept: a copy sent again, or twenty at once, is
 * answered alike and kept once). An update older than the one in force (a lower `version` or
 * `updatedAt`) is kept in the history and answered too: the latest stays. A bet we do not have, or
 * another user's, is 5, as a settle of it.
 */
export async function update(c: BetsyContext, r: BetsyBetUpdateRequest): Promise<BetsyResult> {
  const version = betsyUpdateOrder(r);
  if (version === 'unreadable') return failed(5, 'an updatedAt we cannot read');
  if (Buffer.byteLength(c.raw) > MAX_UPDATE_TEXT) return failed(5, `more than ${MAX_UPDATE_TEXT} bytes`);
  const round = await betOf(c, r);
  if (!round) return failed(5, 'no bet of the user with this transactionId');
  if (r.currency !== undefined && r.currency !== round.currency) return failed(5, `the bet's currency is ${round.currency}`);
  const status = r.status ?? r.resultType ?? null;
  const kept = await c.wallet.betUpdate(
    c.scope,
    {
      roundId: r.transactionId,
      playerId: r.userId,
      version,
      state: c.raw,
      slip: betsyUpdateSlipOf(r, (holder) => c.sourceOf(holder, 'coefficient')) ?? null,
      status: status === null ? null : String(status),
    },
    c.requestId,
  );
  if (!kept) return failed(5, 'no bet of the user with this transactionId');
  return done(r.transactionId, kept.receivedAt);
}
