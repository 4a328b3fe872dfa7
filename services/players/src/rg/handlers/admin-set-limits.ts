// players.admin.limits (PUT /admin/players/:id/limits): v1.1's limits of our team, replaced as a
// whole (null clears one): the deposit/day limit and a self-exclusion date. Under `off` our team's
// change applies at once, as in v1.1; under `br-spa` our team may only lower the deposit/day limit
// (a raise or a removal is the player's, through the operator, after the cooling-off).
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
import { changeLimit } from './responsible-gaming.ts';

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
    const answer = await deps.orm.em.fork().transactional(async (tx) => {
      const player = await lockPlayer(tx, { id: params.id });
      const now = ruleClock.now();
      const before = toLimits(player, depositPerDay(await limitRows(tx, player.id), now));
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
      player.selfExcludedUntil = input.selfExcludedUntil === null ? null : new Date(input.selfExcludedUntil);
      player.updatedAt = now;
      await tx.flush();
      const after = toLimits(player, depositPerDay(await limitRows(tx, player.id), now));
      await writeDecisionAudit(sqlIn(tx), deps.schema, decisionAuthorOf(scope, req.ctx), {
        action: 'adminSetPlayerLimits',
        target: `player:${player.id}`,
        before,
        after,
      });
      return { status: 200, body: after };
    });
    deps.outbox.poke();
    return answer;
  };
}
