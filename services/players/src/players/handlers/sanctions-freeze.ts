// A sanctions freeze (docs/aml.md), asked by the compliance service only (internal messages, no
// HTTP route): `players.sanctions.freeze` on a sanctions hit of the screening, and
// `players.sanctions.lift` when compliance dismisses the player's sanctions case. The freeze keeps
// the status it holds (`status_before_freeze`; a flow that ends meanwhile writes there) and the lift
// goes back to it. Both are idempotent, write the neutral `player.status.changed` when the status
// moves (never why: no tipping off), and drop every cache of the player's state before answering.
import { AppError, type SanctionsFreezeResult, type sanctionsFreezeMessages } from '@bo/contracts';
import { ruleClock, type HandlerOf, type ServiceDeps } from '@bo/service-kit';
import type { EntityManager } from '@mikro-orm/postgresql';
import { lockPlayer, writeStatusChanged, type PlayerRow } from '../../store/index.ts';
import { announcePlayerChanged } from '../../impediments/index.ts';

type Change = (tx: EntityManager, player: PlayerRow, now: Date) => void;

function freezeChange(deps: ServiceDeps, change: Change): (playerId: string) => Promise<SanctionsFreezeResult> {
  return async (playerId) => {
    const result = await deps.orm.em.fork().transactional(async (tx) => {
      const player = await lockPlayer(tx, { id: playerId });
      const previousStatus = player.status;
      change(tx, player, ruleClock.now());
      if (player.status !== previousStatus) await writeStatusChanged(tx, deps.schema, player, previousStatus);
      return { playerId: player.id, previousStatus, status: player.status, frozen: player.frozenAt != null };
    });
    announcePlayerChanged(deps, playerId);
    deps.outbox.poke();
    return result;
  };
}

export function freezeForSanctions(deps: ServiceDeps): HandlerOf<typeof sanctionsFreezeMessages.freeze> {
  const freeze = freezeChange(deps, (_tx, player, now) => {
    // A closed player has nothing left to freeze (and a closed CPF may be registered again: its
    // status may not come back from `encerrado` through a freeze).
    if (player.frozenAt || player.status === 'encerrado') return;
    player.statusBeforeFreeze = player.status;
    player.status = 'bloqueado';
    player.frozenAt = now;
    player.updatedAt = now;
  });
  return async (req) => ({ status: 200, body: await freeze(req.body.playerId) });
}

export function liftSanctionsFreeze(deps: ServiceDeps): HandlerOf<typeof sanctionsFreezeMessages.lift> {
  const lift = freezeChange(deps, (_tx, player, now) => {
    if (!player.frozenAt) return;
    if (!player.statusBeforeFreeze) throw new AppError('INTERNAL_ERROR', 'a freeze without the status it holds');
    player.status = player.statusBeforeFreeze;
    player.statusBeforeFreeze = null;
    player.frozenAt = null;
    player.updatedAt = now;
  });
  return async (req) => ({ status: 200, body: await lift(req.body.playerId) });
}
