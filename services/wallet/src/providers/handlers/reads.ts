// What operators and our team read of providers' play (issue #44, items 6 and 7; docs/games.md,
// "Third-party rounds"): a player's provider rounds and sports bets (operator scope, that brand's
// players only), a provider's day per brand (admin scope), and a brand's provider transactions of
// a day for the daily regulator file (internal scope, the compliance service).
import { AppError, playerRoundOperations, providerReportOperations, regulatorProviderMessages, validationError } from '@bo/contracts';
import { adminScopeOf, handle, internalScopeOf, isoTime, listCursor, operatorScopeOf, playerStatesOf, type Handler } from '@bo/service-kit';
import { findProvider } from '../store/registry.ts';
import { providerDay } from '../store/daily-report.ts';
import { providerMovesOfDay } from '../store/regulator-lines.ts';
import { playerRounds, type RoundPosition } from '../store/rounds.ts';
import type { ProvidersContext } from './context.ts';

/** A cursor position's id: the round's key, which the order breaks ties on after opened_at. */
const positionId = (p: Omit<RoundPosition, 'at'>) => JSON.stringify([p.providerId, p.roundId]);
function keyOf(id: string): Omit<RoundPosition, 'at'> | undefined {
  try {
    const k: unknown = JSON.parse(id);
    if (Array.isArray(k) && k.length === 2 && typeof k[0] === 'string' && typeof k[1] === 'string') return { providerId: k[0], roundId: k[1] };
  } catch {
    // Not ours: the cursor's signature held, so this cannot happen unless the secret is shared.
  }
  return undefined;
}

const DAY_MS = 86_400_000;

export function providerReadHandlers(ctx: ProvidersContext): Record<string, Handler> {
  const { deps } = ctx;
  // Bound to the brand and the player, like the transactions list's: another player's cursor is refused.
  const cursors = listCursor(deps.config.LEDGER_CURSOR_SECRET, 'wallet.rounds');
  const players = playerStatesOf(deps);
  return {
    ...handle(playerRoundOperations.listPlayerRounds, async (req) => {
      const scope = operatorScopeOf(req);
      const limit = req.query.limit ?? 50;
      const { playerId } = req.params;
      const owner = [scope.brandId, playerId];
      const pos = req.query.cursor !== undefined ? cursors.decode(owner, req.query.cursor) : undefined;
      const key = pos ? keyOf(pos.id) : undefined;
      if (pos && !key) throw validationError('query', [{ path: '/cursor', message: 'is malformed' }]);
      const state = await players.get(scope.brandId, playerId);
      if (!state.exists) throw new AppError('PLAYER_NOT_FOUND');
      const rows = await playerRounds(deps.sql, scope.brandId, playerId, limit, pos && key ? { at: pos.at, ...key } : undefined);
      return {
        status: 200,
        body: cursors.page(
          owner,
          rows,
          limit,
          (r) => r,
          (r) => ({ at: r.openedAt, id: positionId(r) }),
        ),
      };
    }),
    ...handle(providerReportOperations.adminProviderDailyReport, async (req) => {
      adminScopeOf(req);
      const provider = await findProvider(deps.sql, req.params.id);
      if (!provider) throw new AppError('PROVIDER_NOT_FOUND');
      const from = new Date(`${req.query.date}T00:00:00.000Z`);
      if (Number.isNaN(from.getTime())) throw validationError('query', [{ path: '/date', message: 'must be a calendar day' }]);
      const to = new Date(from.getTime() + DAY_MS);
      const brands = await providerDay(deps.sql, provider.id, from, to);
      return {
        status: 200,
        body: {
          providerId: provider.id,
          providerName: provider.name,
          date: req.query.date,
          from: isoTime(from),
          to: isoTime(to),
          brands,
          ties: brands.every((b) => b.ties),
        },
      };
    }),
    ...handle(regulatorProviderMessages.providerMoves, async (req) => {
      internalScopeOf(req);
      return { body: await providerMovesOfDay(deps.sql, req.body) };
    }),
  };
}
