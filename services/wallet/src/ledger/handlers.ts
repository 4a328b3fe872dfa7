// NATS handlers of the ledger module. Public reads need an operator scope (and answer only
// about that brand's players), money commands an internal scope, verification an admin scope.
import {
  AppError, WALLET_SUBJECTS, validationError, walletAdminOperations, walletOperations, MAX_AMOUNT,
  type OperationRequest, type OperatorScope, type PlayerState, type WalletCredit, type WalletHold, type WalletHoldRef,
} from '@bo/contracts';
import { adminScopeOf, internalScopeOf, isPositiveWithin, operatorScopeOf, playerStatesOf, type Handler, type ServiceDeps } from '@bo/service-kit';
import type { WalletConfig } from '../config.ts';
import { captureHold, creditDeposit, holdWithdrawal, releaseHold } from './commands.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';
import { readEntries, readWallet } from './queries.ts';
import { verifyLedger } from './verify.ts';
import { ledgerVerifyRecorder } from './verify-metrics.ts';

type Req = OperationRequest<any, any, any>;


const MONEY = /^(0|[1-9][0-9]*)(\.[0-9]{1,2})?$/;
const CURRENCY = /^[A-Z]{3}$/;
function text(body: Record<string, unknown>, field: string, pattern?: RegExp): string {
  const v = body?.[field];
  if (typeof v !== 'string' || v.length === 0 || v.length > 128 || (pattern && !pattern.test(v))) {
    throw validationError('body', [{ path: `/${field}`, message: 'is missing or malformed' }]);
  }
  return v;
}
function amount(body: Record<string, unknown>): string {
  const v = text(body, 'amount', MONEY);
  if (!isPositiveWithin(v, MAX_AMOUNT)) throw validationError('body', [{ path: '/amount', message: `must be > 0 and <= ${MAX_AMOUNT}` }]);
  return v;
}
const creditOf = (b: any): WalletCredit => ({ brandId: text(b, 'brandId'), playerId: text(b, 'playerId'), currency: text(b, 'currency', CURRENCY), amount: amount(b), depositId: text(b, 'depositId') });
const holdOf = (b: any): WalletHold => ({ brandId: text(b, 'brandId'), playerId: text(b, 'playerId'), currency: text(b, 'currency', CURRENCY), amount: amount(b), withdrawalId: text(b, 'withdrawalId') });
const refOf = (b: any): WalletHoldRef => ({ brandId: text(b, 'brandId'), withdrawalId: text(b, 'withdrawalId') });

function parseLimit(raw: unknown): number {
  if (raw === undefined) return 50;
  const n = typeof raw === 'string' && /^[0-9]+$/.test(raw) ? Number(raw) : raw;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 200) {
    throw validationError('query', [{ path: '/limit', message: 'must be an integer from 1 to 200' }]);
  }
  return n;
}

export function ledgerHandlers(deps: ServiceDeps<WalletConfig>): Record<string, Handler> {
  const cursorSecret = deps.config.LEDGER_CURSOR_SECRET;
  const players = playerStatesOf(deps);
  const recordVerification = ledgerVerifyRecorder(deps.metrics);

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
    [walletOperations.getWallet.subject]: async (req) => {
      const scope = operatorScopeOf(req);
      const player = await existingPlayer(scope, req.params.playerId);
      return { status: 200, body: await readWallet(deps.sql, scope.brandId, player.playerId, player.currency ?? scope.currency) };
    },
    [walletOperations.listTransactions.subject]: async (req) => {
      const scope = operatorScopeOf(req);
      const limit = parseLimit(req.query?.limit);
      const owner = { brandId: scope.brandId, playerId: req.params.playerId as string };
      // The cursor is checked before the player lookup: a malformed query is a 422 either way.
      const after = req.query?.cursor !== undefined ? decodeCursor(cursorSecret, owner, String(req.query.cursor)) : undefined;
      await existingPlayer(scope, owner.playerId);
      const page = await readEntries(deps.sql, scope.brandId, owner.playerId, limit, after);
      const last = page.items.at(-1);
      return { status: 200, body: { data: page.items, nextCursor: page.more && last ? encodeCursor(cursorSecret, owner, last) : null } };
    },
    [WALLET_SUBJECTS.credit]: async (req) => { internalScopeOf(req); return { body: await creditDeposit(deps.sql, creditOf(req.body)) }; },
    [WALLET_SUBJECTS.hold]: async (req) => { internalScopeOf(req); return { body: await holdWithdrawal(deps.sql, holdOf(req.body)) }; },
    [WALLET_SUBJECTS.release]: async (req) => { internalScopeOf(req); return { body: await releaseHold(deps.sql, refOf(req.body)) }; },
    [WALLET_SUBJECTS.capture]: async (req) => { internalScopeOf(req); return { body: await captureHold(deps.sql, refOf(req.body)) }; },
    [walletAdminOperations.adminVerifyLedger.subject]: async (req) => {
      adminScopeOf(req);
      const verification = await verifyLedger(deps.sql);
      recordVerification(verification);
      return { body: verification };
    },
  };
}
