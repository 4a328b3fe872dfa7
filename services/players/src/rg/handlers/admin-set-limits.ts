// players.admin.limits (PUT /admin/players/:id/limits): v1.1's limits of our team, replaced as a
// whole: the deposit/day limit (null clears it) and a self-exclusion date. Under `off` our team's
// deposit limit applies at once, as in v1.1; under `br-spa` our team may only lower it (a raise or a
// removal is the player's, through the operator, after the cooling-off). The date starts a real
// self-exclusion (autoexcluido, its history naming the person, `player.self_excluded`) or moves the
// running one's end later; it never ends or shortens one (domain/standing.ts teamSelfExclusionChange:
// 409 STANDING_HAS_OWN_FLOW naming the flow that does), checked before anything is written. As the
// player's own self-exclusion does, it ends the player's open game sessions before the answer.
import { AppError, type playerAdminOperations } from '@bo/contracts';
import {
  adminScopeOf,
  compareMoney,
  decisionAuthorOf,
  formatMoney,
  ruleClock,
  sqlIn,
  writeDecisionAudit,
  type HandlerOf,
  type ServiceDeps,
} from '@bo/service-kit';
import type { EntityManager } from '@mikro-orm/postgresql';
import { lockPlayer, type PlayerRow } from '../../store/index.ts';
import { depositPerDay, toLimits } from '../domain/limits-view.ts';
import { complianceOf, limitRows, recordChange, saveLimit } from '../store/limits.ts';
import { teamSelfExclusionChange } from '../domain/standing.ts';
import { changeLimit } from './responsible-gaming.ts';
import { commitRgChange } from './rg-change.ts';
import { endGameSessions } from './end-game-sessions.ts';

/** Starts our team's self-exclusion until `until`, or moves the running one's end to it (the person named in its history). */
async function selfExcludeUntil(
  tx: EntityManager,
  deps: ServiceDeps,
  player: PlayerRow,
  change: { kind: 'started' | 'extended'; until: Date; actor: string },
  now: Date,
): Promise<void> {
  const previous = player.selfExcludedUntil;
  const since = change.kind === 'extended' ? (player.selfExcludedSince ?? now) : now;
  const oldValue = previous && (change.kind === 'extended' || previous.getTime() > now.getTime()) ? previous.toISOString() : null;
  await commitRgChange(tx, deps, player, now, {
    history: { kind: 'self_exclusion', oldValue, newValue: change.until.toISOString(), effectiveAt: now, by: 'team', actor: change.actor },
    set: { selfExcludedSince: since, selfExcludedUntil: change.until },
    selfExclusion: 'begins',
    event: 'player.self_excluded',
    data: { since: since.toISOString(), until: change.until.toISOString() },
  });
}

/** `off`: the value as given, at once, any pending change dropped. */
async function replaceDepositPerDay(tx: EntityManager, player: PlayerRow, next: string | null, actor: string, now: Date): Promise<void> {
  const rows = await limitRows(tx, player.id);
  const row = rows.find((r) => r.type === 'deposit' && r.period === 'day');
  const before = depositPerDay(rows, now);
  const unchanged = before === null ? next === null : next !== null && compareMoney(before, next) === 0;
  if (unchanged && !row?.pendingEffectiveAt) return;
  saveLimit(tx, player.id, { type: 'deposit', period: 'day' }, row, { value: next, pending: null }, now);
  recordChange(tx, player.id, now, { kind: 'limit', type: 'deposit', period: 'day', oldValue: before, newValue: next, effectiveAt: now, by: 'team', actor });
}

export function adminSetPlayerLimits(deps: ServiceDeps): HandlerOf<typeof playerAdminOperations.adminSetPlayerLimits> {
  return async (req) => {
    const scope = adminScopeOf(req);
    const { actor } = scope;
    const { params, body: input } = req;
    const { answer, brandId, selfExcluded } = await deps.orm.em.fork().transactional(async (tx) => {
      const player = await lockPlayer(tx, { id: params.id });
      const now = ruleClock.now();
      const before = toLimits(player, depositPerDay(await limitRows(tx, player.id), now));
      const until = input.selfExcludedUntil === null ? null : new Date(input.selfExcludedUntil);
      const selfExclusion = teamSelfExclusionChange(player, until, now);
      const next = input.dailyDepositLimit === null ? null : formatMoney(input.dailyDepositLimit);
      const compliance = await complianceOf(tx, player.operatorId);
      if (compliance.profile === 'off') {
        await replaceDepositPerDay(tx, player, next, actor, now);
      } else {
        const current = before.dailyDepositLimit;
        if (current !== null && (next === null || compareMoney(next, current) > 0)) {
          throw new AppError('FORBIDDEN_ROLE', "Our team cannot raise or remove a player's limit: only the player, through the operator.");
        }
        if (next !== null && next !== current) {
          await changeLimit(
            tx,
            deps,
            player,
            { type: 'deposit', period: 'day', next, by: 'team', actor, coolingOffHours: compliance.coolingOffHours, profile: compliance.profile },
            now,
          );
        }
      }
      if (until && (selfExclusion === 'started' || selfExclusion === 'extended')) {
        await selfExcludeUntil(tx, deps, player, { kind: selfExclusion, until, actor }, now);
      }
      player.updatedAt = now;
      await tx.flush();
      const after = toLimits(player, depositPerDay(await limitRows(tx, player.id), now));
      await writeDecisionAudit(sqlIn(tx), deps.schema, decisionAuthorOf(scope, req.ctx), {
        action: 'adminSetPlayerLimits',
        target: `player:${player.id}`,
        before,
        after,
      });
      return {
        answer: { status: 200 as const, body: after },
        brandId: player.brandId,
        selfExcluded: selfExclusion === 'started' || selfExclusion === 'extended',
      };
    });
    deps.outbox.poke();
    // After the commit and before the answer, as for the player's own: the wallet ends the open game sessions.
    if (selfExcluded) await endGameSessions(deps, brandId, params.id);
    return answer;
  };
}
