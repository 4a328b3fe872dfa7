// KYC decisions: the sandbox route (operator scope, own brand, sandbox only) and the admin route
// (any brand). Both lock the player, set the status, and write kyc.status_changed on a change; the
// admin route also writes its audit row in that transaction.
import { AppError, type KycStatus, type playerAdminOperations, type playerOperations } from '@bo/contracts';
import {
  crashPoint,
  decisionAuthorOf,
  sqlIn,
  writeDecisionAudit,
  type DecisionAuthor,
  type HandlerOf,
  type HandlerResult,
  type ServiceDeps,
} from '@bo/service-kit';
import { lockPlayer, type PlayerAddress } from '../../store/index.ts';
import { changeKycStatus, listKycSubmissions, type KycChangeAuthor } from '../store/kyc.ts';
import { toKycRecord } from '../domain/kyc-views.ts';
import { adminScopeOf, operatorScopeOf } from '@bo/service-kit';

async function decide(deps: ServiceDeps, at: PlayerAddress, status: KycStatus, by?: KycChangeAuthor & { author: DecisionAuthor }): Promise<HandlerResult> {
  const result = await deps.orm.em.fork().transactional(async (tx) => {
    const player = await lockPlayer(tx, at);
    const previous = player.kycStatus;
    await changeKycStatus(tx, deps.schema, player, status, new Date(), by);
    await tx.flush();
    const record = toKycRecord(player, await listKycSubmissions(tx, player.id));
    if (by) {
      await writeDecisionAudit(sqlIn(tx), deps.schema, by.author, {
        action: 'adminKycDecision',
        target: `player:${player.id}`,
        before: { kycStatus: previous },
        after: { kycStatus: player.kycStatus, ...(by.reason ? { reason: by.reason } : {}) },
      });
    }
    return { status: 200, body: record };
  });
  crashPoint('players.kyc.after-commit');
  deps.outbox.poke();
  return result;
}

export function sandboxKycDecision(deps: ServiceDeps): HandlerOf<typeof playerOperations.sandboxKycDecision> {
  return async (req) => {
    const scope = operatorScopeOf(req);
    // The gateway refuses live keys first; this keeps production data safe if it ever did not.
    if (scope.environment !== 'sandbox') throw new AppError('SANDBOX_ONLY');
    const { body } = await decide(deps, { id: req.params.playerId, brandId: scope.brandId }, req.body.status);
    return { status: 200, body };
  };
}

export function adminKycDecision(deps: ServiceDeps): HandlerOf<typeof playerAdminOperations.adminKycDecision> {
  return async (req) => {
    const scope = adminScopeOf(req);
    const author = decisionAuthorOf(scope, req.ctx);
    return decide(deps, { id: req.params.id }, req.body.status, { actor: scope.actor, reason: req.body.reason ?? null, author });
  };
}
