// The provider wallet as a connector reaches it: its own operations (bet, win, rollback, correction,
// balance, …: the handlers /provider/v1 reaches, on the same NATS subjects, under the provider's
// scope), the win that names its bet (the same handler, connectorMessages.win), the connector
// reads (a player the provider had a session of, one of its transactions or rounds by id) and a
// sportsbook's data update of a bet (kept beside it, no money: connectorMessages.betUpdate).
// Nothing here moves money itself or keeps an answer: the wallet's transaction ids do.
import {
  connectorMessages,
  providerOperations,
  requestOperation,
  type OperationReply,
  type ProviderBalanceSchema,
  type ProviderScope,
  type ProviderSession,
  type ProviderTransactionResult,
} from '@bo/contracts';
import type { Static } from '@sinclair/typebox';
import type { NatsConnection } from '@nats-io/transport-node';

type ConnectorReply<K extends keyof typeof connectorMessages> = Static<(typeof connectorMessages)[K]['reply']>;

export interface ProviderWallet {
  bet(scope: ProviderScope, body: unknown, requestId: string): Promise<OperationReply<ProviderTransactionResult>>;
  win(scope: ProviderScope, body: unknown, requestId: string): Promise<OperationReply<ProviderTransactionResult>>;
  rollback(scope: ProviderScope, body: unknown, requestId: string): Promise<OperationReply<ProviderTransactionResult>>;
  /** A correction of a settled round (a credit, or a debit taken up to the balance: the debt model). */
  correction(scope: ProviderScope, body: unknown, requestId: string): Promise<OperationReply<ProviderTransactionResult>>;
  /** Issue #59 item 1: what the provider funds (a free bet, a promotional credit, a jackpot win). */
  freeBet(scope: ProviderScope, body: unknown, requestId: string): Promise<OperationReply<ProviderTransactionResult>>;
  promoCredit(scope: ProviderScope, body: unknown, requestId: string): Promise<OperationReply<ProviderTransactionResult>>;
  jackpotWin(scope: ProviderScope, body: unknown, requestId: string): Promise<OperationReply<ProviderTransactionResult>>;
  /** A win that names the bet it pays: the bet is part of the win's identity (connectorMessages.win). */
  winOfBet(scope: ProviderScope, body: unknown, requestId: string): Promise<OperationReply<ProviderTransactionResult>>;
  balance(scope: ProviderScope, token: string, requestId: string): Promise<OperationReply<Static<typeof ProviderBalanceSchema>>>;
  /** The live session of a token (an expired one is refused): Evolution's /check. */
  authenticate(scope: ProviderScope, token: string, requestId: string): Promise<OperationReply<ProviderSession>>;
  player(scope: ProviderScope, playerId: string, requestId: string): Promise<ConnectorReply<'player'>['player']>;
  transaction(scope: ProviderScope, transactionId: string, requestId: string): Promise<ConnectorReply<'transaction'>['transaction']>;
  /** One of its rounds (a sportsbook's bet slip) by id: status, stake, payout, corrections. */
  round(scope: ProviderScope, roundId: string, requestId: string): Promise<ConnectorReply<'round'>['round']>;
  /** A sportsbook's data update of a player's bet, kept (once for the same state): when, or null (no such bet of the player's). */
  betUpdate(scope: ProviderScope, body: Static<typeof connectorMessages.betUpdate.body>, requestId: string): Promise<ConnectorReply<'betUpdate'>['update']>;
}

export function providerWallet(o: { nc: NatsConnection; prefix: string; timeoutMs: number }): ProviderWallet {
  const ask = <R>(subject: string, scope: ProviderScope, body: unknown, requestId: string) =>
    requestOperation<R>(o.nc, subject, { ctx: { requestId, scope }, params: {}, query: {}, body }, { prefix: o.prefix, timeoutMs: o.timeoutMs });
  /** A read (or a bet update) that must answer: a refusal of it is a fault of ours (thrown, answered as an unknown error). */
  const read = async <K extends 'player' | 'transaction' | 'round' | 'betUpdate'>(
    k: K,
    scope: ProviderScope,
    body: unknown,
    requestId: string,
  ): Promise<ConnectorReply<K>> => {
    const r = await ask<ConnectorReply<K>>(connectorMessages[k].subject, scope, body, requestId);
    if (!r.ok) throw new Error(`${connectorMessages[k].subject}: ${r.error.code}`);
    return r.body;
  };
  return {
    bet: (scope, body, requestId) => ask(providerOperations.providerBet.subject, scope, body, requestId),
    win: (scope, body, requestId) => ask(providerOperations.providerWin.subject, scope, body, requestId),
    rollback: (scope, body, requestId) => ask(providerOperations.providerRollback.subject, scope, body, requestId),
    correction: (scope, body, requestId) => ask(providerOperations.providerCorrection.subject, scope, body, requestId),
    winOfBet: (scope, body, requestId) => ask(connectorMessages.win.subject, scope, body, requestId),
    freeBet: (scope, body, requestId) => ask(providerOperations.providerFreeBet.subject, scope, body, requestId),
    promoCredit: (scope, body, requestId) => ask(providerOperations.providerPromoCredit.subject, scope, body, requestId),
    jackpotWin: (scope, body, requestId) => ask(providerOperations.providerJackpotWin.subject, scope, body, requestId),
    balance: (scope, token, requestId) => ask(providerOperations.providerBalance.subject, scope, { token }, requestId),
    authenticate: (scope, token, requestId) => ask(providerOperations.providerAuthenticate.subject, scope, { token }, requestId),
    player: async (scope, playerId, requestId) => (await read('player', scope, { playerId }, requestId)).player,
    transaction: async (scope, transactionId, requestId) => (await read('transaction', scope, { transactionId }, requestId)).transaction,
    round: async (scope, roundId, requestId) => (await read('round', scope, { roundId }, requestId)).round,
    betUpdate: async (scope, body, requestId) => (await read('betUpdate', scope, body, requestId)).update,
  };
}
