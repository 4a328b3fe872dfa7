// `player.limit.reached`: a deposit refused because it would pass a deposit limit is announced to
// the operator (the refusal's transaction rolled back, so the event is written on its own).
import { isAppError, type LimitPeriod, type OperatorScope, type PlayerState } from '@bo/contracts';
import { writeEvent, type HandlerResult, type ServiceDeps } from '@bo/service-kit';

export async function limitReachedAnnounced(
  deps: ServiceDeps,
  scope: OperatorScope,
  player: PlayerState,
  answer: Promise<HandlerResult>,
): Promise<HandlerResult> {
  try {
    return await answer;
  } catch (e) {
    if (isAppError(e) && e.code === 'RG_BLOCKED' && e.details?.reason === 'deposit_limit') {
      const d = e.details as { period: LimitPeriod; limit: string; resetsAt: string };
      await writeEvent(
        deps.sql,
        deps.schema,
        { operatorId: scope.operatorId, brandId: scope.brandId, environment: scope.environment },
        'player.limit.reached',
        {
          playerId: player.playerId,
          externalId: player.externalId ?? null,
          type: 'deposit',
          period: d.period,
          value: d.limit,
          resetsAt: d.resetsAt,
        },
      );
      deps.outbox.poke();
    }
    throw e;
  }
}
