// The sandbox's way to make a player show harm markers (issue #68 item 4): the player's days replaced
// by a made-up history on which exactly the markers asked fire under the operator's thresholds
// (harm/sandbox-markers.ts), and the player assessed at once in the same transaction, as the
// assessments loop would: the level kept, and `player.risk_level_changed` in the outbox when it moved.
import { AppError, type harmOperations } from '@bo/contracts';
import { operatorScopeOf, type HandlerOf, type ServiceDeps } from '@bo/service-kit';
import { localDateOf } from '../domain/business-days.ts';
import { impossibleTogether, sandboxHarmAssessment } from '../harm/sandbox-markers.ts';
import { harmThresholdsOf } from '../harm/harm-thresholds.ts';
import { changeOf } from '../harm/markers.ts';
import { harmStatesOf, replaceSandboxHarmDays, saveHarmLevel, storedHarmThresholds } from '../store/harm.ts';
import type { OperatorProfiles } from '../watch/operator-profiles.ts';
import { harmLevelView, requireBrandPlayer } from './harm-level.ts';

export function sandboxSetHarmMarkers(
  deps: ServiceDeps,
  profiles: Pick<OperatorProfiles, 'complianceOf'>,
): HandlerOf<typeof harmOperations.sandboxSetHarmMarkers> {
  return async (req) => {
    const scope = operatorScopeOf(req);
    // The gateway refuses a production key first; a made-up history never reaches a real player.
    if (scope.environment !== 'sandbox') throw new AppError('SANDBOX_ONLY');
    const { playerId } = req.params;
    await requireBrandPlayer(deps, scope, playerId, req.ctx);
    const { timeZone } = await profiles.complianceOf(scope.operatorId);
    const asOf = localDateOf(new Date(), timeZone);
    const thresholds = harmThresholdsOf((await storedHarmThresholds(deps.sql, [scope.operatorId])).get(scope.operatorId));
    const impossible = impossibleTogether(new Set(req.body.markers));
    if (impossible) {
      throw new AppError('VALIDATION_ERROR', `These markers never show together: ${impossible}.`, {
        in: 'body',
        issues: [{ path: '/markers', message: impossible }],
      });
    }
    const made = sandboxHarmAssessment(new Set(req.body.markers), asOf, thresholds);
    if (made.missing.length > 0 || made.extra.length > 0) {
      const why = [...made.missing.map((m) => `${m} does not fire under them`), ...made.extra.map((m) => `${m} would fire too`)].join('; ');
      throw new AppError('VALIDATION_ERROR', `Your thresholds do not let these markers show alone: ${why}.`, {
        in: 'body',
        issues: [{ path: '/markers', message: why }],
      });
    }
    const p = { operatorId: scope.operatorId, brandId: scope.brandId, environment: scope.environment, playerId };
    const moved = await deps.sql.transaction(
      async (tx) => {
        await replaceSandboxHarmDays(tx, p, made.days);
        const { stored } = (await harmStatesOf(tx, [{ playerId, from: asOf }])).get(playerId) ?? {};
        return saveHarmLevel(tx, p, made.assessment, changeOf(stored, made.assessment), { eventId: `sandbox:${req.ctx.requestId}`, at: new Date() }, stored);
      },
      { idempotent: true },
    );
    if (moved) deps.outbox.poke();
    return { status: 200, body: await harmLevelView(deps, scope, playerId) };
  };
}
