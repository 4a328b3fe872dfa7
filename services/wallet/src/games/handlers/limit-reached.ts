// `player.limit.reached`: a round or a game session open refused because of a limit is announced
// to the operator. The refusal wrote nothing, so the event is written on its own (wallet outbox).
import { isAppError, type Environment, type LimitPeriod, type LimitType } from '@bo/contracts';
import { writeEvent, type ServiceDeps } from '@bo/service-kit';

const LIMIT_OF_REASON: Record<string, LimitType> = { loss_limit: 'loss', wager_limit: 'wager', time_limit: 'time' };

/** Rethrows `e`; when it is a limit's RG_BLOCKED, writes the event first. */
export async function announceLimitReached(
  deps: ServiceDeps,
  e: unknown,
  who: { operatorId: string; brandId: string; environment: Environment; playerId: string; externalId: string | null },
): Promise<never> {
  const type = isAppError(e) && e.code === 'RG_BLOCKED' ? LIMIT_OF_REASON[String(e.details?.reason)] : undefined;
  if (type && isAppError(e)) {
    const d = e.details as { period: LimitPeriod; limit: string | number; resetsAt: string };
    await writeEvent(deps.sql, deps.schema, { operatorId: who.operatorId, brandId: who.brandId, environment: who.environment }, 'player.limit.reached', {
      playerId: who.playerId,
      externalId: who.externalId,
      type,
      period: d.period,
      value: String(d.limit),
      resetsAt: d.resetsAt,
    });
    deps.outbox.poke();
  }
  throw e;
}
