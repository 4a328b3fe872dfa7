// Every game is launched through a provider adapter. The built-in provider serves the game on our
// own launch page; an external provider is asked over HTTP for its page for this session. A
// provider that cannot be reached, is too slow or answers nonsense is 502 PROVIDER_UNAVAILABLE.
import {
  AppError,
  BetsySettingsSchema,
  evolutionGameUrl,
  EvolutionSettingsSchema,
  hub88GamesApi,
  hub88PrivateKey,
  Hub88SettingsSchema,
  SANDBOX_PROVIDER,
  SANDBOX_PROVIDER_PAGE,
  type BetsySettings,
  type EvolutionSettings,
  type GameMode,
  type Hub88Settings,
} from '@bo/contracts';
import { Value } from '@sinclair/typebox/value';
import { openSecret } from '@bo/service-kit';
import type { GameRow } from '../store/entities.ts';

export interface LaunchSession {
  sessionId: string;
  gameId: string;
  playerId: string;
  brandId: string;
  mode: GameMode;
  currency: string;
  expiresAt: Date;
  /** Minutes between the reality checks the game shows (the operator's setting), when the player has responsible-gaming rules. */
  realityCheckMinutes?: number;
  /** A registered provider's game (docs/providers.md): its session token, game code and launch settings. */
  provider?: {
    token: string;
    gameCode: string;
    launchUrl: string | null;
    timeoutMs: number;
    /** `native`, or the connector's protocol whose API launches the game (docs/connectors.md). */
    protocol?: string;
    connector?: { settings: unknown; privateKeySealed: string | null; secretsSealed?: Record<string, string> } | null;
  };
}

/** `page`: our launch page plays the game; `redirect`: the launch page sends the player to `url`. */
export type LaunchResult = { type: 'page' } | { type: 'redirect'; url: string };

export interface GameProvider {
  launch(game: GameRow, session: LaunchSession): Promise<LaunchResult>;
}

/** Built-in games: nothing to ask anyone, the launch page renders them. */
export const localProvider: GameProvider = {
  async launch() {
    return { type: 'page' };
  },
};

/**
 * An external provider reached at `<base>/launch`: POST { sessionId, gameId, playerId, mode,
 * currency, expiresAt } → 2xx { url } (an absolute http(s) URL of its game page for the session).
 * A registered provider's game also sends `token` (what the provider authenticates the player with
 * on the provider wallet API) and `gameCode`, to the provider's launch URL with its timeout.
 */
export function remoteProvider(opts: { defaultBaseUrl: string; timeoutMs: number }): GameProvider {
  return {
    async launch(game, session) {
      const base = (session.provider?.launchUrl ?? game.launchUrl ?? opts.defaultBaseUrl).replace(/\/+$/, '');
      if (!base) throw new AppError('PROVIDER_UNAVAILABLE', `The provider of ${game.id} is not configured.`, { provider: game.provider });
      let res: Response;
      try {
        res = await fetch(`${base}/launch`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({
            sessionId: session.sessionId,
            gameId: session.gameId,
            playerId: session.playerId,
            mode: session.mode,
            currency: session.currency,
            expiresAt: session.expiresAt.toISOString(),
            ...(session.provider ? { token: session.provider.token, gameCode: session.provider.gameCode } : {}),
            // Issue #59 item 4: the reality check a provider's page shows, as our own page does.
            ...(session.realityCheckMinutes ? { realityCheckMinutes: session.realityCheckMinutes } : {}),
          }),
          signal: AbortSignal.timeout(session.provider?.timeoutMs ?? opts.timeoutMs),
          redirect: 'error',
        });
      } catch (e) {
        const timedOut = e instanceof Error && (e.name === 'TimeoutError' || e.name === 'AbortError');
        throw new AppError(
          'PROVIDER_UNAVAILABLE',
          timedOut ? `The provider of ${game.id} did not answer in time.` : `The provider of ${game.id} could not be reached.`,
          { provider: game.provider },
        );
      }
      const body = res.ok ? ((await res.json().catch(() => undefined)) as { url?: unknown } | undefined) : undefined;
      const url = typeof body?.url === 'string' ? body.url : undefined;
      if (!res.ok || !url || !/^https?:\/\//.test(url) || !URL.canParse(url)) {
        throw new AppError('PROVIDER_UNAVAILABLE', `The provider of ${game.id} refused the launch.`, { provider: game.provider, providerStatus: res.status });
      }
      return { type: 'redirect', url };
    },
  };
}

/**
 * The built-in sandbox provider (docs/providers.md): nothing to ask anyone; its game page is the
 * gateway's, holding the session token as a provider's page would.
 */
export function sandboxProvider(publicBaseUrl: string): GameProvider {
  return {
    async launch(game, session) {
      if (!session.provider) throw new AppError('PROVIDER_UNAVAILABLE', `The game ${game.id} has no provider session.`, { provider: game.provider });
      return { type: 'redirect', url: `${publicBaseUrl}${SANDBOX_PROVIDER_PAGE}/${session.provider.token}` };
    },
  };
}

/**
 * A Hub88 game (docs/connectors-hub88.md, "Launch"): Hub88's Games API `/game/url`, signed with our
 * private key for the session's environment, gives the page the player is sent to. The player is
 * `user` (our player id, what Hub88 sends back on every wallet call), the session token is `token`
 * (what bets carry), the brand is the sub-partner. Not configured, unreachable or refusing: 502
 * PROVIDER_UNAVAILABLE, and no session exists.
 */
export function hub88Provider(masterKey: string): GameProvider {
  return {
    async launch(game, session) {
      const p = session.provider;
      const unavailable = (why: string) => new AppError('PROVIDER_UNAVAILABLE', `The provider of ${game.id} ${why}.`, { provider: game.provider });
      if (!p?.connector?.privateKeySealed || !Value.Check(Hub88SettingsSchema, p.connector.settings)) {
        throw unavailable('has no Hub88 connector set up for this environment');
      }
      const settings: Hub88Settings = p.connector.settings;
      const api = hub88GamesApi({
        baseUrl: settings.apiBaseUrl,
        operatorId: settings.operatorId,
        privateKey: hub88PrivateKey(openSecret(p.connector.privateKeySealed, masterKey)),
        timeoutMs: p.timeoutMs,
      });
      const url = await api.gameUrl({
        user: session.playerId,
        token: p.token,
        sub_partner_id: session.brandId,
        platform: 'GPL_DESKTOP',
        operator_id: settings.operatorId,
        meta: {},
        lang: settings.lang ?? 'pt',
        game_code: p.gameCode,
        currency: session.currency,
        game_currency: session.currency,
        // Our operators are Brazilian (contracts' DEFAULT_CURRENCY): the players play in Brazil.
        country: 'BR',
        ...(settings.lobbyUrl ? { lobby_url: settings.lobbyUrl } : {}),
      });
      if (!url.ok) throw unavailable(`did not give a game URL (${url.reason})`);
      return { type: 'redirect', url: url.value };
    },
  };
}

/**
 * An Evolution game (docs/connectors-evolution.md, "Launch"): Evolution's User Authentication API
 * (`/ua/v1/<casinoKey>/<casinoToken>`), as valkyrie asks it, answers the entry the player is sent
 * to. The player is `player.id` (our player id, Evolution's `userId` on every wallet call), the
 * session token is `player.session.id` (Evolution's `sid`), the table is the game code; nothing
 * personal is sent (no name). Not configured, unreachable or refusing: 502 PROVIDER_UNAVAILABLE.
 */
export function evolutionProvider(masterKey: string): GameProvider {
  return {
    async launch(game, session) {
      const p = session.provider;
      const unavailable = (why: string) => new AppError('PROVIDER_UNAVAILABLE', `The provider of ${game.id} ${why}.`, { provider: game.provider });
      const casinoToken = p?.connector?.secretsSealed?.casinoToken;
      if (!p || !casinoToken || !Value.Check(EvolutionSettingsSchema, p.connector?.settings)) {
        throw unavailable('has no Evolution connector set up for this environment (settings and casino token)');
      }
      const settings = p.connector!.settings as EvolutionSettings;
      const url = await evolutionGameUrl({
        baseUrl: settings.apiBaseUrl,
        casinoKey: settings.casinoKey,
        casinoToken: openSecret(casinoToken, masterKey),
        timeoutMs: p.timeoutMs,
        request: {
          uuid: session.sessionId,
          player: {
            id: session.playerId,
            update: true,
            // Our operators are Brazilian (contracts' DEFAULT_CURRENCY): the players play in Brazil.
            country: 'BR',
            language: settings.lang ?? 'pt',
            currency: session.currency,
            session: { id: p.token },
          },
          config: {
            brand: { id: session.brandId },
            game: { table: { id: p.gameCode } },
            channel: { wrapped: false },
            ...(settings.lobbyUrl ? { urls: { lobby: settings.lobbyUrl } } : {}),
          },
        },
      });
      if (!url.ok) throw unavailable(`did not give a game URL (${url.reason})`);
      return { type: 'redirect', url: url.value };
    },
  };
}

/**
 * A Betsy sportsbook (docs/connectors-betsy.md, "Launch"): Betsy has no launch API; its frame starts
 * in a page with the player's session token (its SDK's `token`, which every call of its backend
 * carries). The player is sent to the connector's `frameUrl` with `token` and `lang`. Not
 * configured: 502 PROVIDER_UNAVAILABLE.
 */
export function betsyProvider(): GameProvider {
  return {
    async launch(game, session) {
      const p = session.provider;
      if (!p || !Value.Check(BetsySettingsSchema, p.connector?.settings)) {
        throw new AppError('PROVIDER_UNAVAILABLE', `The provider of ${game.id} has no Betsy connector set up for this environment (its frameUrl).`, {
          provider: game.provider,
        });
      }
      const settings = p.connector!.settings as BetsySettings;
      const url = new URL(settings.frameUrl);
      url.searchParams.set('token', p.token);
      url.searchParams.set('lang', settings.lang ?? 'pt');
      return { type: 'redirect', url: url.toString() };
    },
  };
}

/** The connectors' launch adapters, by protocol (a connector whose games launch through its own API adds its own). */
export type ConnectorLaunchers = Readonly<Record<string, GameProvider>>;

export function providerFor(game: GameRow, remote: GameProvider, publicBaseUrl: string, protocol?: string, connectors: ConnectorLaunchers = {}): GameProvider {
  if (game.providerId === SANDBOX_PROVIDER.id) return sandboxProvider(publicBaseUrl);
  const connector = protocol && protocol !== 'native' ? connectors[protocol] : undefined;
  if (connector) return connector;
  return game.adapter === 'remote' ? remote : localProvider;
}
