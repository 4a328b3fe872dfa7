// What operators and our team read of providers' play (issue #44, items 6 and 7; docs/games.md,
// "Third-party rounds"): a player's provider rounds and sports bets (operator scope, that brand's
// players only), a provider's day per brand (admin scope), and a brand's provider transactions of
// a day for the daily regulator file (internal scope, the compliance service).
import {
  AppError,
  COMPLIANCE_DEFAULTS,
  complianceProfileMessages,
  playerRoundOperations,
  providerClearingOperations,
  providerReportOperations,
  regulatorProviderMessages,
  validationError,
  type OperatorCompliance,
  type ProviderDayBrand,
} from '@bo/contracts';
import { Money, adminScopeOf, handle, internalScopeOf, listCursor, operatorScopeOf, playerStatesOf, type Handler } from '@bo/service-kit';
import { findProvider } from '../store/registry.ts';
import { brandsAroundDay, clearingBalances, providerDay, zonedDayBounds } from '../store/daily-report.ts';
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
      const { date, brandId } = req.query;
      const utc = new Date(`${date}T00:00:00.000Z`);
      if (Number.isNaN(utc.getTime()) || !utc.toISOString().startsWith(date))
        throw validationError('query', [{ path: '/date', message: 'must be a calendar day' }]);
      // Each brand in its own day (issue #61): its operator's zone, one question per operator.
      const zones = new Map<string, Promise<string>>();
      const zoneOf = (operatorId: string) => {
        let zone = zones.get(operatorId);
        if (!zone) {
          zone = deps.call<OperatorCompliance>(complianceProfileMessages.get.subject, { operatorId }).then((p) => p.timeZone);
          zones.set(operatorId, zone);
        }
        return zone;
      };
      const brands: ProviderDayBrand[] = [];
      for (const b of await brandsAroundDay(deps.sql, provider.id, date)) {
        if (brandId && b.brandId !== brandId) continue;
        const timeZone = await zoneOf(b.operatorId);
        const day = await zonedDayBounds(deps.sql, date, timeZone);
        for (const figures of await providerDay(deps.sql, provider.id, day.from, day.to, b.brandId)) brands.push({ ...figures, timeZone, ...day });
      }
      const span =
        brands.length > 0
          ? {
              from: brands.map((b) => b.from).sort()[0]!,
              to: brands
                .map((b) => b.to)
                .sort()
                .at(-1)!,
            }
          : await zonedDayBounds(deps.sql, date, COMPLIANCE_DEFAULTS.timeZone);
      return {
        status: 200,
        body: { providerId: provider.id, providerName: provider.name, date, ...span, brands, ties: brands.every((b) => b.ties) },
      };
    }),
    // What each brand owes the provider, or is owed, now (issue #61: finance's provider page).
    ...handle(providerClearingOperations.adminProviderClearing, async (req) => {
      adminScopeOf(req);
      const provider = await findProvider(deps.sql, req.params.id);
      if (!provider) throw new AppError('PROVIDER_NOT_FOUND');
      const rows = await clearingBalances(deps.sql, provider.id);
      const position = (balance: string) => (new Money(balance).gt(0) ? 'owes' : new Money(balance).lt(0) ? 'owed' : 'settled') as 'owes' | 'owed' | 'settled';
      return { status: 200, body: { data: rows.map((r) => ({ ...r, position: position(r.balance) })) } };
    }),
    ...handle(regulatorProviderMessages.providerMoves, async (req) => {
      internalScopeOf(req);
      return { body: await providerMovesOfDay(deps.sql, req.body) };
    }),
  };
}
