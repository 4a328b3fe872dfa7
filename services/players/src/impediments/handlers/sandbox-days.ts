// The sandbox's control of a player's days (docs/eligibility.md, "Sandbox"; docs/responsible-gaming.md,
// "Sandbox"), so an operator's developer can walk the rules that wait for a day to pass:
// - POST /sandbox/players/{id}/impediment-check: the player's impediment check now, as the next day's
//   first login would (a hit restricts the player: `restrito`, player.restricted, sessions ended);
// - POST /sandbox/players/{id}/next-day: the player's day moved forward. The clock cannot move for one
//   player, so what the rules read of the player's past is made a day older instead: the last
//   impediment check (the next login, deposit or game session checks again), the time of a hit (the
//   withdrawal window shrinks by a day; once IMPEDIMENT_CLOSE_DAYS have passed the player is closed
//   at once, as the closing loop would), limits' pending changes (cooling-off), and demo play's usage
//   (the wallet's demo record: the day's loss, wager and time used become yesterday's). Money is
//   never moved in time: deposits, withdrawals and real rounds keep their times (a deposit limit's
//   usage, the daily file), and so do pauses and self-exclusions, which never end early.
// Both refuse a live key even if the gateway did not (SANDBOX_ONLY).
import { AppError, isAppError, WALLET_RG_DEMO_NEXT_DAY_SUBJECT, type eligibilityOperations, type OperatorScope } from '@bo/contracts';
import { operatorScopeOf, type HandlerOf, type ServiceDeps } from '@bo/service-kit';
import { requirePlayer } from '../../store/index.ts';
import { closeDuePlayers } from '../flows/closing.ts';
import { announcePlayerChanged, checkToday, type Eligibility } from '../flows/eligibility.ts';
import { complianceOf } from '../store/compliance.ts';
import { makeDayOlder } from '../store/sandbox-days.ts';

function sandboxScopeOf(req: Parameters<typeof operatorScopeOf>[0]): OperatorScope {
  const scope = operatorScopeOf(req);
  if (scope.environment !== 'sandbox') throw new AppError('SANDBOX_ONLY');
  return scope;
}

export function sandboxCheckImpediments(deps: ServiceDeps, elig: Eligibility): HandlerOf<typeof eligibilityOperations.sandboxCheckImpediments> {
  return async (req) => {
    const scope = sandboxScopeOf(req);
    const at = { id: req.params.playerId, brandId: scope.brandId };
    const em = deps.orm.em.fork();
    const player = await requirePlayer(em, at);
    const compliance = await complianceOf(em, scope.operatorId);
    let outcome: 'not_impeded' | 'impeded' | 'unavailable' | 'not_required' = 'not_required';
    if (compliance.profile === 'br-spa') {
      try {
        // `checked_today` cannot come back: the check is asked as the next day's.
        outcome = (await checkToday(deps, elig, player, 'login', compliance.timeZone, true)) as 'not_impeded' | 'unavailable';
      } catch (e) {
        if (!isAppError(e) || e.code !== 'PLAYER_IMPEDED') throw e;
        outcome = 'impeded';
      }
    }
    const after = await requirePlayer(deps.orm.em.fork(), at);
    return { status: 200, body: { playerId: after.id, outcome, status: after.status } };
  };
}

export function sandboxNextDay(deps: ServiceDeps, elig: Eligibility): HandlerOf<typeof eligibilityOperations.sandboxNextDay> {
  return async (req) => {
    const scope = sandboxScopeOf(req);
    const at = { id: req.params.playerId, brandId: scope.brandId };
    await requirePlayer(deps.orm.em.fork(), at);
    // The wallet first: should it not answer, nothing of the player has moved yet.
    await deps.call(WALLET_RG_DEMO_NEXT_DAY_SUBJECT, { brandId: scope.brandId, playerId: at.id });
    await makeDayOlder(deps.sql, at.id, at.brandId);
    await closeDuePlayers(deps, elig, at.id);
    // players.state carries the check's day, the hit's time and the pending changes: every cache drops the player.
    announcePlayerChanged(deps, at.id);
    const after = await requirePlayer(deps.orm.em.fork(), at);
    return {
      status: 200,
      body: {
        playerId: after.id,
        status: after.status,
        impedimentCheckedAt: after.impedimentCheckedAt?.toISOString() ?? null,
        restrictedAt: after.restrictedAt?.toISOString() ?? null,
      },
    };
  };
}
