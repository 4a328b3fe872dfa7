import { Type, type Static } from '@sinclair/typebox';
import { List, Timestamp, idOf } from './common.ts';
import { defineOperations } from './operations.ts';
import { PlayerIdParams } from './players.ts';

export const GameSchema = Type.Object({
  id: Type.String({ description: 'gm_ + a stable slug' }), name: Type.String(), provider: Type.String(), category: Type.String(),
}, { additionalProperties: false, $id: 'Game' });
export type Game = Static<typeof GameSchema>;

export const GameSessionSchema = Type.Object({
  id: idOf('gs'), playerId: idOf('plr'), gameId: Type.String(), gameUrl: Type.String({ format: 'uri' }),
  mode: Type.Union([Type.Literal('demo'), Type.Literal('real')]), expiresAt: Timestamp, createdAt: Timestamp,
}, { additionalProperties: false, $id: 'GameSession' });
export type GameSession = Static<typeof GameSessionSchema>;

export const CreateGameSessionSchema = Type.Object({ gameId: Type.String({ minLength: 1, maxLength: 64 }) }, { $id: 'CreateGameSession' });

export const gameOperations = defineOperations({
  listGames: {
    id: 'listGames', method: 'GET', path: '/games', subject: 'games.list', tag: 'Games',
    summary: 'The game catalogue', response: List(GameSchema), status: 200,
  },
  createGameSession: {
    id: 'createGameSession', method: 'POST', path: '/players/:playerId/game-sessions', subject: 'games.sessions.create', tag: 'Games',
    summary: 'Open a game session and get the gameUrl for the player browser', params: PlayerIdParams, body: CreateGameSessionSchema,
    response: GameSessionSchema, status: 201,
    errors: ['PLAYER_NOT_FOUND', 'GAME_NOT_FOUND', 'KYC_NOT_APPROVED', 'RG_BLOCKED', 'PLAYER_NOT_ACTIVE', 'PROVIDER_UNAVAILABLE'],
  },
});
