// The ledger's reads for services/compliance, internal scope: a player's stakes in a window (the
// AML watch, store/stakes.ts), a brand's accounts over a day and its money entry by entry (the
// daily regulator file, store/ledger-day.ts and store/regulator-moves.ts).
import { regulatorFileMessages, walletLedgerDayMessages, walletStakesMessages } from '@bo/contracts';
import { handle, internalScopeOf, type Handler, type SqlRunner } from '@bo/service-kit';
import { ledgerDay } from '../store/ledger-day.ts';
import { movesOfDay } from '../store/regulator-moves.ts';
import { largestWinInWindow, stakesInWindow } from '../store/stakes.ts';

export function complianceReadHandlers(sql: SqlRunner): Record<string, Handler> {
  return {
    ...handle(walletStakesMessages.stakes, async (req) => {
      internalScopeOf(req);
      return { body: { stakes: await stakesInWindow(sql, req.body), largestWin: await largestWinInWindow(sql, req.body) } };
    }),
    ...handle(walletLedgerDayMessages.ledgerDay, async (req) => {
      internalScopeOf(req);
      const { brandId, from, to, after, limit } = req.body;
      if (limit === undefined) return { body: { accounts: await ledgerDay(sql, brandId, from, to) } };
      const accounts = await ledgerDay(sql, brandId, from, to, { after, limit });
      const last = accounts.at(-1);
      return { body: { accounts, next: accounts.length === limit && last ? { playerId: last.playerId, currency: last.currency } : null } };
    }),
    ...handle(regulatorFileMessages.moves, async (req) => {
      internalScopeOf(req);
      return { body: await movesOfDay(sql, req.body) };
    }),
  };
}
