// players.kyc.submit (POST /players/:playerId/kyc/submissions, idempotent). The player row is
// locked so a submission and a decision never interleave; the status change and its event commit
// together, and the relay publishes after the commit.
import type { playerOperations } from '@bo/contracts';
import { crashPoint, type HandlerOf, type ServiceDeps } from '@bo/service-kit';
import { lockPlayer } from '../../store/index.ts';
import { addSubmission, changeKycStatus } from '../store/kyc.ts';
import { statusAfterSubmission } from '../domain/kyc-rules.ts';
import { operatorScopeOf, ormTransactor, requestKeyOf, runOnce } from '@bo/service-kit';

export function submitKyc(deps: ServiceDeps): HandlerOf<typeof playerOperations.submitKyc> {
  return async (req) => {
    const scope = operatorScopeOf(req);
    const { params, body: input } = req;
    const result = await runOnce(ormTransactor(deps.orm.em), deps.schema, requestKeyOf(req.ctx), 'players.kyc.submit', async (tx) => {
      const player = await lockPlayer(tx, { id: params.playerId, brandId: scope.brandId });
      const next = statusAfterSubmission(player.kycStatus);
      const now = new Date();
      const submission = addSubmission(tx, player.id, input, now);
      await changeKycStatus(tx, deps.schema, player, next, now);
      // A new submission changes the KYC record even when the status stays em_analise.
      player.kycUpdatedAt = now;
      player.updatedAt = now;
      return {
        status: 201,
        body: {
          id: submission.id,
          playerId: player.id,
          documentType: submission.documentType,
          reference: submission.reference,
          createdAt: now.toISOString(),
          kycStatus: player.kycStatus,
        },
      };
    });
    crashPoint('players.kyc.after-commit');
    deps.outbox.poke();
    return result;
  };
}
