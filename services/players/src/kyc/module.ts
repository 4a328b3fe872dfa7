// The KYC module: a player's KYC record (GET), the operator's submissions and the decisions of our
// team and of the sandbox. A submission and a decision change what players.state answers: the
// service's root broadcasts the player's change for them (`announced`).
import { playerAdminOperations, playerOperations } from '@bo/contracts';
import { handle } from '@bo/service-kit';
import { ANSWERED_BY_EFFECT, type PlayersModule } from '../module.ts';
import { adminKycDecision, sandboxKycDecision } from './handlers/decide-kyc.ts';
import { getKyc } from './handlers/get-kyc.ts';
import { submitKyc } from './handlers/submit-kyc.ts';

export const kycModule: PlayersModule = {
  entities: [],
  migrations: [],
  handlers: (deps) => ({
    ...handle(playerOperations.getKyc, getKyc(deps)),
  }),
  announced: (deps) => ({
    ...handle(playerOperations.submitKyc, submitKyc(deps), ANSWERED_BY_EFFECT),
    ...handle(playerOperations.sandboxKycDecision, sandboxKycDecision(deps)),
    ...handle(playerAdminOperations.adminKycDecision, adminKycDecision(deps)),
  }),
};
