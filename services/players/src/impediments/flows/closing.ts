// After a hit, the closing (IN 31/2025, docs/eligibility.md): a player restricted
// IMPEDIMENT_CLOSE_DAYS ago is `encerrado` for good, with `player.closed` in the same transaction.
// Its balance is then handed to payments (payments.withdrawals.closeout), which puts it in our
// team's review queue as a withdrawal to the player's own CPF; repeated until payments answers, and
// idempotent there (one closing withdrawal per player). Before that hand-over the wallet refunds the
// player's open bets (so the closing withdrawal carries them) and records the account as closed after
// a hit, from which what the return does not take is held 180 days (wallet.impeded.closeAccount,
// idempotent too; issue #46 item 4).
import { CLOSEOUT_SUBJECT, IMPEDED_CLOSE_SUBJECT, type Closeout, type ImpededClose } from '@bo/contracts';
import { isoTime, sqlIn, writeEvent, type ServiceDeps } from '@bo/service-kit';
import { closeDue, markCloseoutDone, pendingCloseouts } from '../store/closing.ts';
import { announcePlayerChanged, type Eligibility } from './eligibility.ts';

const DAY_MS = 86_400_000;
const BATCH = 100;

/**
 * One pass: closes the players due, then hands every closed player's balance to payments; true when
 * more are waiting. `onlyPlayerId`: that player alone (the sandbox's next day closes its player at once).
 */
export async function closeDuePlayers(deps: ServiceDeps, elig: Eligibility, onlyPlayerId?: string): Promise<boolean> {
  const now = elig.clock();
  const due = new Date(now.getTime() - elig.config.IMPEDIMENT_CLOSE_DAYS * DAY_MS);
  const closed = await deps.orm.em.fork().transactional(async (tx) => {
    const sql = sqlIn(tx);
    const rows = await closeDue(sql, now, due, BATCH, onlyPlayerId);
    for (const p of rows) {
      await writeEvent(sql, deps.schema, { operatorId: p.operatorId, brandId: p.brandId, environment: p.environment }, 'player.closed', {
        playerId: p.id,
        externalId: p.externalId,
        reason: 'impeded',
      });
    }
    return rows;
  });
  if (closed.length > 0) deps.outbox.poke();
  for (const p of closed) announcePlayerChanged(deps, p.id);
  // The hand-over: every closed-by-impediment player whose balance payments has not taken yet.
  const pending = await pendingCloseouts(deps.sql, BATCH, onlyPlayerId);
  for (const { id, restrictedAt, ...p } of pending) {
    // When the closing was due: the return's deadline counts from it, however late this pass runs.
    const closedAt = new Date(Date.parse(isoTime(restrictedAt)) + elig.config.IMPEDIMENT_CLOSE_DAYS * DAY_MS).toISOString();
    await deps.call(IMPEDED_CLOSE_SUBJECT, { ...p, playerId: id, closedAt } satisfies ImpededClose);
    await deps.call(CLOSEOUT_SUBJECT, { ...p, playerId: id } satisfies Closeout);
    await markCloseoutDone(deps.sql, id, now);
  }
  return closed.length === BATCH || pending.length === BATCH;
}
