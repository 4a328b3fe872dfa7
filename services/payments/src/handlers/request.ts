// What a handler checks about its request before the domain: who calls, and that the input is the
// contract's (the gateway validates too; a message may come from elsewhere).
import { playerStatesOf, type OperationRequest, type PlayerState } from '@bo/contracts';
import { adminScopeOf, type ServiceDeps } from '@bo/service-kit';

// biome-ignore lint/suspicious/noExplicitAny: any operation's request
export type Req = OperationRequest<any, any, any>;

export function adminActor(req: Req): string {
  return adminScopeOf(req).actor;
}

/**
 * The player as the players service sees it in this brand (`exists: false` for another brand's),
 * through the cache the players service invalidates on every change before it replies.
 */
export async function playerState(deps: ServiceDeps, brandId: string, playerId: string): Promise<PlayerState> {
  return playerStatesOf(deps).get(brandId, playerId);
}
