// The provider wallet API's OpenAPI document (`GET /provider/v1/openapi.json`, docs/providers.md):
// the same generator as the operators' document (openapi.ts), with the provider's key in the
// security scheme, no Idempotency-Key (the provider's transactionId is the key of every money
// call) and no RateLimit-* headers, its own public documents and examples.
import { buildOpenApi, type ApiSurface, type PublicRoute } from './openapi.ts';
import { API_VERSION } from './common.ts';
import { providerOperations } from './providers.ts';
import type { Operation } from './operations.ts';

const PLAYER = 'plr_01934b7e8c8e7c3a9f2d1b0a11223344';
const BRAND = 'brd_01934b7e8c8e7c3a9f2d1b0a22334455';
const TOKEN = 'pst_3q2-Example-Token';
const result = (over: Record<string, unknown>) => ({
  transactionId: 'bet-7731',
  kind: 'bet',
  playerId: PLAYER,
  roundId: 'round-5512',
  currency: 'BRL',
  moved: '-10.00',
  balance: '90.00',
  replayed: false,
  createdAt: '2026-11-21T10:00:00.123Z',
  ...over,
});

const RECORD = {
  transactionId: 'bet-7731',
  kind: 'bet',
  playerId: PLAYER,
  roundId: 'round-5512',
  betTransactionId: null,
  currency: 'BRL',
  requested: '-10.00',
  moved: '-10.00',
  balance: '90.00',
  status: 'ok',
  providerFunded: false,
  jackpotContribution: '0.10',
  promotionType: null,
  campaignId: null,
  createdAt: '2026-11-21T10:00:00.123Z',
};

/** Examples of each provider operation, checked against its schemas (packages/portal/test/provider-docs.test.ts). */
export const PROVIDER_OPERATION_EXAMPLES: ApiSurface['examples'] = {
  providerAuthenticate: {
    body: { token: TOKEN },
    response: { playerId: PLAYER, brandId: BRAND, currency: 'BRL', balance: '100.00', gameCode: 'sweet-fruits', expiresAt: '2026-11-21T10:30:00.000Z' },
  },
  providerRefreshSession: {
    body: { token: TOKEN },
    response: {
      playerId: PLAYER,
      currency: 'BRL',
      startedAt: '2026-11-21T10:00:00.000Z',
      expiresAt: '2026-11-21T10:42:00.000Z',
      idleSeconds: 1800,
      realityCheckMinutes: 60,
      netResult: '-4.50',
    },
  },
  providerBalance: { body: { token: TOKEN }, response: { playerId: PLAYER, currency: 'BRL', balance: '100.00' } },
  providerBet: {
    body: { transactionId: 'bet-7731', token: TOKEN, roundId: 'round-5512', gameCode: 'sweet-fruits', amount: '10.00', currency: 'BRL' },
    response: result({}),
  },
  providerWin: {
    body: { transactionId: 'win-8812', playerId: PLAYER, roundId: 'round-5512', amount: '25.50', currency: 'BRL', roundClosed: true },
    response: result({ transactionId: 'win-8812', kind: 'win', moved: '25.50', balance: '115.50' }),
  },
  providerRollback: {
    body: { transactionId: 'rb-9921', playerId: PLAYER, betTransactionId: 'bet-7731', roundId: 'round-5512' },
    response: result({ transactionId: 'rb-9921', kind: 'rollback', moved: '10.00', balance: '100.00' }),
  },
  providerCorrection: {
    body: {
      transactionId: 'cor-1201',
      playerId: PLAYER,
      roundId: 'slip-4410',
      amount: '-15.00',
      currency: 'BRL',
      reason: 'Resettled: the goal was disallowed',
    },
    response: result({ transactionId: 'cor-1201', kind: 'correction', roundId: 'slip-4410', moved: '-15.00', balance: '85.00' }),
  },
  // Issue #59: what you fund, and your reads of your transactions with us.
  providerFreeBet: {
    body: { transactionId: 'fb-3301', token: TOKEN, roundId: 'free-7001', gameCode: 'sweet-fruits', amount: '1.00', currency: 'BRL', rewardId: 'spins-100' },
    response: result({ transactionId: 'fb-3301', kind: 'free_bet', roundId: 'free-7001', moved: '0.00', balance: '100.00' }),
  },
  providerPromoCredit: {
    body: { transactionId: 'promo-4401', playerId: PLAYER, amount: '50.00', currency: 'BRL', promotionType: 'tournament_prize', promotionId: 'tour-nov' },
    response: result({ transactionId: 'promo-4401', kind: 'promo_credit', roundId: 'tour-nov', moved: '50.00', balance: '150.00' }),
  },
  providerJackpotWin: {
    body: { transactionId: 'jp-5501', playerId: PLAYER, roundId: 'round-5512', jackpotId: 'mega', amount: '1000.00', currency: 'BRL' },
    response: result({ transactionId: 'jp-5501', kind: 'jackpot_win', moved: '1000.00', balance: '1090.00' }),
  },
  providerGetTransaction: { response: RECORD },
  providerRoundTransactions: { response: { data: [RECORD] } },
  providerListTransactions: { response: { data: [RECORD], nextCursor: null } },
};

const REPLAY =
  'Idempotent on `transactionId`: the same call again answers the first answer with `replayed: true` and moves nothing; the id with another call is 409 `TRANSACTION_CONFLICT` (`details.differs`).';

const PROVIDER_DESCRIPTIONS: Record<string, string> = {
  providerAuthenticate:
    'Checks in order: the token is one we issued to you (401 `SESSION_TOKEN_INVALID`), not expired (401 `SESSION_TOKEN_EXPIRED`, `details.expiredAt`). Answers the opaque player id, brand, currency, balance (available − held) and the game of the session.',
  providerRefreshSession:
    "A keep-alive while the player is at your game without betting (a live table watched, a menu open): a session ends after its inactivity window without play (30 minutes under Brazil's rules, Portaria SPA/MF 1.207/2024), and each bet, refresh or authenticate moves its end on. Checks in order: the token (401 `SESSION_TOKEN_INVALID`, `SESSION_TOKEN_EXPIRED`: an ended session is not revived), the player (404 `PLAYER_NOT_FOUND`, 403 `KYC_NOT_APPROVED`, `RG_BLOCKED`, `TERMS_NOT_ACCEPTED`, `PLAYER_NOT_ACTIVE`: end the game). The time since the player's last activity counts toward their time limits, as on our own games' pages. Answers the session's new end and what your reality check shows every `realityCheckMinutes` (null: none): the time since `startedAt` and `netResult`, what the player's play with you moved since then.",
  providerBalance: "The player's balance (available − held). An expired token still reads it; an unknown one is 401 `SESSION_TOKEN_INVALID`.",
  providerBet: `${REPLAY} The id is bound to the player of the session token: the same id with another player's token is 409 \`TRANSACTION_CONFLICT\` (\`differs\` includes \`playerId\`), never that player's answer. A rollback of this bet that arrived first makes it 409 \`BET_ROLLED_BACK\`. \`amount\` is 0.01 to 1000000.00 (else 422 \`VALIDATION_ERROR\` at \`/amount\`). Then, in order: the session token (401 \`SESSION_TOKEN_INVALID\`, \`SESSION_TOKEN_EXPIRED\`) → its currency (422 \`CURRENCY_MISMATCH\`) → the provider (403 \`PROVIDER_DISABLED\`, \`PROVIDER_NOT_ENABLED\`) → the game (404 \`GAME_NOT_FOUND\`, 403 \`GAME_DISABLED\`) → the operator (403 \`OPERATOR_SUSPENDED\`) → the player (404 \`PLAYER_NOT_FOUND\`, 403 \`KYC_NOT_APPROVED\`, \`RG_BLOCKED\`, \`TERMS_NOT_ACCEPTED\`, \`PLAYER_NOT_ACTIVE\`) → limits (403 \`RG_BLOCKED\`), the round (409 \`ROUND_CLOSED\`, or \`TRANSACTION_CONFLICT\` when the round is another player's) and the balance (422 \`INSUFFICIENT_FUNDS\` with \`details.balance\`), in one statement.`,
  providerWin: `${REPLAY} Accepted whatever became of the session, the player or the operator since the bet. Then: the round is yours and this player's (404 \`ROUND_NOT_FOUND\`), of this currency (422 \`CURRENCY_MISMATCH\`), open (409 \`ROUND_CLOSED\`). \`amount\` is 0 to 9999999999999.99 (a prize may be far larger than a bet, whose cap is 1000000.00): 0 settles a lost round. When the player owes you (a correction's debit their balance did not cover), the win repays it first: \`repaid\` in the answer. A win that settles a sports bet carries \`eventEndedAt\`, when the event ended: the prize is due 120 minutes after it (Portaria SPA/MF 615/2024, art. 7 §4), and we record that deadline and whether the credit met it (a late credit is still paid).`,
  providerRollback: `${REPLAY} A bet never received is recorded as cancelled (\`moved: "0.00"\`) and refused if it arrives later; a bet already rolled back (a bet never received included) moves 0.00 again; a bet whose round has a win or is settled is 409 \`BET_ALREADY_SETTLED\`.`,
  providerFreeBet: `${REPLAY} A free bet or free round you fund: nothing is taken from the player (\`moved: "0.00"\`); the round is a free round (a paid bet cannot join it) and its wins are credited as free-bet wins (FREE_BET_WIN). Checks as a bet's: the session token, currency, provider, game, operator and player. Under Brazil's rules (\`br-spa\`) it is 403 \`BONUS_FORBIDDEN\`: Lei 14.790/2023 art. 29 forbids any advance, bonus or advantage before a bet.`,
  providerPromoCredit: `${REPLAY} A tournament prize, a promotion's prize, a cash-back (PROMO_CREDIT) or free rounds' winnings (FREE_BET_WIN), with no bet. The player is one you launched (404 \`PLAYER_NOT_FOUND\`), in its currency (422 \`CURRENCY_MISMATCH\`). Under Brazil's rules only a prize after a bet of the player with you is accepted (403 \`BONUS_FORBIDDEN\` otherwise, and always for free rounds' winnings).`,
  providerJackpotWin: `${REPLAY} A jackpot prize you pay (JACKPOT_WIN), with the round whose bet won it when there is one (404 \`ROUND_NOT_FOUND\`): it never settles or reopens the round. Under Brazil's rules only a jackpot a bet of the player won is accepted (403 \`BONUS_FORBIDDEN\`).`,
  providerGetTransaction:
    "One of your transactions with us in your key's environment: what it asked (`requested`), what moved, the balance after it, and whether it still stands (`status`). 404 `TRANSACTION_NOT_FOUND`.",
  providerRoundTransactions: "A round's (or slip's, or a promotion's) transactions, oldest first. 404 `ROUND_NOT_FOUND`.",
  providerListTransactions:
    'Your transactions over `[from, to)` (at most 31 days), oldest first, `limit` a page (at most 1000), then `cursor` from `nextCursor`. For your reconciliation; ours reads your daily statement.',
  providerCorrection: `${REPLAY} \`amount\` is signed and never zero, from -9999999999999.99 to 9999999999999.99. Only a settled round (409 \`ROUND_NOT_SETTLED\`). A credit is paid in full; a debit is taken up to the player's balance (\`moved\`), the rest (requested − moved) kept as the player's debt, which your next wins and credit corrections to the player repay first (\`repaid\` in their answers).`,
};

const doc = (path: string, id: string, summary: string, type: string, example: unknown): PublicRoute => ({
  path,
  id,
  summary,
  type,
  schema: type === 'application/json' ? { type: 'object' } : { type: 'string' },
  example,
});

export const PROVIDER_API_SURFACE: ApiSurface = {
  info: {
    title: 'Provider Wallet API',
    summary: 'The seamless wallet that game providers (casino aggregators, sportsbooks) call for every bet, win and rollback.',
    contactName: 'Provider Wallet API support',
    description: [
      "Called by a game provider's server: authenticate the session token we gave at launch, read the balance, debit bets, credit wins, roll back bets and correct settled bets. The whole guide: docs/providers.md, the reference page `/provider/v1/docs`.",
      '**Authentication.** Every operation except the public documents carries `X-Provider-Key` (`pk_test_…` sandbox, `pk_live_…` production), `X-Timestamp` (epoch seconds, within 300 s of the server clock) and `X-Signature` = lowercase hex (compared case-insensitively) HMAC-SHA256 keyed with your `psk_` secret over four lines joined by LF: the method, the path as sent (with `/provider/v1` and the query string), the timestamp and the hex SHA-256 of the body bytes. Bodies are sent as `application/json` (no other type).',
      '**Exactly once.** Every money call carries your `transactionId`: the same call again answers the first answer (`replayed: true`) and moves nothing; the same id with another call is 409 `TRANSACTION_CONFLICT`. There is no Idempotency-Key header. Retry with the same id whenever an answer does not arrive. Ids are kept at least 180 days.',
      '**Errors** use the envelope `{ "error": { "code", "message", "requestId", "details" } }`; `code` is stable. Responses may gain fields: ignore unknown ones.',
    ],
  },
  securitySchemes: {
    providerKey: {
      type: 'apiKey',
      in: 'header',
      name: 'X-Provider-Key',
      description: 'Your provider key: pk_test_... (sandbox) or pk_live_... (production).',
    },
    timestamp: { type: 'apiKey', in: 'header', name: 'X-Timestamp', description: 'Epoch seconds; within 300 s of the server clock.' },
    signature: {
      type: 'apiKey',
      in: 'header',
      name: 'X-Signature',
      description: 'hex HMAC-SHA256(psk_ secret, METHOD\\nPATH?QUERY\\nTIMESTAMP\\nsha256hex(body))',
    },
  },
  tags: [
    { name: 'Provider wallet', description: 'The calls of a provider: sessions, balance, bets, wins, rollbacks, corrections.' },
    { name: 'Public documents', description: 'The documents that describe the provider API. No authentication.' },
  ],
  commonErrors: [
    'BAD_REQUEST',
    'HEADERS_TOO_LARGE',
    'INVALID_CREDENTIALS',
    'TIMESTAMP_OUT_OF_RANGE',
    'INVALID_SIGNATURE',
    'FORBIDDEN_IP',
    'INTERNAL_ERROR',
    'SERVICE_UNAVAILABLE',
  ],
  idempotencyKeys: false,
  rateLimited: false,
  publicRoutes: [
    doc('/openapi.json', 'getProviderOpenApi', 'This OpenAPI 3.1 document', 'application/json', {
      openapi: '3.1.0',
      info: { title: 'Provider Wallet API', version: API_VERSION },
    }),
    doc('/postman.json', 'getProviderPostmanCollection', 'A Postman v2.1 collection that runs a round trip of every operation', 'application/json', {
      info: { name: 'Provider Wallet API' },
      item: [],
    }),
    doc('/signing-snippets.json', 'getProviderSigningSnippets', 'Code that signs provider requests', 'application/json', { requestSigning: { node: '...' } }),
    doc('/test-vectors.json', 'getProviderTestVectors', 'Inputs and the signatures they must produce', 'application/json', { requests: [] }),
    doc('/docs', 'getProviderDocs', 'The provider API reference (HTML) with a sandbox try-it', 'text/html', '<!doctype html>...'),
  ],
  examples: PROVIDER_OPERATION_EXAMPLES,
  descriptions: PROVIDER_DESCRIPTIONS,
  serverDescription: 'This server (the key chooses sandbox or production)',
};

/** The provider API's document, served at `${serverUrl}/openapi.json` (serverUrl ends with /provider/v1). */
export function buildProviderOpenApi(serverUrl: string): Record<string, unknown> {
  return buildOpenApi(providerOperations as Record<string, Operation>, { serverUrl, webhookEvents: [], surface: PROVIDER_API_SURFACE });
}
