// NATS handlers of the ledger module. Public reads need an operator scope (and answer only
// about that brand's players), money commands an internal scope, verification an admin scope.
import {
  AppError,
  validationError,
  walletAdminOperations,
  walletMessages,
  walletOperations,
  MAX_AMOUNT,
  playerStatesOf,
  type OperatorScope,
  type PlayerState,
} from '@bo/contracts';
import {
  adminScopeOf,
  handle,
  inOneSnapshot,
  internalScopeOf,
  isPositiveWithin,
  listCursor,
  operatorScopeOf,
  type Handler,
  type ServiceDeps,
} from '@bo/service-kit';
import type { WalletConfig } from '../../config.ts';
import { CREDIT_GROUP, captureHold, creditDeposit, creditStatements, holdWithdrawal, releaseHold, type CreditPosting } from '../store/commands.ts';
import { readEntries, readWallet } from '../store/queries.ts';
import { verifyLedger } from '../store/verify.ts';
import { ledgerVerifyRecorder } from './verify-metrics.ts';

/** The bound the schema cannot express: > 0 and ≤ the contract's maximum. */
function checkedAmount(amount: string): string {
  if (!isPositiveWithin(amount, MAX_AMOUNT)) throw validationError('body', [{ path: '/amount', message: `must be > 0 and <= ${MAX_AMOUNT}` }]);
  return amount;
}

export function ledgerHandlers(deps: ServiceDeps<WalletConfig>): Record<string, Handler> {
  // Bound to the brand and the player: another player's cursor is refused.
  const cursors = listCursor(deps.config.LEDGER_CURSOR_SECRET, 'wallet.transactions');
  const players = playerStatesOf(deps);
  const recordVerification = ledgerVerifyRecorder(deps.metrics);
  // Concurrent deposits' credits share one statement (docs/money.md, "Group commit").
  const credits = deps.statementGroup<CreditPosting, { available: string; held: string }>(CREDIT_GROUP, creditStatements);

  /**
   * The player as the players service sees it; another brand's player does not exist here.
   * Cached (a player's existence and currency never change), so a wallet read is one select.
   */
  async function existingPlayer(scope: OperatorScope, playerId: string): Promise<PlayerState> {
    const state = await players.get(scope.brandId, playerId);
    if (!state.exists) throw new AppError('PLAYER_NOT_FOUND');
    return state;
  }

  return {
    ...handle(walletOperations.getWallet, async (req) => {
      const scope = operatorScopeOf(req);
      const player = await existingPlayer(scope, req.params.playerId);
      return { status: 200, body: await readWallet(deps.sql, scope.brandId, player.playerId, player.currency ?? scope.currency) };
    }),
    ...handle(walletOperations.listTransactions, async (req) => {
      const scope = operatorScopeOf(req);
      const limit = req.query.limit ?? 50;
      const { playerId } = req.params;
      const owner = [scope.brandId, playerId];
      // The cursor is checked before the player lookup: a malformed query is a 422 either way.
      const after = req.query.cursor !== undefined ? cursors.decode(owner, req.query.cursor) : undefined;
      await existingPlayer(scope, playerId);
      const page = await readEntries(deps.sql, scope.brandId, playerId, limit, after);
      const last = page.items.at(-1);
      return {
        status: 200,
        body: { data: page.items, nextCursor: page.more && last ? cursors.encode(owner, { at: last.createdAt, id: last.id }) : null },
      };
    }),
    ...handle(walletMessages.credit, async (req) => {
      internalScopeOf(req);
      return { body: await creditDeposit(deps.sql, { ...req.body, amount: checkedAmount(req.body.amount) }, credits) };
    }),
    ...handle(walletMessages.hold, async (req) => {
      internalScopeOf(req);
      return { body: await holdWithdrawal(deps.sql, { ...req.body, amount: checkedAmount(req.body.amount) }) };
    }),
    ...handle(walletMessages.release, async (req) => {
      internalScopeOf(req);
      return { body: await releaseHold(deps.sql, req.body) };
    }),
    ...handle(walletMessages.capture, async (req) => {
      internalScopeOf(req);
      return { body: await captureHold(deps.sql, req.body) };
    }),
    ...handle(walletAdminOperations.adminVerifyLedger, async (req) => {
      adminScopeOf(req);
      const verification = await verifyLedger(deps.sql);
      recordVerification(verification);
      return { body: verification };
    }),
    ...handle(walletAdminOperations.adminPlayerLedger, async (req) => {
      adminScopeOf(req);
      const { brandId } = req.query;
      const state = await players.get(brandId, req.params.id);
      if (!state.exists || !state.currency) throw new AppError('PLAYER_NOT_FOUND');
      const currency = state.currency;
      // In one snapshot: the balance is the one the entries shown lead to, not one a move committed between two reads.
      return inOneSnapshot(deps.sql, async (tx) => {
        const wallet = await readWallet(tx, brandId, state.playerId, currency);
        const entries = await readEntries(tx, brandId, state.playerId, req.query.limit ?? 20);
        return { body: { wallet, entries: entries.items } };
      });
    }),
  };
}
