// The games tables in schema `wallet` as MikroORM entities. Kinds, modes and adapters are plain
// strings checked by the database (migrations.ts) and typed by the contract's unions.
import { defineEntity, p } from '@mikro-orm/core';
import type { Environment, GameKind, GameMode } from '@bo/contracts';

export type ProviderAdapter = 'local' | 'remote';

export const GameEntity = defineEntity({
  name: 'Game',
  tableName: 'games',
  schema: 'wallet',
  properties: {
    id: p.string().primary(),
    name: p.string(),
    /** Who supplies the game, as shown in the catalogue. */
    provider: p.string(),
    category: p.string(),
    kind: p.string().$type<GameKind>(),
    /** `local`: built-in game on the launch page; `remote`: launched through an external provider. */
    adapter: p.string().$type<ProviderAdapter>(),
    /** Per-game provider base URL (remote games); null falls back to GAME_PROVIDER_URL. */
    launchUrl: p.string().nullable(),
    enabled: p.boolean(),
    /** A registered provider's game (docs/providers.md): the provider and its own code of the game; null for the others. */
    providerId: p.string().nullable(),
    gameCode: p.string().nullable(),
    sortOrder: p.integer(),
    createdAt: p.datetime(),
  },
});
export type GameRow = InstanceType<typeof GameEntity.class>;

export const GameSessionEntity = defineEntity({
  name: 'GameSession',
  tableName: 'game_sessions',
  schema: 'wallet',
  properties: {
    id: p.string().primary(),
    operatorId: p.string(),
    brandId: p.string(),
    environment: p.string().$type<Environment>(),
    playerId: p.string(),
    gameId: p.string(),
    mode: p.string().$type<GameMode>(),
    currency: p.string(),
    /** NUMERIC(20,2): the fictitious balance of a demo session; null in real mode. */
    demoBalance: p.decimal('string').nullable(),
    /** The page an external provider gave for this session (remote games only). */
    providerUrl: p.string().nullable(),
    /** Rounds played so far; the next round is number `roundsPlayed + 1` (game_rounds.seq). */
    roundsPlayed: p.integer().default(0),
    expiresAt: p.datetime(),
    /** Set when the session was ended before its time (a restriction of the player); null when it ran to its end. */
    endedAt: p.datetime().nullable(),
    createdAt: p.datetime(),
  },
});
export type GameSessionRow = InstanceType<typeof GameSessionEntity.class>;

export const GameRoundEntity = defineEntity({
  name: 'GameRound',
  tableName: 'game_rounds',
  schema: 'wallet',
  properties: {
    id: p.string().primary(),
    sessionId: p.string(),
    seq: p.integer(),
    clientRoundId: p.string().nullable(),
    amount: p.decimal('string'),
    payout: p.decimal('string'),
    win: p.boolean(),
    /** json, not jsonb: its text as written, so a retried click is answered with the first answer's bytes. */
    outcome: p.json<Record<string, unknown>>().columnType('json'),
    /** Demo: the session's fictitious balance; real: the player's `available − held`, around the round. */
    balanceBefore: p.decimal('string').nullable(),
    balanceAfter: p.decimal('string').nullable(),
    /** Real rounds only: the player's BET entry, and the WIN entry when the round paid. */
    betEntryId: p.string().nullable(),
    winEntryId: p.string().nullable(),
    createdAt: p.datetime(),
  },
});
export type GameRoundRow = InstanceType<typeof GameRoundEntity.class>;

export const gameEntities = [GameEntity, GameSessionEntity, GameRoundEntity];
