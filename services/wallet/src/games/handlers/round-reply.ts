// What demo and real rounds share: the game's kind, the request and the reply.
import { AppError, type PlayRoundInput } from '@bo/contracts';
import type { HandlerResult } from '@bo/service-kit';
import type { BuiltInKind } from '../domain/rounds.ts';
import { toRoundResult, type RoundView } from '../domain/views.ts';

export function builtInKindOf(game: { kind: string }): BuiltInKind {
  if (game.kind === 'external') throw new AppError('GAME_NOT_FOUND', 'This game is played at its provider, not on this page.');
  return game.kind as BuiltInKind;
}

export function roundReply(round: RoundView, game: { id: string }): HandlerResult {
  return { status: 201, body: toRoundResult(round, game.id) };
}

export interface RoundRequest {
  token: string | undefined;
  kind: BuiltInKind;
  input: PlayRoundInput;
}
