// The players module: the players themselves (registration, reads, our team's search, KYC queue and
// file, the status and its holds, a sanctions freeze), players.state for the enforcing services,
// each operator's compliance profile, the terms versions and their acceptances, the communications
// log, the regulator file's reads, and the br-spa registration data: its completion (PATCH) and its
// announcement to the operator (a loop). Made with the eligibility collaborators (a br-spa
// registration asks the registries; players.state answers the withdrawal window after a hit).
import {
  afterHitAdminOperations,
  communicationOperations,
  complianceAdminOperations,
  complianceProfileMessages,
  impedimentNoticeMessages,
  playerAdminOperations,
  playerMessages,
  playerOperations,
  sanctionsFreezeMessages,
  termsOperations,
} from '@bo/contracts';
import { handle } from '@bo/service-kit';
import type { Eligibility } from '../impediments/index.ts';
import { ANSWERED_BY_EFFECT, type PlayersModule } from '../module.ts';
import { adminGetPlayer, adminKycQueue, adminSearchPlayers } from './handlers/admin-queries.ts';
import { adminSetPlayerStatus } from './handlers/admin-set-status.ts';
import { adminListCommunications, afterHitNotice, listPlayerCommunications, recordPlayerCommunication } from './handlers/communications.ts';
import { createPlayer } from './handlers/create-player.ts';
import { updatePlayer } from './handlers/update-player.ts';
import { startRegistrationNotices } from './handlers/registration-notices.ts';
import { findPlayers } from './handlers/find-players.ts';
import { getPlayer } from './handlers/get-player.ts';
import { adminGetCompliance, adminSetCompliance, operatorCompliance } from './handlers/operator-compliance.ts';
import {
  adminCancelComplianceChange,
  adminConfirmComplianceChange,
  adminListComplianceChanges,
  adminRequestComplianceChange,
} from './handlers/compliance-changes.ts';
import { playerState } from './handlers/player-state.ts';
import { regulatorFileHandlers } from './handlers/regulator-file.ts';
import { playerSummaryHandlers } from './handlers/player-summaries.ts';
import { freezeForSanctions, liftSanctionsFreeze } from './handlers/sanctions-freeze.ts';
import { acceptTerms, listTermsAcceptances, listTermsVersions, publishTermsVersion } from './handlers/terms.ts';

export function playersModule(elig: Eligibility): PlayersModule {
  return {
    entities: [],
    migrations: [],
    handlers: (deps) => ({
      ...handle(playerOperations.createPlayer, createPlayer(deps, elig), ANSWERED_BY_EFFECT),
      ...handle(playerOperations.findPlayers, findPlayers(deps)),
      ...handle(playerOperations.getPlayer, getPlayer(deps)),
      ...handle(playerMessages.state, playerState(deps, elig)),
      ...playerSummaryHandlers(deps),
      ...handle(playerAdminOperations.adminKycQueue, adminKycQueue(deps)),
      ...handle(playerAdminOperations.adminSearchPlayers, adminSearchPlayers(deps)),
      ...handle(playerAdminOperations.adminGetPlayer, adminGetPlayer(deps)),
      ...handle(complianceProfileMessages.get, operatorCompliance(deps)),
      ...handle(complianceAdminOperations.adminGetCompliance, adminGetCompliance(deps)),
      ...handle(complianceAdminOperations.adminSetCompliance, adminSetCompliance(deps)),
      // Turning the br-spa rules off: two people (issue #56).
      ...handle(complianceAdminOperations.adminRequestComplianceChange, adminRequestComplianceChange(deps)),
      ...handle(complianceAdminOperations.adminConfirmComplianceChange, adminConfirmComplianceChange(deps)),
      ...handle(complianceAdminOperations.adminCancelComplianceChange, adminCancelComplianceChange(deps)),
      ...handle(complianceAdminOperations.adminListComplianceChanges, adminListComplianceChanges(deps)),
      ...regulatorFileHandlers(deps.sql),
      // The compliance service's sanctions freeze and its lift: each announces the player itself.
      ...handle(sanctionsFreezeMessages.freeze, freezeForSanctions(deps)),
      ...handle(sanctionsFreezeMessages.lift, liftSanctionsFreeze(deps)),
      // Terms versions: a publication announces every player itself (after its commit).
      ...handle(termsOperations.publishTermsVersion, publishTermsVersion(deps), ANSWERED_BY_EFFECT),
      ...handle(termsOperations.listTermsVersions, listTermsVersions(deps)),
      ...handle(termsOperations.listTermsAcceptances, listTermsAcceptances(deps)),
      // After an impediment hit (issue #46 item 4): the communications log.
      ...handle(communicationOperations.recordCommunication, recordPlayerCommunication(deps), ANSWERED_BY_EFFECT),
      ...handle(communicationOperations.listCommunications, listPlayerCommunications(deps)),
      ...handle(afterHitAdminOperations.adminListCommunications, adminListCommunications(deps)),
      // The wallet's unclaimed funds ask when the bettor was told (issue #60 item 6).
      ...handle(impedimentNoticeMessages.notice, afterHitNotice(deps)),
    }),
    announced: (deps) => ({
      ...handle(playerAdminOperations.adminSetPlayerStatus, adminSetPlayerStatus(deps)),
      ...handle(termsOperations.acceptTerms, acceptTerms(deps), ANSWERED_BY_EFFECT),
      // Registration data completed or corrected (issue #60): what players.state answers may change.
      ...handle(playerOperations.updatePlayer, updatePlayer(deps), ANSWERED_BY_EFFECT),
    }),
    background: (deps) => [startRegistrationNotices(deps)],
  };
}
