// Evolution's One Wallet on our public port (docs/connectors-evolution.md): the base URL we hand
// Evolution is `/connectors/evolution/<providerId>/<environment>`, under which it POSTs `/check`,
// `/balance`, `/debit`, `/credit`, `/cancel` and `/promo_payout`, each with its API token as the
// `authToken` query parameter. Before a call runs: the provider is an Evolution connector of ours,
// the caller is in its allow-list and the token is one of Evolution's in force (else HTTP 401
// INVALID_TOKEN_ID), the body is JSON of the call's shape (else HTTP 400 INVALID_PARAMETER, as
// valkyrie answers). Every other answer is HTTP 200 with its status and the request's `uuid`.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  checkEvolutionRequest,
  ENVIRONMENTS,
  EVOLUTION_AUTH_PARAM,
  EVOLUTION_WALLET_PATHS,
  evolutionAnswerText,
  evolutionHttpStatus,
  isAppError,
  parseEvolutionBody,
  type Environment,
  type EvolutionAnswer,
  type EvolutionCheckAnswer,
  type EvolutionRequest,
  type EvolutionStatus,
  type EvolutionWalletCall,
} from '@bo/contracts';
import { parseJsonObject } from '@bo/http-kit';
import type { ConnectorTools } from '../connector.ts';
import { TokenPlayers } from '../token-players.ts';
import { balance, cancel, check, credit, debit, promoPayout, type EvolutionContext } from './calls.ts';

type Params = { providerId: string; environment: string };
type Answer = EvolutionAnswer | EvolutionCheckAnswer;

const CALLS: { [C in EvolutionWalletCall]: (c: EvolutionContext, r: EvolutionRequest<C>) => Promise<Answer> } = {
  check,
  balance,
  debit,
  credit,
  cancel,
  promo_payout: promoPayout,
};

/** The uuid to echo in an answer made before the body is checked, when the body has one. */
function uuidOf(raw: Buffer | undefined): string | undefined {
  try {
    const v = JSON.parse(raw?.toString('utf8') ?? '') as { uuid?: unknown };
    return typeof v?.uuid === 'string' ? v.uuid : undefined;
  } catch {
    return undefined;
  }
}

export async function evolutionRoutes(app: FastifyInstance, tools: ConnectorTools): Promise<void> {
  const tokens = new TokenPlayers();

  async function answer(
    call: EvolutionWalletCall,
    req: FastifyRequest<{ Params: Params }>,
  ): Promise<{ answer: Answer; malformed?: true; counted?: [string, Environment] }> {
    const early = (status: EvolutionStatus): EvolutionAnswer => {
      const uuid = uuidOf(req.rawBody);
      return { status, balance: '0.00', bonus: '0.00', ...(uuid === undefined ? {} : { uuid }) };
    };
    const { providerId } = req.params;
    const environment = req.params.environment as Environment;
    if (!ENVIRONMENTS.includes(environment) || providerId.length > 64) return { answer: early('INVALID_TOKEN_ID') };
    const entry = await tools.directory.get(providerId, environment);
    if (entry?.record.protocol !== 'evolution') return { answer: early('INVALID_TOKEN_ID') };
    const counted: [string, Environment] = [providerId, environment];
    if (!entry.isAllowedIp(req.ip)) return { answer: early('INVALID_TOKEN_ID'), counted };
    const token = (req.query as Record<string, unknown>)[EVOLUTION_AUTH_PARAM];
    if (!tools.directory.secretMatches(entry, EVOLUTION_AUTH_PARAM, typeof token === 'string' ? token : undefined)) {
      return { answer: early('INVALID_TOKEN_ID'), counted };
    }
    let parsed: ReturnType<typeof parseEvolutionBody>;
    try {
      // The body's own rules first (UTF-8, an object, no member twice), then its amounts' exact text.
      parseJsonObject(req.rawBody);
      parsed = parseEvolutionBody(req.rawBody?.toString('utf8') ?? '');
    } catch {
      return { answer: early('INVALID_PARAMETER'), malformed: true, counted };
    }
    const checked = checkEvolutionRequest(call, parsed.body);
    if (!checked.ok) return { answer: early('INVALID_PARAMETER'), malformed: true, counted };
    const ctx: EvolutionContext = {
      scope: { kind: 'provider', providerId, environment },
      requestId: req.id,
      wallet: tools.wallet,
      tokens,
      amountOf: parsed.amountOf,
    };
    return { answer: await (CALLS[call] as (c: EvolutionContext, r: unknown) => Promise<Answer>)(ctx, checked.request), counted };
  }

  for (const call of Object.keys(EVOLUTION_WALLET_PATHS) as EvolutionWalletCall[]) {
    app.post<{ Params: Params }>(`/:providerId/:environment${EVOLUTION_WALLET_PATHS[call]}`, async (req, reply) => {
      let result: { answer: Answer; malformed?: true; counted?: [string, Environment] };
      try {
        result = await answer(call, req);
      } catch (e) {
        // The wallet did not answer in time (SERVICE_UNAVAILABLE): a temporary error, which Evolution
        // sends again (`retransmission`); any other fault of ours is its general status. Either way a
        // debit's retransmission or cancel finds the bet if it was taken, once.
        const outage = isAppError(e) && e.code === 'SERVICE_UNAVAILABLE';
        tools.log.warn(
          { err: e instanceof Error ? e.message : String(e), requestId: req.id, call },
          `evolution call answered ${outage ? 'TEMPORARY_ERROR' : 'UNKNOWN_ERROR'}`,
        );
        const uuid = uuidOf(req.rawBody);
        result = {
          answer: {
            status: outage ? 'TEMPORARY_ERROR' : 'UNKNOWN_ERROR',
            balance: '0.00',
            bonus: '0.00',
            ...(uuid === undefined ? {} : { uuid }),
            ...(outage ? { retransmission: true as const } : {}),
          },
        };
        const environment = req.params.environment as Environment;
        if (ENVIRONMENTS.includes(environment)) result.counted = [req.params.providerId, environment];
      }
      if (result.counted) tools.health.count(result.counted[0], result.counted[1], result.answer.status);
      return reply.code(evolutionHttpStatus(result.answer.status, result.malformed)).type('application/json').send(evolutionAnswerText(result.answer));
    });
  }
}
