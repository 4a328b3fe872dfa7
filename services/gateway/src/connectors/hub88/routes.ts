// Hub88's Wallet API on our public port (docs/connectors-hub88.md): the base URL we hand Hub88 is
// `/connectors/hub88/<providerId>/<environment>`, under which it calls `/user/info`,
// `/user/balance` and `/transaction/bet|win|rollback`. Every answer is HTTP 200 with an `RS_*`
// status and the request's `request_uuid` (Hub88's rule), refusals included. Before a call runs:
// the provider is a Hub88 connector of ours (else RS_ERROR_INVALID_PARTNER), the caller is in its
// allow-list (same), `X-Hub88-Signature` verifies with one of Hub88's keys in force
// (RS_ERROR_INVALID_SIGNATURE), the body is JSON (RS_ERROR_WRONG_SYNTAX) of the call's shape
// (RS_ERROR_WRONG_SYNTAX / RS_ERROR_WRONG_TYPES).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  checkHub88Request,
  ENVIRONMENTS,
  HUB88_WALLET_PATHS,
  verifyHub88,
  type Environment,
  type Hub88Answer,
  type Hub88Request,
  type Hub88Status,
  type Hub88WalletCall,
} from '@bo/contracts';
import { parseJsonObject } from '@bo/http-kit';
import type { ConnectorTools } from '../connector.ts';
import { bet, rollback, userBalance, userInfo, win, type Hub88Context } from './calls.ts';
import { TokenPlayers } from '../token-players.ts';

type Params = { providerId: string; environment: string };

const CALLS: { [C in Hub88WalletCall]: (c: Hub88Context, r: Hub88Request<C>) => Promise<Hub88Answer> } = {
  info: userInfo,
  balance: userBalance,
  bet,
  win,
  rollback,
};

/** The request_uuid to echo in a refusal made before the body is checked, when the body has one. */
function requestUuidOf(raw: Buffer | undefined): string | undefined {
  try {
    const v = JSON.parse(raw?.toString('utf8') ?? '') as { request_uuid?: unknown };
    return typeof v?.request_uuid === 'string' ? v.request_uuid : undefined;
  } catch {
    return undefined;
  }
}

const header = (req: FastifyRequest, name: string) => {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

export async function hub88Routes(app: FastifyInstance, tools: ConnectorTools): Promise<void> {
  const tokens = new TokenPlayers();

  async function answer(call: Hub88WalletCall, req: FastifyRequest<{ Params: Params }>): Promise<{ answer: Hub88Answer; counted?: [string, Environment] }> {
    const early = (status: Hub88Status) => {
      const request_uuid = requestUuidOf(req.rawBody);
      return { status, ...(request_uuid === undefined ? {} : { request_uuid }) } satisfies Hub88Answer;
    };
    const { providerId } = req.params;
    const environment = req.params.environment as Environment;
    if (!ENVIRONMENTS.includes(environment) || providerId.length > 64) return { answer: early('RS_ERROR_INVALID_PARTNER') };
    const entry = await tools.directory.get(providerId, environment);
    if (entry?.record.protocol !== 'hub88') return { answer: early('RS_ERROR_INVALID_PARTNER') };
    const counted: [string, Environment] = [providerId, environment];
    if (!entry.isAllowedIp(req.ip)) return { answer: early('RS_ERROR_INVALID_PARTNER'), counted };
    if (!verifyHub88(req.rawBody ?? Buffer.alloc(0), header(req, 'x-hub88-signature'), tools.directory.keysInForce(entry))) {
      return { answer: early('RS_ERROR_INVALID_SIGNATURE'), counted };
    }
    let body: Record<string, unknown>;
    try {
      body = parseJsonObject(req.rawBody);
    } catch {
      return { answer: early('RS_ERROR_WRONG_SYNTAX'), counted };
    }
    const checked = checkHub88Request(call, body);
    if (!checked.ok) return { answer: early(checked.status), counted };
    const ctx: Hub88Context = { scope: { kind: 'provider', providerId, environment }, requestId: req.id, wallet: tools.wallet, tokens };
    return { answer: await (CALLS[call] as (c: Hub88Context, r: unknown) => Promise<Hub88Answer>)(ctx, checked.request), counted };
  }

  for (const call of Object.keys(HUB88_WALLET_PATHS) as Hub88WalletCall[]) {
    app.post<{ Params: Params }>(`/:providerId/:environment${HUB88_WALLET_PATHS[call]}`, async (req, reply) => {
      let result: { answer: Hub88Answer; counted?: [string, Environment] };
      try {
        result = await answer(call, req);
      } catch (e) {
        // An outage (the wallet did not answer in time) or a fault of ours: Hub88's general status.
        // A bet's is then rolled back by Hub88; the rollback finds the bet if it was taken.
        tools.log.warn({ err: e instanceof Error ? e.message : String(e), requestId: req.id, call }, 'hub88 call answered RS_ERROR_UNKNOWN');
        result = { answer: { status: 'RS_ERROR_UNKNOWN', ...(requestUuidOf(req.rawBody) ? { request_uuid: requestUuidOf(req.rawBody)! } : {}) } };
        const environment = req.params.environment as Environment;
        if (ENVIRONMENTS.includes(environment)) result.counted = [req.params.providerId, environment];
      }
      if (result.counted) tools.health.count(result.counted[0], result.counted[1], result.answer.status);
      return reply.code(200).type('application/json').send(result.answer);
    });
  }
}
