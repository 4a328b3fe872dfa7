// players.admin.status (POST /admin/players/:id/status): our team sets a player status, any brand.
// Not one a restriction holds (domain/standing.ts: 409 STANDING_HAS_OWN_FLOW naming the flow that
// ends it), checked on the locked row in the transaction that changes it. A change writes the
// neutral `player.status.changed` (the status only, never why). A closed account registered under
// br-spa whose CPF the brand has since registered again (players_one_per_cpf: one such account per
// CPF not closed) stays closed while that one is open: 409 PLAYER_CPF_EXISTS naming it, looked up
// first for a clear answer and held by the index when two reopenings race.
import { AppError, type PlayerStatus, type playerAdminOperations } from '@bo/contracts';
import { decisionAuthorOf, sqlIn, uniqueViolation, writeDecisionAudit, type HandlerOf, type ServiceDeps, type SqlRunner } from '@bo/service-kit';
import { adminScopeOf } from '@bo/service-kit';
import { lockPlayer, writeStatusChanged, type PlayerRow } from '../../store/index.ts';
import { toPlayer } from '../domain/player-views.ts';
import { openCpfHolderOf } from '../store/registration-checks.ts';
import { assertGenericChange } from '../../rg/index.ts';
import { beginMarketingBlock, endMarketingBlock } from '../../marketing/index.ts';

/** Out of `encerrado` for an account the CPF index counts once it is open again. */
function reopensCountedAccount(player: PlayerRow, status: PlayerStatus): boolean {
  return player.status === 'encerrado' && status !== 'encerrado' && player.cpfUnique;
}

/** 409 PLAYER_CPF_EXISTS when another open account of the brand holds the closed account's CPF. */
async function refuseCpfHeld(sql: SqlRunner, player: PlayerRow): Promise<void> {
  const holder = await openCpfHolderOf(sql, player.brandId, player.cpf, player.id);
  if (!holder) return;
  throw new AppError(
    'PLAYER_CPF_EXISTS',
    `This account is closed and its CPF is now held by player ${holder} of the brand, which is not closed: under br-spa a CPF has one open account per brand, so this one stays encerrado while that one is open (close that one first to reopen this one).`,
    { playerId: holder },
  );
}

export function adminSetPlayerStatus(deps: ServiceDeps): HandlerOf<typeof playerAdminOperations.adminSetPlayerStatus> {
  return async (req) => {
    const author = decisionAuthorOf(adminScopeOf(req), req.ctx);
    const { params, body: input } = req;
    let reopened: PlayerRow | undefined;
    const change = deps.orm.em.fork().transactional(async (tx) => {
      const player = await lockPlayer(tx, { id: params.id });
      const before = toPlayer(player);
      assertGenericChange(player, input.status);
      if (reopensCountedAccount(player, input.status)) {
        reopened = player;
        await refuseCpfHeld(sqlIn(tx), player);
      }
      if (player.status !== input.status) {
        const now = new Date();
        player.status = input.status;
        player.updatedAt = now;
        await writeStatusChanged(tx, deps.schema, player, before.status);
        // A closed account gets no marketing (issue #60 item 2); reopened, the block ends (the consent stays off).
        if (input.status === 'encerrado') await beginMarketingBlock(tx, deps, player, 'closed', now, null);
        else if (before.status === 'encerrado') await endMarketingBlock(tx, player.id, 'closed', now);
      }
      const after = toPlayer(player);
      await writeDecisionAudit(sqlIn(tx), deps.schema, author, { action: 'adminSetPlayerStatus', target: `player:${player.id}`, before, after });
      return { status: 200, body: after };
    });
    // A reopening racing another of the same CPF (or a registration) past the look: the index refused
    // it; the answer names the account that holds the CPF, as the look does.
    const answer = await change.catch(async (e: unknown) => {
      if (reopened && uniqueViolation(e) === 'players_one_per_cpf') await refuseCpfHeld(sqlIn(deps.orm.em.fork()), reopened);
      throw e;
    });
    deps.outbox.poke();
    return answer;
  };
}
