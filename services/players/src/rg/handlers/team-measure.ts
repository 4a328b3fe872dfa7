// A measure our team takes from a player's harm case (issue #68 item 3), asked by the compliance
// service (`players.rg.teamMeasure`, no HTTP route): the same rules and audit rows as the player's
// admin operation it names, with the person who decided as their author. Idempotent by the case's
// measure id, kept in the transaction that applies it: asked again (the compliance service's
// reconciler after a stop before it kept the answer), it answers `applied: false` and changes nothing.
// Announced like every change of a player's rules (the root's announcesChange, by the body's playerId).
import type { teamMeasureMessages } from '@bo/contracts';
import { ruleClock, type HandlerOf, type ServiceDeps } from '@bo/service-kit';
import type { PlayersConfig } from '../../config.ts';
import { lockPlayer } from '../../store/index.ts';
import { claimTeamMeasure } from '../store/team-measures.ts';
import { pauseByTeam, realityCheckByTeam, stricterLimitByTeam } from './admin-responsible-gaming.ts';

const required = <T>(value: T | undefined, name: string): T => {
  // The compliance service checks each measure's fields before it asks: a missing one here is its bug.
  if (value === undefined) throw new Error(`team measure without ${name}`);
  return value;
};

export function takeTeamMeasure(deps: ServiceDeps<PlayersConfig>): HandlerOf<typeof teamMeasureMessages.take> {
  return async (req) => {
    const m = req.body;
    const applied = await deps.orm.em.fork().transactional(async (tx) => {
      const player = await lockPlayer(tx, { id: m.playerId });
      if (!(await claimTeamMeasure(tx, { ...m, playerId: player.id }))) return false;
      const now = ruleClock.now();
      const by = { author: m.author, reason: m.reason, also: { harmCase: m.caseId, measureId: m.measureId } };
      if (m.measure === 'pause') await pauseByTeam(tx, deps, player, now, { ...by, until: new Date(required(m.until, 'until')) });
      else if (m.measure === 'reality_check') await realityCheckByTeam(tx, player, now, deps.schema, { ...by, minutes: required(m.minutes, 'minutes') });
      else {
        const limit = { type: required(m.type, 'type'), period: required(m.period, 'period'), value: required(m.value, 'value') };
        await stricterLimitByTeam(tx, deps, player, now, { ...by, ...limit });
      }
      return true;
    });
    deps.outbox.poke();
    return { status: 200, body: { applied } };
  };
}
