// What every games handler needs, built once when the wallet service starts.
import { AppError, type InternalScope, type OperationRequest, type OperatorScope } from '@bo/contracts';
import type { ServiceDeps } from '@bo/service-kit';
import type { GamesConfig } from '../config.ts';
import type { LaunchTokenSigner } from '../domain/launch-token.ts';
import type { Rng } from '../domain/rounds.ts';
import type { GameProvider } from '../providers/game-provider.ts';

export interface GamesContext {
  deps: ServiceDeps;
  config: GamesConfig;
  tokens: LaunchTokenSigner;
  /** The adapter of games whose provider is external. */
  remote: GameProvider;
  rng: Rng;
}

export function operatorScope(req: OperationRequest<any, any, any>): OperatorScope {
  const scope = req.ctx?.scope;
  if (scope?.kind !== 'operator') throw new AppError('UNAUTHORIZED', 'This operation needs an operator credential.');
  return scope;
}

/** The launch page's subjects are called by the gateway only; the token is the player's credential. */
export function internalScope(req: OperationRequest<any, any, any>): InternalScope {
  const scope = req.ctx?.scope;
  if (scope?.kind !== 'internal') throw new AppError('UNAUTHORIZED', 'This operation is internal.');
  return scope;
}
