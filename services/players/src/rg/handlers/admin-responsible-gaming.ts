// Our team and a player's responsible gaming: the console reads limits, pending changes, usage
// and the full history; compliance lifts an indefinite self-exclusion, with a reason, once it has
// run INDEFINITE_SELF_EXCLUSION_MIN_DAYS (audited in the lift's transaction): the status it replaced
// comes back (domain/standing.ts endSelfExclusion); compliance pauses a player, a measure after an
// interaction with them (issue #68), makes a limit stricter and shows the reality check more often,
// each audited likewise. Our team never raises a limit, shortens a pause nor spaces reality checks out.
import {
  AppError,
  INDEFINITE_SELF_EXCLUSION_MIN_DAYS,
  validationError,
  type LimitPeriod,
  type LimitType,
  type responsibleGamingAdminOperations,
} from '@bo/contracts';
import {
  adminScopeOf,
  compareMoney,
  decisionAuthorOf,
  ruleClock,
  sqlIn,
  writeDecisionAudit,
  type DecisionAuthor,
  type HandlerOf,
  type ServiceDeps,
} from '@bo/service-kit';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { PlayersConfig } from '../../config.ts';
import { lockPlayer, requirePlayer, type PlayerRow } from '../../store/index.ts';
import { complianceOf, historyOf, limitRows, recordChange } from '../store/limits.ts';
import { realityCheckMinutesOf } from '../domain/limits-view.ts';
import { commitRgChange, selfExclusionEnd } from './rg-change.ts';
import { rgView } from './rg-view.ts';
import { settle, shownValue, storedValue } from '../domain/rg-limits.ts';
import { changeLimit, runningPauseBefore } from './responsible-gaming.ts';

/**
 * When compliance may lift the player's indefinite self-exclusion; null when they have none. Its
 * record says (also one a freeze, a restriction or a closed account holds: the lift leaves those).
 */
export function selfExclusionLiftableAt(player: Pick<PlayerRow, 'selfExcludedSince' | 'selfExcludedUntil'>): Date | null {
  const since = player.selfExcludedSince;
  if (since == null || player.selfExcludedUntil != null) return null;
  return new Date(since.getTime() + INDEFINITE_SELF_EXCLUSION_MIN_DAYS * 86_400_000);
}

async function adminView(deps: ServiceDeps<PlayersConfig>, em: EntityManager, player: PlayerRow, now: Date) {
  const compliance = await complianceOf(em, player.operatorId);
  return {
    profile: compliance.profile,
    selfExclusionLiftableAt: selfExclusionLiftableAt(player)?.toISOString() ?? null,
    responsibleGaming: await rgView(deps, player, compliance, await limitRows(em, player.id), now),
    history: await historyOf(em, player.id),
  };
}

export function adminGetResponsibleGaming(deps: ServiceDeps<PlayersConfig>): HandlerOf<typeof responsibleGamingAdminOperations.adminGetResponsibleGaming> {
  return async (req) => {
    adminScopeOf(req);
    const em = deps.orm.em.fork();
    return { status: 200, body: await adminView(deps, em, await requirePlayer(em, { id: req.params.id }), ruleClock.now()) };
  };
}

export function adminLiftSelfExclusion(deps: ServiceDeps<PlayersConfig>): HandlerOf<typeof responsibleGamingAdminOperations.adminLiftSelfExclusion> {
  return async (req) => {
    const scope = adminScopeOf(req);
    const { actor } = scope;
    const answer = await deps.orm.em.fork().transactional(async (tx) => {
      const player = await lockPlayer(tx, { id: req.params.id });
      const now = ruleClock.now();
      const since = player.selfExcludedSince;
      const indefinite = since != null && player.selfExcludedUntil == null;
      if (!indefinite) throw new AppError('SELF_EXCLUSION_ACTIVE', 'Only an indefinite self-exclusion is lifted by compliance; a fixed term ends by itself.');
      const liftableAt = new Date(since.getTime() + INDEFINITE_SELF_EXCLUSION_MIN_DAYS * 86_400_000);
      if (now.getTime() < liftableAt.getTime()) {
        throw new AppError('SELF_EXCLUSION_ACTIVE', `An indefinite self-exclusion can be lifted ${INDEFINITE_SELF_EXCLUSION_MIN_DAYS} days after it began.`, {
          liftableAt: liftableAt.toISOString(),
        });
      }
      const before = { status: player.status, selfExcludedSince: since.toISOString() };
      await commitRgChange(
        tx,
        deps,
        player,
        now,
        selfExclusionEnd({ kind: 'self_exclusion_lifted', oldValue: 'indefinite', effectiveAt: now, by: 'team', actor, reason: req.body.reason }),
      );
      const body = await adminView(deps, tx, player, now);
      await writeDecisionAudit(sqlIn(tx), deps.schema, decisionAuthorOf(scope, req.ctx), {
        action: 'adminLiftSelfExclusion',
        target: `player:${player.id}`,
        before,
        after: { status: player.status, reason: req.body.reason },
      });
      return { status: 200, body };
    });
    deps.outbox.poke();
    return answer;
  };
}

/** Who decided a measure (the audit row's author), and what else its audit row names (the harm case's measure). */
interface MeasureBy {
  author: DecisionAuthor;
  also?: Record<string, string>;
}

/** Our team's pause of the player, from 24 hours to 6 weeks, never shortening a running one; audited. */
export async function pauseByTeam(
  tx: EntityManager,
  deps: ServiceDeps<PlayersConfig>,
  player: PlayerRow,
  now: Date,
  m: MeasureBy & { until: Date; reason: string },
) {
  const running = runningPauseBefore(player, m.until, now);
  await commitRgChange(tx, deps, player, now, {
    history: {
      kind: 'pause',
      oldValue: running?.toISOString() ?? null,
      newValue: m.until.toISOString(),
      effectiveAt: now,
      by: 'team',
      actor: m.author.actor,
      reason: m.reason,
    },
    set: { pausedUntil: m.until },
    event: 'player.paused',
    data: { until: m.until.toISOString() },
  });
  await writeDecisionAudit(sqlIn(tx), deps.schema, m.author, {
    action: 'adminPausePlayer',
    target: `player:${player.id}`,
    before: { pausedUntil: running?.toISOString() ?? null },
    after: { pausedUntil: m.until.toISOString(), reason: m.reason, ...m.also },
  });
}

export function adminPausePlayer(deps: ServiceDeps<PlayersConfig>): HandlerOf<typeof responsibleGamingAdminOperations.adminPausePlayer> {
  return async (req) => {
    const author = decisionAuthorOf(adminScopeOf(req), req.ctx);
    const answer = await deps.orm.em.fork().transactional(async (tx) => {
      const player = await lockPlayer(tx, { id: req.params.id });
      const now = ruleClock.now();
      await pauseByTeam(tx, deps, player, now, { until: new Date(req.body.until), reason: req.body.reason, author });
      return { status: 200 as const, body: await adminView(deps, tx, player, now) };
    });
    deps.outbox.poke();
    return answer;
  };
}

/**
 * A stricter limit of our team's (a measure after an interaction, issue #68): a new limit, or one lower
 * than the limit in force, at once (a raise the player asked for and still waits is dropped with it);
 * never a higher one: only the player loosens their limits, through the operator. Audited.
 */
export async function stricterLimitByTeam(
  tx: EntityManager,
  deps: ServiceDeps<PlayersConfig>,
  player: PlayerRow,
  now: Date,
  m: MeasureBy & { type: LimitType; period: LimitPeriod; value: string | number; reason: string },
) {
  const { type, period } = m;
  const next = storedValue(type, m.value);
  const row = (await limitRows(tx, player.id)).find((r) => r.type === type && r.period === period);
  const inForce = row ? settle(row, now).value : null;
  // Shown as the API shows limits: money as "200.00", time in whole minutes.
  const shown = (stored: string | null) => (stored === null ? null : shownValue(type, stored));
  if (inForce !== null && compareMoney(next, inForce) >= 0) {
    const unit = type === 'time' ? ' minutes' : '';
    throw validationError('body', [
      { path: '/value', message: `must be lower than the limit in force (${shown(inForce)}${unit}): our team only makes a limit stricter` },
    ]);
  }
  const compliance = await complianceOf(tx, player.operatorId);
  await changeLimit(
    tx,
    deps,
    player,
    { type, period, next, by: 'team', actor: m.author.actor, coolingOffHours: compliance.coolingOffHours, profile: compliance.profile },
    now,
  );
  await tx.flush();
  await writeDecisionAudit(sqlIn(tx), deps.schema, m.author, {
    action: 'adminSetStricterLimit',
    target: `player:${player.id}`,
    before: { type, period, value: shown(inForce) },
    after: { type, period, value: shown(next), reason: m.reason, ...m.also },
  });
}

export function adminSetStricterLimit(deps: ServiceDeps<PlayersConfig>): HandlerOf<typeof responsibleGamingAdminOperations.adminSetStricterLimit> {
  return async (req) => {
    const author = decisionAuthorOf(adminScopeOf(req), req.ctx);
    const { type, period } = req.params;
    const answer = await deps.orm.em.fork().transactional(async (tx) => {
      const player = await lockPlayer(tx, { id: req.params.id });
      const now = ruleClock.now();
      await stricterLimitByTeam(tx, deps, player, now, { type, period, value: req.body.value, reason: req.body.reason, author });
      return { status: 200 as const, body: await adminView(deps, tx, player, now) };
    });
    deps.outbox.poke();
    return answer;
  };
}

/**
 * Our team's reality check for the player, more often than the one in force (a measure after an
 * interaction, issue #68): at once, on the game pages the player opens next and in the rules the
 * wallet and providers read (players.state); never less often (422): the operator's interval, or
 * our team's earlier one, stays the longest the player sees. Audited.
 */
export async function realityCheckByTeam(tx: EntityManager, player: PlayerRow, now: Date, schema: string, m: MeasureBy & { minutes: number; reason: string }) {
  const { minutes, reason } = m;
  const inForce = realityCheckMinutesOf(player, await complianceOf(tx, player.operatorId));
  if (minutes >= inForce) {
    throw validationError('body', [
      { path: '/minutes', message: `must be fewer than the reality check's interval in force (${inForce} minutes): our team only shows it more often` },
    ]);
  }
  recordChange(tx, player.id, now, {
    kind: 'reality_check',
    oldValue: String(inForce),
    newValue: String(minutes),
    effectiveAt: now,
    by: 'team',
    actor: m.author.actor,
    reason,
  });
  Object.assign(player, { realityCheckMinutes: minutes, updatedAt: now });
  await tx.flush();
  await writeDecisionAudit(sqlIn(tx), schema, m.author, {
    action: 'adminSetRealityCheck',
    target: `player:${player.id}`,
    before: { realityCheckMinutes: inForce },
    after: { realityCheckMinutes: minutes, reason, ...m.also },
  });
}

export function adminSetRealityCheck(deps: ServiceDeps<PlayersConfig>): HandlerOf<typeof responsibleGamingAdminOperations.adminSetRealityCheck> {
  return async (req) => {
    const author = decisionAuthorOf(adminScopeOf(req), req.ctx);
    const answer = await deps.orm.em.fork().transactional(async (tx) => {
      const player = await lockPlayer(tx, { id: req.params.id });
      const now = ruleClock.now();
      await realityCheckByTeam(tx, player, now, deps.schema, { minutes: req.body.minutes, reason: req.body.reason, author });
      return { status: 200 as const, body: await adminView(deps, tx, player, now) };
    });
    deps.outbox.poke();
    return answer;
  };
}
