// A self-excluded player's open game sessions end at once, and so do those of a player restricted by
// an impediment hit (impediments/flows/eligibility.ts afterRestriction): the wallet is asked
// (request-reply) after the commit and before the answer. A pause leaves them open: the page shows
// why it may not play, and every round and provider bet re-checks the player. A provider's bets on a
// self-excluded, paused or impeded player's session are refused by that check with the reason (issue
// #66 item 9: docs/games.md, "Ending a session"). Should it not answer, play still stops:
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
