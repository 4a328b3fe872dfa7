// A fixed-term self-exclusion ends by itself (docs/responsible-gaming.md): a loop finds the terms
// that have run out by the rule clock, gives back the status the self-exclusion replaced (ativo, or
// our team's suspenso or bloqueado: domain/standing.ts endSelfExclusion; a freeze, a restriction or a
// closed account stays as it is), records the end and writes `player.self_exclusion.ended`, one player
// per transaction, then broadcasts the change. Until the loop passes, the player stays autoexcluido:
// an end comes at most one interval late, never early. The history names the rule (TERM_RULE) and the
// status it left: the term's end was set by the person who chose it, and no path moves it earlier.
import { playerChangedSubject, type PlayerChanged } from '@bo/contracts';
import { ruleClock, startLoop, type BackgroundTask, type ServiceDeps } from '@bo/service-kit';
import { lockedPlayerOrNull, runOutTerms } from '../store/self-exclusion-terms.ts';
import { commitRgChange, selfExclusionEnd } from './rg-change.ts';
import { heldStatus, statusAfterSelfExclusion } from '../domain/standing.ts';

const BATCH = 100;
/** Who ends a term in the history: this rule, never a person (a person never shortens a term: domain/standing.ts). */
const TERM_RULE = 'rule:fixed-term-ran-out';

/** Ends the terms that have run out; returns how many it ended. */
export async function endSelfExclusionTerms(deps: ServiceDeps): Promise<number> {
  const now = ruleClock.now();
  const due = await runOutTerms(deps.orm.em.fork(), now, BATCH);
  let ended = 0;
  for (const { id } of due) {
    const done = await deps.orm.em.fork().transactional(async (tx) => {
      const player = await lockedPlayerOrNull(tx, id);
      const until = player?.selfExcludedUntil;
      if (player?.selfExcludedSince == null || !until || until.getTime() > now.getTime()) return false;
      const after = statusAfterSelfExclusion(player);
      const reason =
        heldStatus(player) === 'autoexcluido'
          ? `The term ran out: back to ${after}, the status before the self-exclusion.`
          : `The term ran out: the status stays ${after}.`;
      await commitRgChange(
        tx,
        deps,
        player,
        now,
        selfExclusionEnd({ kind: 'self_exclusion_ended', oldValue: until.toISOString(), effectiveAt: until, by: 'system', actor: TERM_RULE, reason }),
      );
      return true;
    });
    if (done) {
      ended++;
      deps.nc.publish(playerChangedSubject(deps.prefix), JSON.stringify({ playerId: id } satisfies PlayerChanged));
    }
  }
  if (ended > 0) deps.outbox.poke();
  return ended;
}

export function startSelfExclusionTerms(deps: ServiceDeps, intervalMs: number): BackgroundTask {
  const loop = startLoop({ name: 'self-exclusion terms', intervalMs, log: deps.log, run: async () => (await endSelfExclusionTerms(deps)) === BATCH });
  return { name: 'self-exclusion terms', stop: () => loop.stop(), problem: () => loop.problem() };
}
