// The game launch page (gameUrl) and its play endpoint, a Fastify plugin the gateway mounts on its
// public port, outside /api/v1 and without operator auth: the signed launch token in the URL is the
// credential. The page never holds the token's key; it hands the token to the wallet's games
// (the PlayGames port: wallet-games.ts over NATS), which verify it, decide every round server-side
// and record it: demo sessions move a fictitious balance, real sessions the player's money through
// the wallet's ledger (the page shows the withdrawable balance, `available − held`, which is what a
// bet can take). The page is self-contained (page.ts: its CSS and script inlined under a nonce CSP,
// no external assets) because operators embed it in an iframe. Errors answer in the API's one
// envelope (JSON) or as an error page (HTML). The host may refuse a token's page and rounds before
// the wallet is asked (`operatorRefusal`: the gateway refuses those of a suspended operator); the
// wallet refuses them for the player and the session.
//
//   GET  /play/:token          HTML page of the session (302 to the provider for external games)
//   POST /play/:token/rounds   JSON: plays one round → 201 PlayRoundResult or the error envelope
//   POST /play/:token/heartbeat JSON: the page is in use (at least once a minute while the player is
//                              active) → 200 PlayHeartbeat (the session's net result for the reality check)
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, type ErrorBody, type OperationReply, type PlaySessionView } from '@bo/contracts';
import { envelope, logFailure, parseJsonObject, toAppError } from '@bo/http-kit';
import { pageHeaders, renderErrorPage, renderGamePage } from './page.ts';

/** The wallet's games as the page asks them, for a launch token (games.play.session, games.play.round). */
export interface PlayGames {
  session(token: string, requestId: string): Promise<OperationReply<PlaySessionView>>;
  round(token: string, requestId: string, body: Record<string, unknown>): Promise<OperationReply>;
  /**
   * games.play.heartbeat: the page is in use (time played counts), or (`realityCheck: 'acknowledged'`) the
   * player played on after a reality check; the session's net result. Absent: heartbeats answer 204.
   */
  heartbeat?(token: string, requestId: string, body: Record<string, unknown>): Promise<OperationReply>;
}

/** The refusal of a token's page or round by the host (its own reasons, or its token), or undefined. */
export type PlayRefusal = (token: string, requestId: string) => Promise<ErrorBody | undefined>;

export interface PlayRoutesOptions {
  games: PlayGames;
  /** The gateway's public address; the page may talk to it besides its own origin. */
  publicBaseUrl: string;
  /** Asked before every page and round, before the wallet; none: the wallet's rules only. */
  operatorRefusal?: PlayRefusal;
  /** Largest round body accepted (default 4 KiB; a round is a few short fields). */
  roundBodyLimitBytes?: number;
}

// A launch token is `v1.<gs_id>.<exp>.<sig>`; anything far from that shape is refused here
// without a round trip. The wallet does the real verification.
const TOKEN_SHAPE = /^[A-Za-z0-9._-]{10,200}$/;

/** Registered on the public server, outside /api/v1: `app.register(playRoutes, { games, publicBaseUrl, operatorRefusal })`. */
export async function playRoutes(app: FastifyInstance, opts: PlayRoutesOptions): Promise<void> {
  const limit = opts.roundBodyLimitBytes ?? 4096;
  // Own body parsing in this scope: bodies arrive as bytes whatever the parent app registered,
  // and become a JSON object here (the gateway's public app parses nothing by itself).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: limit }, (_req, body, done) => done(null, body));
  const refusal = async (token: string, requestId: string) => (opts.operatorRefusal ? opts.operatorRefusal(token, requestId) : undefined);

  app.get<{ Params: { token: string } }>('/play/:token', async (req, reply) => {
    const token = req.params.token;
    setRequestId(req, reply);
    if (!TOKEN_SHAPE.test(token)) return sendErrorPage(reply, req, new AppError('LAUNCH_TOKEN_INVALID'));
    let result: OperationReply<PlaySessionView>;
    try {
      const refused = await refusal(token, String(req.id));
      if (refused) return sendErrorPage(reply, req, AppError.fromBody(refused));
      result = await opts.games.session(token, String(req.id));
    } catch (e) {
      return sendErrorPage(reply, req, failureOf(e, req));
    }
    if (!result.ok) return sendErrorPage(reply, req, AppError.fromBody(result.error));
    const view = result.body;
    if (view.launch.type === 'redirect') {
      // External games run at their provider; no-referrer keeps our token out of its logs.
      return reply.code(302).headers(pageHeaders()).header('location', view.launch.url).send();
    }
    const nonce = randomBytes(16).toString('base64');
    return reply.code(200).headers(pageHeaders(nonce, opts.publicBaseUrl)).type('text/html; charset=utf-8').send(renderGamePage(view, nonce));
  });

  /**
   * A JSON endpoint of the page (a round, a heartbeat): never cached; a token far from its shape is
   * refused without a round trip; `read` takes the request apart, then the host's refusal comes
   * before the wallet is asked (nothing of a suspended operator's is played); every failure in the
   * API's envelope.
   */
  const jsonRoute = <T>(path: string, route: JsonRoute<T>) =>
    app.post<{ Params: { token: string } }>(path, async (req, reply) => {
      const token = req.params.token;
      setRequestId(req, reply);
      reply.header('cache-control', 'no-store');
      if (!TOKEN_SHAPE.test(token)) return sendJsonError(reply, req, new AppError('LAUNCH_TOKEN_INVALID'));
      if (route.offered && !route.offered()) return reply.code(204).send();
      let result: OperationReply;
      try {
        const input = route.read(req);
        const refused = await refusal(token, String(req.id));
        if (refused) return sendJsonError(reply, req, AppError.fromBody(refused));
        result = await route.ask(token, String(req.id), input);
      } catch (e) {
        return sendJsonError(reply, req, failureOf(e, req));
      }
      if (!result.ok) return sendJsonError(reply, req, AppError.fromBody(result.error));
      return reply
        .code(route.status ?? result.status)
        .type('application/json')
        .send(result.body);
    });

  jsonRoute('/play/:token/rounds', {
    read: (req) => parseJsonObject(req.body as Buffer | undefined),
    ask: (token, requestId, body) => opts.games.round(token, requestId, body),
  });
  jsonRoute('/play/:token/heartbeat', {
    read: (req) => parseJsonObject(req.body as Buffer | undefined),
    offered: () => opts.games.heartbeat !== undefined,
    ask: (token, requestId, body) => opts.games.heartbeat!(token, requestId, body),
    status: 200,
  });
}

/** One JSON endpoint of the page (playRoutes, `jsonRoute`). */
interface JsonRoute<T> {
  read(req: FastifyRequest): T;
  ask(token: string, requestId: string, input: T): Promise<OperationReply>;
  /** Whether the wallet's games answer it at all; when not, 204 (a heartbeat). */
  offered?(): boolean;
  /** The status of a success; the wallet's by default. */
  status?: number;
}

function setRequestId(req: FastifyRequest, reply: FastifyReply): void {
  if (!reply.hasHeader('x-request-id')) reply.header('x-request-id', String(req.id));
}

/** What the page or the round answers for a failure of its own: the API's mapping and logging (an unavailable dependency is a 503). */
function failureOf(e: unknown, req: FastifyRequest): AppError {
  const err = toAppError(e);
  logFailure(req, e, err);
  return err;
}

// Both answers carry the error's headers: Retry-After of a 503, the wallet's included.
function sendJsonError(reply: FastifyReply, req: FastifyRequest, err: AppError): FastifyReply {
  if (err.headers) reply.headers(err.headers);
  return reply
    .code(err.status)
    .type('application/json')
    .send(envelope(err.toBody(), String(req.id)));
}

function sendErrorPage(reply: FastifyReply, req: FastifyRequest, err: AppError): FastifyReply {
  const nonce = randomBytes(16).toString('base64');
  if (err.headers) reply.headers(err.headers);
  return reply
    .code(err.status)
    .headers(pageHeaders(nonce))
    .type('text/html; charset=utf-8')
    .send(renderErrorPage(err.status, err.toBody(), String(req.id), nonce));
}
