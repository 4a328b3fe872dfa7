// Betsy's partner backend API on our public port (docs/connectors-betsy.md): the PARTNER_API_URL we
// hand Betsy is `/connectors/betsy/<providerId>/<environment>`, under which it calls
// `POST /user/profile`, `POST /user/balance`, and `/payment/bet` (POST type 1: place; PUT type 1:
// unsettle, 2: settle, 3: rollback, 5: bet data update). Before a call runs: the provider is a Betsy connector of ours,
// the caller is in its allow-list and `x-sign-jws` is a detached JWS of the raw body with one of
// Betsy's partner secrets in force (else code 1), the body is JSON of the call's shape (else code 5).
// A success is HTTP 200 with the call's payload; every error HTTP 400 `{ code, message }`, as Betsy
// expects (any other status, or no answer in 5 s, makes Betsy roll a bet back).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  BETSY_PATHS,
  BETSY_SIGNATURE_HEADER,
  betsyAnswerText,
  betsyBetCall,
  betsyError,
  betsyHealthStatus,
  betsySignatureValid,
  checkBetsyRequest,
  ENVIRONMENTS,
  isAppError,
  parseBetsyBody,
  type BetsyCall,
  type BetsyErrorCode,
  type Environment,
} from '@bo/contracts';
import { parseJsonObject } from '@bo/http-kit';
import type { ConnectorTools } from '../connector.ts';
import { TokenPlayers } from '../token-players.ts';
import { balance, place, profile, rollback, settle, unsettle, update, type BetsyContext, type BetsyResult } from './calls.ts';

type Params = { providerId: string; environment: string };

const CALLS: { [C in BetsyCall]: (c: BetsyContext, r: never) => Promise<BetsyResult> } = { profile, balance, place, unsettle, settle, rollback, update };

const header = (req: FastifyRequest, name: string) => {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

export async function betsyRoutes(app: FastifyInstance, tools: ConnectorTools): Promise<void> {
  const tokens = new TokenPlayers();

  /** The call's result, and whose it is (the health counts a call of a provider of ours). */
  async function answer(
    which: 'profile' | 'balance' | 'bet',
    req: FastifyRequest<{ Params: Params }>,
  ): Promise<{ result: BetsyResult; counted?: [string, Environment] }> {
    const fail = (code: BetsyErrorCode, detail?: string): BetsyResult => ({ ok: false, error: betsyError(code, detail) });
    const { providerId } = req.params;
    const environment = req.params.environment as Environment;
    if (!ENVIRONMENTS.includes(environment) || providerId.length > 64) return { result: fail(1) };
    const entry = await tools.directory.get(providerId, environment);
    if (entry?.record.protocol !== 'betsy') return { result: fail(1) };
    const counted: [string, Environment] = [providerId, environment];
    if (!entry.isAllowedIp(req.ip)) return { result: fail(1), counted };
    const raw = req.rawBody ?? Buffer.alloc(0);
    if (!betsySignatureValid(header(req, BETSY_SIGNATURE_HEADER), raw, tools.directory.secretsInForce(entry, 'partnerSecret'))) {
      return { result: fail(1), counted };
    }
    let parsed: ReturnType<typeof parseBetsyBody>;
    try {
      // The body's own rules first (UTF-8, an object, no member twice), then its numbers' exact text.
      parseJsonObject(raw);
      parsed = parseBetsyBody(raw.toString('utf8'));
    } catch {
      return { result: fail(5, 'the body is not a JSON object'), counted };
    }
    const call: BetsyCall | undefined = which === 'bet' ? betsyBetCall(req.method, (parsed.body as { type?: unknown }).type) : which;
    if (!call) return { result: fail(5, `no ${req.method} /payment/bet of this type`), counted };
    const checked = checkBetsyRequest(call, parsed.body);
    if (!checked.ok) return { result: fail(5, `at ${checked.path || '/'}`), counted };
    const ctx: BetsyContext = {
      scope: { kind: 'provider', providerId, environment },
      requestId: req.id,
      wallet: tools.wallet,
      tokens,
      sourceOf: parsed.sourceOf,
      raw: raw.toString('utf8'),
    };
    return { result: await CALLS[call](ctx, checked.request as never), counted };
  }

  const route = (which: 'profile' | 'balance' | 'bet') => async (req: FastifyRequest<{ Params: Params }>, reply: FastifyReply) => {
    let out: { result: BetsyResult; counted?: [string, Environment] };
    try {
      out = await answer(which, req);
    } catch (e) {
      // The wallet did not answer in time, or a fault of ours: Betsy's system error. A place bet so
      // answered is rolled back by Betsy, a settle sent again: each finds the bet if it was taken, once.
      const outage = isAppError(e) && e.code === 'SERVICE_UNAVAILABLE';
      tools.log.warn(
        { err: e instanceof Error ? e.message : String(e), requestId: req.id, which },
        `betsy call answered code 100${outage ? ' (no answer in time)' : ''}`,
      );
      out = { result: { ok: false, error: betsyError(100) } };
      const environment = req.params.environment as Environment;
      if (ENVIRONMENTS.includes(environment)) out.counted = [req.params.providerId, environment];
    }
    const { result } = out;
    if (out.counted) tools.health.count(out.counted[0], out.counted[1], betsyHealthStatus(result.ok ? undefined : result.error.code));
    return reply
      .code(result.ok ? 200 : 400)
      .type('application/json')
      .send(betsyAnswerText(result.ok ? result.answer : result.error));
  };

  app.post<{ Params: Params }>(`/:providerId/:environment${BETSY_PATHS.profile}`, route('profile'));
  app.post<{ Params: Params }>(`/:providerId/:environment${BETSY_PATHS.balance}`, route('balance'));
  app.post<{ Params: Params }>(`/:providerId/:environment${BETSY_PATHS.bet}`, route('bet'));
  app.put<{ Params: Params }>(`/:providerId/:environment${BETSY_PATHS.bet}`, route('bet'));
}
