// games.sessions.create (POST /players/{playerId}/game-sessions). Not idempotent: each call opens
// a new session. Check order (docs/decisions.md): validation → player 404 → game 404 → KYC → RG
// (self-exclusion, pause, br-spa's required limits, a time limit reached, the day's impediment
// check) → status. Sandbox sessions are demo sessions with a fictitious balance that never touches
// the wallet; production sessions are real.
import {
  ACTIVITY_CHECK_SUBJECT,
  activityCheckDue,
  AppError,
  PLAYER_STATE_SUBJECT,
  newId,
  type ActivityCheck,
  type gameOperations,
  type GameMode,
  type PlayerState,
  type PlayerStateRequest,
} from '@bo/contracts';
import { operatorScopeOf, ruleClock, type HandlerOf } from '@bo/service-kit';
import { playerAccountId } from '../../ledger/index.ts';
import { checkTimeLimits, hasTimeLimit, periodUsage } from '../../rg/index.ts';
import { assertPlayerExists, assertPlayerMayPlay } from '../domain/eligibility.ts';
import { toGameSession } from '../domain/views.ts';
import { providerFor } from '../providers/game-provider.ts';
import { addSession, findEnabledGame } from '../store/session-rows.ts';
import { addProviderSession, providerLaunchOf } from '../store/catalogue.ts';
import { hashSessionToken, issueSessionToken, sessionIdleSeconds } from '../domain/provider-session-token.ts';
import type { GamesContext } from './context.ts';
import { announceLimitReached } from './limit-reached.ts';

export function createGameSession(ctx: GamesContext): HandlerOf<typeof gameOperations.createGameSession> {
  return async (req) => {
    const scope = operatorScopeOf(req);
    const { playerId } = req.params;
    const { gameId } = req.body;

    const player = await ctx.deps.call<PlayerState>(PLAYER_STATE_SUBJECT, { brandId: scope.brandId, playerId } satisfies PlayerStateRequest, {
      requestId: req.ctx.requestId,
    });
    assertPlayerExists(player);
    const em = ctx.deps.orm.em.fork();
    const game = await findEnabledGame(em, gameId);
    // A provider's game is found only while it is offered to this operator (store/catalogue.ts).
    const providerLaunch = game?.providerId ? await providerLaunchOf(ctx.deps.sql, gameId, scope.operatorId, scope.environment) : undefined;
    if (!game || (game.providerId && !providerLaunch)) throw new AppError('GAME_NOT_FOUND');
    const now = ruleClock.now();
    assertPlayerMayPlay(player, now);
    const currency = player.currency ?? scope.currency;
    if (hasTimeLimit(player.rg, now)) {
      // A sandbox player's time is demo play's (docs/responsible-gaming.md, "Sandbox").
      const table = scope.environment === 'sandbox' ? 'wallet.rg_demo_usage' : 'wallet.rg_usage';
      const usage = await periodUsage(ctx.deps.sql, playerAccountId(scope.brandId, playerId, currency), player.rg.timeZone, now, table);
      try {
        checkTimeLimits(player.rg, usage, now);
      } catch (e) {
        await announceLimitReached(ctx.deps, e, { ...scope, playerId, externalId: player.externalId ?? null });
      }
    }
    // br-spa: the day's impediment check when no login was reported today (answered at once otherwise).
    if (activityCheckDue(player, now)) {
      await ctx.deps.call(ACTIVITY_CHECK_SUBJECT, { brandId: scope.brandId, playerId, activity: 'game_session' } satisfies ActivityCheck, {
        requestId: req.ctx.requestId,
      });
    }

    const mode: GameMode = scope.environment === 'sandbox' ? 'demo' : 'real';
    // Whole seconds: the token carries the expiry in seconds and must agree with the row.
    const expiresAt = new Date(Math.floor(now.getTime() / 1000) * 1000 + ctx.config.GAME_SESSION_TTL_SECONDS * 1000);
    const sessionId = newId('gameSession');
    // A registered provider's game gets a session token, which the provider authenticates the
    // player with on the provider wallet API (docs/providers.md, "Launch").
    const providerToken = providerLaunch ? issueSessionToken() : undefined;
    // The provider is asked before anything is stored: an unavailable provider leaves no session.
    const launch = await providerFor(game, ctx.remote, ctx.config.PUBLIC_BASE_URL, providerLaunch?.protocol, ctx.connectors).launch(game, {
      sessionId,
      gameId,
      playerId,
      brandId: scope.brandId,
      mode,
      currency,
      expiresAt,
      ...(player.rg ? { realityCheckMinutes: player.rg.realityCheckMinutes } : {}),
      ...(providerLaunch && providerToken ? { provider: { ...providerLaunch, token: providerToken } } : {}),
    });

    const row = await addSession(em, {
      id: sessionId,
      operatorId: scope.operatorId,
      brandId: scope.brandId,
      environment: scope.environment,
      playerId,
      gameId,
      mode,
      currency,
      demoBalance: mode === 'demo' ? ctx.config.GAME_DEMO_BALANCE : null,
      providerUrl: launch.type === 'redirect' ? launch.url : null,
      expiresAt,
      createdAt: now,
    });
    if (providerLaunch && providerToken) {
      // Issue #59 item 4: the provider session ends after its inactivity window without play; each
      // bet, refresh or authenticate moves its end on (providers/store/postings.ts, handlers/sessions.ts).
      const idleSeconds = sessionIdleSeconds(player.rg?.profile, ctx.config.GAME_SESSION_TTL_SECONDS);
      await addProviderSession(ctx.deps.sql, {
        id: newId('providerSession'),
        tokenHash: hashSessionToken(providerToken),
        providerId: providerLaunch.providerId,
        gameSessionId: sessionId,
        operatorId: scope.operatorId,
        brandId: scope.brandId,
        environment: scope.environment,
        playerId,
        gameId,
        currency,
        expiresAt: new Date(Math.floor(now.getTime() / 1000) * 1000 + idleSeconds * 1000),
        idleSeconds,
        createdAt: now,
      });
    }
    const gameUrl = `${ctx.config.PUBLIC_BASE_URL}/play/${ctx.tokens.sign({ sessionId, expiresAt })}`;
    return { status: 201, body: toGameSession(row, gameUrl) };
  };
}
