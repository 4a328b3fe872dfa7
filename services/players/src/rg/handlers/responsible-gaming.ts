// The player's responsible-gaming choices through the operator's API (docs/responsible-gaming.md):
// GET /players/{id}/responsible-gaming, PUT|DELETE /players/{id}/limits/{type}/{period},
// POST /players/{id}/pause, POST /players/{id}/self-exclusion. Each change locks the player row,
// writes the change, its history row and its event in one transaction, and (service.ts) is
// broadcast to the enforcing services' caches before the reply, so a restriction is in force
// everywhere once the operator hears it was made.
import {
  AppError,
  PAUSE_MAX_HOURS,
  PAUSE_MIN_HOURS,
  SELF_EXCLUSION_REPEAT_HOURS,
  validationError,
  type SelfExclusionChange,
  type LimitPeriod,
  type LimitType,
  type OperatorScope,
  type responsibleGamingOperations,
} from '@bo/contracts';
import { operatorScopeOf, ormTransactor, requestKeyOf, ruleClock, runOnce, sqlIn, writeEvent, type HandlerOf, type ServiceDeps } from '@bo/service-kit';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { PlayersConfig } from '../../config.ts';
import { assertKeepsRequired, decideChange, settle, shownValue, storedValue } from '../domain/rg-limits.ts';
import { lockPlayer, requirePlayer, type PlayerRow, type RgChangeBy } from '../../store/index.ts';
import { complianceOf, limitRows, recordChange, saveLimit } from '../store/limits.ts';
import { rgView } from './rg-view.ts';
import { endGameSessions } from './end-game-sessions.ts';
import { runningSelfExclusion } from '../domain/standing.ts';
import { commitRgChange } from './rg-change.ts';

const routingOf = (p: PlayerRow) => ({ operatorId: p.operatorId, brandId: p.brandId, environment: p.environment });
/** A pause "24 hours ahead" computed by the caller reaches us a little later: this much is forgiven. */
const PAUSE_SLACK_MS = 60_000;

export function getResponsibleGaming(deps: ServiceDeps<PlayersConfig>): HandlerOf<typeof responsibleGamingOperations.getResponsibleGaming> {
  return async (req) => {
    const scope = operatorScopeOf(req);
    const em = deps.orm.em.fork();
    const player = await requirePlayer(em, { id: req.params.playerId, brandId: scope.brandId });
    const now = ruleClock.now();
    return { status: 200, body: await rgView(deps, player, await complianceOf(em, player.operatorId), await limitRows(em, player.id), now) };
  };
}

/**
 * Sets (`next` a value) or removes (`next` null) one limit of a locked player: the decision of
 * domain/rg-limits.ts, its row, its history row and `player.limits.changed`. Also used at
 * registration and by our team's admin limits.
 */
export async function changeLimit(
  tx: EntityManager,
  deps: ServiceDeps,
  player: PlayerRow,
  change: { type: LimitType; period: LimitPeriod; next: string | null; by: RgChangeBy; actor?: string | null; coolingOffHours: number; profile: string },
  now: Date,
): Promise<void> {
  const rows = await limitRows(tx, player.id);
  const row = rows.find((r) => r.type === change.type && r.period === change.period);
  const current = row ? settle(row, now) : undefined;
  if (change.next === null) {
    if (!current || current.value === null) return; // nothing to remove
    assertKeepsRequired(
      change.profile,
      change,
      rows.map((r) => settle(r, now)),
    );
  }
  const decision = decideChange(current, change.next, now, change.coolingOffHours);
  saveLimit(tx, player.id, change, row, decision, now);
  const previousValue = current?.value == null ? null : String(shownValue(change.type, current.value));
  const value = change.next === null ? null : String(shownValue(change.type, change.next));
  recordChange(tx, player.id, now, {
    kind: 'limit',
    type: change.type,
    period: change.period,
    oldValue: previousValue,
    newValue: value,
    effectiveAt: decision.effectiveAt,
    by: change.by,
    actor: change.actor ?? null,
  });
  await tx.flush();
  await writeEvent(sqlIn(tx), deps.schema, routingOf(player), 'player.limits.changed', {
    playerId: player.id,
    externalId: player.externalId,
    type: change.type,
    period: change.period,
    previousValue,
    value,
    effectiveAt: decision.effectiveAt.toISOString(),
    by: change.by === 'team' ? 'team' : 'operator',
  });
}

/** One change of an operator's player in a transaction stored under the request's key; the answer is the view after it. */
function playerChange(
  deps: ServiceDeps<PlayersConfig>,
  req: { ctx: Parameters<typeof requestKeyOf>[0]; params: { playerId: string } },
  scope: OperatorScope,
  operation: string,
  /** Its answer's extra fields, if any (stored with the answer, so a replay has them too). */
  effect: (tx: EntityManager, player: PlayerRow, compliance: Awaited<ReturnType<typeof complianceOf>>, now: Date) => Promise<unknown>,
) {
  return runOnce(ormTransactor(deps.orm.em), deps.schema, requestKeyOf(req.ctx), operation, async (tx) => {
    const player = await lockPlayer(tx, { id: req.params.playerId, brandId: scope.brandId });
    const compliance = await complianceOf(tx, player.operatorId);
    const now = ruleClock.now();
    const extra = (await effect(tx, player, compliance, now)) as Record<string, unknown> | undefined;
    await tx.flush();
    return { status: 200, body: { ...(await rgView(deps, player, compliance, await limitRows(tx, player.id), now, sqlIn(tx))), ...extra } };
  });
}

export function setLimit(deps: ServiceDeps<PlayersConfig>): HandlerOf<typeof responsibleGamingOperations.setLimit> {
  return async (req) => {
    const scope = operatorScopeOf(req);
    const { type, period } = req.params;
    const next = storedValue(type, req.body.value);
    return playerChange(deps, req, scope, 'players.rg.setLimit', (tx, player, compliance, now) =>
      changeLimit(tx, deps, player, { type, period, next, by: 'operator', coolingOffHours: compliance.coolingOffHours, profile: compliance.profile }, now),
    );
  };
}

export function removeLimit(deps: ServiceDeps<PlayersConfig>): HandlerOf<typeof responsibleGamingOperations.removeLimit> {
  return async (req) => {
    const scope = operatorScopeOf(req);
    const { type, period } = req.params;
    return playerChange(deps, req, scope, 'players.rg.removeLimit', (tx, player, compliance, now) =>
      changeLimit(
        tx,
        deps,
        player,
        { type, period, next: null, by: 'operator', coolingOffHours: compliance.coolingOffHours, profile: compliance.profile },
        now,
      ),
    );
  };
}

/**
 * The player's running pause (null: none), once `until` is checked as a pause asked at `now`: from
 * 24 hours to 6 weeks ahead (422), and never before a running pause's end (409 PAUSE_ACTIVE). The
 * operator's pause and our team's share it.
 */
export function runningPauseBefore(player: Pick<PlayerRow, 'pausedUntil'>, until: Date, now: Date): Date | null {
  const ahead = until.getTime() - now.getTime();
  if (ahead < PAUSE_MIN_HOURS * 3_600_000 - PAUSE_SLACK_MS || ahead > PAUSE_MAX_HOURS * 3_600_000 + PAUSE_SLACK_MS) {
    throw validationError('body', [{ path: '/until', message: 'must be from 24 hours to 6 weeks ahead' }]);
  }
  const running = player.pausedUntil && player.pausedUntil.getTime() > now.getTime() ? player.pausedUntil : null;
  if (running && until.getTime() < running.getTime()) throw new AppError('PAUSE_ACTIVE', undefined, { until: running.toISOString() });
  return running;
}

export function pausePlayer(deps: ServiceDeps<PlayersConfig>): HandlerOf<typeof responsibleGamingOperations.pausePlayer> {
  return async (req) => {
    const scope = operatorScopeOf(req);
    const until = new Date(req.body.until);
    return playerChange(deps, req, scope, 'players.rg.pause', async (tx, player, _compliance, now) => {
      const running = runningPauseBefore(player, until, now);
      await commitRgChange(tx, deps, player, now, {
        history: { kind: 'pause', oldValue: running?.toISOString() ?? null, newValue: until.toISOString(), effectiveAt: now, by: 'operator' },
        set: { pausedUntil: until },
        event: 'player.paused',
        data: { until: until.toISOString() },
      });
    });
  };
}

/** The end of a term of `months` calendar months from `now`. */
function monthsAhead(now: Date, months: number): Date {
  const end = new Date(now);
  end.setUTCMonth(end.getUTCMonth() + months);
  return end;
}

export function selfExclude(deps: ServiceDeps<PlayersConfig>): HandlerOf<typeof responsibleGamingOperations.selfExclude> {
  return async (req) => {
    const scope = operatorScopeOf(req);
    const body = req.body;
    const answer = await playerChange(deps, req, scope, 'players.rg.selfExclude', async (tx, player, _compliance, now) => {
      const until = 'months' in body ? monthsAhead(now, body.months) : null;
      const running = runningSelfExclusion(player, now);
      const selfExclusionChange: SelfExclusionChange = running ? runningTermAnswer(running.until, until) : 'started';
      if (selfExclusionChange === 'unchanged') return { selfExclusionChange };
      const since = player.selfExcludedSince ?? now;
      await commitRgChange(tx, deps, player, now, {
        history: {
          kind: 'self_exclusion',
          oldValue: running ? (running.until?.toISOString() ?? 'indefinite') : null,
          newValue: until ? until.toISOString() : 'indefinite',
          effectiveAt: now,
          by: 'operator',
        },
        set: { selfExcludedSince: since, selfExcludedUntil: until },
        selfExclusion: 'begins',
        event: 'player.self_excluded',
        data: { since: since.toISOString(), until: until ? until.toISOString() : null },
      });
      return { selfExclusionChange };
    });
    // After the commit and before the answer: the wallet ends the player's open game sessions.
    await endGameSessions(deps, scope.brandId, req.params.playerId);
    return answer;
  };
}

/**
 * A self-exclusion asked while one runs: `extended` when it ends at least SELF_EXCLUSION_REPEAT_HOURS
 * later (or has no end, the running one a term); `unchanged` when it is the same request again (an
 * end within that much of the running one's, or without end again): the running one is answered,
 * with no event. A shorter one is refused: a self-exclusion is never shortened.
 */
function runningTermAnswer(current: Date | null, requested: Date | null): SelfExclusionChange {
  if (current === null) {
    if (requested === null) return 'unchanged';
    throw new AppError('SELF_EXCLUSION_ACTIVE', undefined, { until: null });
  }
  if (requested === null) return 'extended';
  const later = requested.getTime() - current.getTime();
  if (later >= SELF_EXCLUSION_REPEAT_HOURS * 3_600_000) return 'extended';
  if (later > -SELF_EXCLUSION_REPEAT_HOURS * 3_600_000) return 'unchanged';
  throw new AppError('SELF_EXCLUSION_ACTIVE', undefined, { until: current.toISOString() });
}
