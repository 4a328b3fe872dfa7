// A self-excluded or paused player's open game sessions end at once (the pause too since issue #66
// item 9), and so do those of a player restricted by an impediment hit (impediments/flows/eligibility.ts
// afterRestriction): the wallet is asked (request-reply) after the commit and before the answer; it
// ends their provider sessions with them (a provider's bets on the token are refused). Should it not answer, play still stops:
// every round re-reads the player's status (wallet games/handlers/player-check.ts).
import { END_PLAYER_SESSIONS_SUBJECT } from '@bo/contracts';
import type { ServiceDeps } from '@bo/service-kit';

export async function endGameSessions(deps: ServiceDeps, brandId: string, playerId: string): Promise<void> {
  try {
    await deps.call(END_PLAYER_SESSIONS_SUBJECT, { brandId, playerId });
  } catch (err) {
    deps.log.warn({ err, playerId }, 'could not end the game sessions of a player who may no longer play; each round checks the status');
  }
}
