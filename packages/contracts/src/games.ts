import { Type, type Static } from '@sinclair/typebox';
import { EmptyObject, List, Money, MoneyInput, Nullable, Timestamp, idOf } from './common.ts';
import { defineOperations } from './operations.ts';
import { defineMessages } from './messages.ts';
import { AdminPlayerIdParams, PlayerIdParams } from './players.ts';

export const GameSchema = Type.Object(
  {
    id: Type.String({ description: 'gm_ + a stable slug' }),
    name: Type.String(),
    provider: Type.String(),
    category: Type.String(),
  },
  { additionalProperties: false, $id: 'Game' },
);
export type Game = Static<typeof GameSchema>;

export const GAME_MODES = ['demo', 'real'] as const;
export type GameMode = (typeof GAME_MODES)[number];

export const GameSessionSchema = Type.Object(
  {
    id: idOf('gs'),
    playerId: idOf('plr'),
    gameId: Type.String(),
    gameUrl: Type.String({ format: 'uri' }),
    mode: Type.Union([Type.Literal('demo'), Type.Literal('real')], { description: 'demo in sandbox (fictitious balance), real in production' }),
    expiresAt: Timestamp,
    createdAt: Timestamp,
  },
  { additionalProperties: false, $id: 'GameSession' },
);
export type GameSession = Static<typeof GameSessionSchema>;

export const CreateGameSessionSchema = Type.Object({ gameId: Type.String({ minLength: 1, maxLength: 64 }) }, { $id: 'CreateGameSession' });
export type CreateGameSession = Static<typeof CreateGameSessionSchema>;

/**
 * A game session ended (issue #66 item 9): by the operator (`POST …/game-sessions/{sessionId}/end`, or
 * all of a player's at once), by our team, or by the player's self-exclusion, pause or impediment.
 * Once ended its page is 410 and a provider's bets on its token are refused (their wins and rollbacks
 * still settle). `endedAt`: when it ended; a session that ended on its own (its time or inactivity
 * window ran out) answers that time.
 */
export const EndedGameSessionSchema = Type.Object(
  {
    id: idOf('gs'),
    playerId: idOf('plr'),
    gameId: Type.String(),
    mode: Type.Union([Type.Literal('demo'), Type.Literal('real')]),
    createdAt: Timestamp,
    endedAt: Timestamp,
  },
  { additionalProperties: false, $id: 'EndedGameSession' },
);
export type EndedGameSession = Static<typeof EndedGameSessionSchema>;

export const GameSessionIdParams = Type.Object({
  playerId: Type.String({ minLength: 1, maxLength: 64 }),
  sessionId: Type.String({ minLength: 1, maxLength: 64 }),
});

/** Our team's end of a player's open sessions: why, kept in the audit row. */
export const AdminEndGameSessionsSchema = Type.Object(
  {
    brandId: Type.String({ minLength: 1, maxLength: 64, description: "The player's brand (from the player's file)" }),
    reason: Type.String({ minLength: 1, maxLength: 500, description: 'Why our team ends them (kept in the audit row)' }),
  },
  { $id: 'AdminEndGameSessions' },
);
export type AdminEndGameSessions = Static<typeof AdminEndGameSessionsSchema>;

export const gameOperations = defineOperations({
  listGames: {
    id: 'listGames',
    method: 'GET',
    path: '/games',
    subject: 'games.list',
    tag: 'Games',
    summary: 'The game catalogue',
    response: List(GameSchema),
    status: 200,
  },
  createGameSession: {
    id: 'createGameSession',
    method: 'POST',
    path: '/players/:playerId/game-sessions',
    subject: 'games.sessions.create',
    tag: 'Games',
    summary: 'Open a game session and get the gameUrl for the player browser',
    params: PlayerIdParams,
    body: CreateGameSessionSchema,
    response: GameSessionSchema,
    status: 201,
    errors: ['PLAYER_NOT_FOUND', 'GAME_NOT_FOUND', 'KYC_NOT_APPROVED', 'RG_BLOCKED', 'PLAYER_NOT_ACTIVE', 'PROVIDER_UNAVAILABLE'],
  },
  endGameSession: {
    id: 'endGameSession',
    method: 'POST',
    path: '/players/:playerId/game-sessions/:sessionId/end',
    subject: 'games.sessions.end',
    tag: 'Games',
    summary: "End a player's game session now (the player logged out): its page stops and a provider's bets on it are refused; wins and rollbacks still settle",
    params: GameSessionIdParams,
    body: EmptyObject,
    response: EndedGameSessionSchema,
    status: 200,
    idempotent: true,
    errors: ['PLAYER_NOT_FOUND', 'GAME_SESSION_NOT_FOUND'],
  },
  endPlayerGameSessions: {
    id: 'endPlayerGameSessions',
    method: 'POST',
    path: '/players/:playerId/game-sessions/end',
    subject: 'games.sessions.endAll',
    tag: 'Games',
    summary: 'End every open game session of a player now (the player logged out); answers the sessions it ended',
    params: PlayerIdParams,
    body: EmptyObject,
    response: List(EndedGameSessionSchema),
    status: 200,
    idempotent: true,
    errors: ['PLAYER_NOT_FOUND'],
  },
});

/** Our team's side (admin API): ending a player's open sessions when it must (audited). */
export const gameSessionAdminOperations = defineOperations({
  adminEndGameSessions: {
    id: 'adminEndGameSessions',
    method: 'POST',
    path: '/admin/players/:id/game-sessions/end',
    subject: 'games.admin.sessions.end',
    tag: 'Admin',
    summary: 'End every open game session of a player now (audited with the reason); answers the sessions it ended',
    params: AdminPlayerIdParams,
    body: AdminEndGameSessionsSchema,
    response: List(EndedGameSessionSchema),
    status: 200,
    errors: ['PLAYER_NOT_FOUND'],
  },
});

// ---- internal: the gateway's launch page (GET /play/:token, POST /play/:token/rounds) asks the
// wallet's games module. Not in the public operation table: the signed launch token in the URL
// is the credential, verified by the wallet (the only holder of GAME_LAUNCH_SECRET). Requests
// carry ctx.scope { kind: 'internal', service: 'gateway' } and params { token }. ----
export const GAME_PLAY_SUBJECTS = {
  /** params { token } → PlaySessionView; LAUNCH_TOKEN_INVALID (403) / LAUNCH_TOKEN_EXPIRED (410). */
  session: 'games.play.session',
  /** params { token }, body PlayRoundInput → 201 PlayRoundResult. */
  round: 'games.play.round',
  /** params { token } → PlayOwner: the operator of the session, for the gateway's operator check. */
  owner: 'games.play.owner',
  /** params { token } → PlayHeartbeat: the page is in use (time played counts), and the session's net result. */
  heartbeat: 'games.play.heartbeat',
} as const;
/** The launch token is the credential: any string reaches its check (a malformed one is 403 LAUNCH_TOKEN_INVALID, not a 422). */
export const PlayParamsSchema = Type.Object({ token: Type.String() });
export type PlayParams = Static<typeof PlayParamsSchema>;

/** How the built-in games decide a round; `external` games run at their provider. */
export const GAME_KINDS = ['crash', 'dice', 'roulette', 'slots', 'external'] as const;
export type GameKind = (typeof GAME_KINDS)[number];
export const ROULETTE_PICKS = ['red', 'black', 'odd', 'even', 'low', 'high'] as const;

export const PlaySessionViewSchema = Type.Object(
  {
    sessionId: idOf('gs'),
    mode: Type.Union([Type.Literal('demo'), Type.Literal('real')]),
    currency: Type.String(),
    /** Demo: the session's fictitious balance. Real: the player's withdrawable balance (available − held), what a bet can take. */
    balance: Nullable(Money),
    expiresAt: Timestamp,
    /** False for external games, and in real mode when the player may no longer play (`notice` says why). */
    playable: Type.Boolean(),
    notice: Nullable(Type.String()),
    game: Type.Object({
      id: Type.String(),
      name: Type.String(),
      provider: Type.String(),
      category: Type.String(),
      kind: Type.Union(GAME_KINDS.map((k) => Type.Literal(k))),
    }),
    /** `page`: the gateway renders the built-in game; `redirect`: the provider's own page. */
    launch: Type.Union([Type.Object({ type: Type.Literal('page') }), Type.Object({ type: Type.Literal('redirect'), url: Type.String({ format: 'uri' }) })]),
    limits: Type.Object({ minBet: Money, maxBet: Money }),
    /** Minutes between reality checks (the operator's setting), when the player has responsible-gaming rules. */
    realityCheckMinutes: Type.Optional(Type.Integer({ minimum: 1 })),
  },
  { $id: 'PlaySessionView' },
);
export type PlaySessionView = Static<typeof PlaySessionViewSchema>;

export const PlayRoundInputSchema = Type.Object(
  {
    amount: MoneyInput,
    /** crash: cash-out multiplier (1.01–100.00); dice: roll-under number (2–96). */
    target: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}(\\.[0-9]{1,2})?$' })),
    /** roulette: red, black, odd, even, low (1–18) or high (19–36). */
    pick: Type.Optional(Type.Union(ROULETTE_PICKS.map((k) => Type.Literal(k)))),
    /** Set by the page per click: a retried POST with the same id returns the same round. Required in real mode. */
    clientRoundId: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{8,64}$' })),
  },
  { $id: 'PlayRoundInput' },
);
export type PlayRoundInput = Static<typeof PlayRoundInputSchema>;

export const PlayRoundResultSchema = Type.Object(
  {
    id: idOf('gr'),
    sessionId: idOf('gs'),
    gameId: Type.String(),
    amount: Money,
    payout: Money,
    win: Type.Boolean(),
    /** Kind-specific: crash { crashPoint, target }, dice { roll, target, multiplier }, roulette { number, color, pick }, slots { reels, multiplier }. */
    outcome: Type.Record(Type.String(), Type.Unknown()),
    /** Demo: the session balance after the round; real: the player's withdrawable balance after it. */
    balanceAfter: Nullable(Money),
    createdAt: Timestamp,
  },
  { $id: 'PlayRoundResult' },
);
export type PlayRoundResult = Static<typeof PlayRoundResultSchema>;

/**
 * Whose session a launch token names. Operators (and their suspension) live in the gateway; the
 * token and the session row live in the wallet. The gateway asks this once per token (the answer
 * never changes) and checks the operator's status itself before every page and round.
 */
export const PlayOwnerSchema = Type.Object({ sessionId: idOf('gs'), operatorId: Type.String() }, { $id: 'PlayOwner' });
export type PlayOwner = Static<typeof PlayOwnerSchema>;

/** The page's heartbeat answer: what the reality check shows besides the time the page counted. */
export const PlayHeartbeatSchema = Type.Object(
  {
    sessionId: idOf('gs'),
    /** Wins minus stakes of the session's rounds (negative: a loss). */
    netResult: Money,
    roundsPlayed: Type.Integer(),
  },
  { $id: 'PlayHeartbeat' },
);
export type PlayHeartbeat = Static<typeof PlayHeartbeatSchema>;
/** What the page says with a heartbeat: `realityCheck: 'acknowledged'` when the player chose to play on after a reality check. */
export const PlayHeartbeatInputSchema = Type.Object({ realityCheck: Type.Optional(Type.Literal('acknowledged')) }, { additionalProperties: false });

export const gamePlayMessages = defineMessages({
  session: { subject: GAME_PLAY_SUBJECTS.session, params: PlayParamsSchema, reply: PlaySessionViewSchema },
  round: { subject: GAME_PLAY_SUBJECTS.round, params: PlayParamsSchema, body: PlayRoundInputSchema, reply: PlayRoundResultSchema },
  owner: { subject: GAME_PLAY_SUBJECTS.owner, params: PlayParamsSchema, reply: PlayOwnerSchema },
  heartbeat: { subject: GAME_PLAY_SUBJECTS.heartbeat, params: PlayParamsSchema, body: PlayHeartbeatInputSchema, reply: PlayHeartbeatSchema },
});
