// What a handler checks about its request before the domain: who calls, and that the input is the
// contract's (the gateway validates too; a message may come from elsewhere).
import type { Static, TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { AppError, validationError, type OperationRequest, type OperatorScope, type PlayerState, PLAYER_STATE_SUBJECT } from '@bo/contracts';
import type { ServiceDeps } from '@bo/service-kit';

export type Req = OperationRequest<any, any, any>;

export function operatorScope(req: Req): OperatorScope {
  if (req.ctx?.scope?.kind !== 'operator') throw new AppError('UNAUTHORIZED', 'This operation needs an operator credential.');
  return req.ctx.scope;
}

export function adminActor(req: Req): string {
  if (req.ctx?.scope?.kind !== 'admin') throw new AppError('UNAUTHORIZED', 'This operation is for the admin API.');
  return req.ctx.scope.actor;
}

export function parseInput<T extends TSchema>(schema: T, value: unknown, where: 'body' | 'query' | 'path'): Static<T> {
  const input = value ?? {};
  if (Value.Check(schema, input)) return input;
  throw validationError(where, [...Value.Errors(schema, input)].map((e) => ({ path: e.path || '/', message: e.message })));
}

/** The player as the players service sees it in this brand (`exists: false` for another brand's). */
export async function playerState(deps: ServiceDeps, brandId: string, playerId: string): Promise<PlayerState> {
  return deps.call<PlayerState>(PLAYER_STATE_SUBJECT, { brandId, playerId });
}
