// A stand-in domain service for gateway-layer tests: it answers one subject over real NATS with
// the kit's handler and reply (serve.ts), and counts the requests that reach its handler, so a
// test can tell how many effects the gateway caused. Like a real service it keeps the answers of
// keyed requests in Postgres (the kit's AnswerStore, in the harness's `stand_ins` schema), so
// replays, copies in progress and stored refusals behave as in production. 'silence' is an answer
// lost on its way back: the key is released (as for any 5xx) and nothing is sent.
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { AppError, queueGroup, rpcSubject, type OperationReply, type OperationRequest } from '@bo/contracts';
import { createLogger, handle, refusalRecorders, replyTo, type HandlerResult } from '@bo/service-kit';
import { testNatsUrl } from '@bo/service-kit/testing';
import type { Harness } from './harness.ts';

export interface FakeService {
  calls: OperationRequest[];
  /** What the next requests get; a function may delay or vary the answer. */
  respond: (req: OperationRequest) => Promise<OperationReply | 'silence'>;
  close(): Promise<void>;
}

class Silence extends Error {}

export async function fakeService(h: Pick<Harness, 'prefix' | 'answers'>, subject: string, service = 'fake'): Promise<FakeService> {
  const nc: NatsConnection = await connect({ servers: testNatsUrl() });
  const answers = await h.answers();
  const log = createLogger(service, 'silent');
  const fake: FakeService = {
    calls: [],
    respond: async (req) => ({ ok: true, status: 201, body: { n: fake.calls.length, body: req.body } }),
    close: async () => {
      if (!nc.isClosed()) await nc.drain();
    },
  };
  const handlers = {
    ...handle({ subject }, async (req): Promise<HandlerResult> => {
      fake.calls.push(req as OperationRequest);
      const r = await fake.respond(req as OperationRequest);
      if (r === 'silence') throw new Silence();
      if (!r.ok) throw AppError.fromBody(r.error);
      return { status: r.status, body: r.body };
    }),
    ...refusalRecorders(answers, [subject]),
  };
  for (const [s, handler] of Object.entries(handlers)) {
    nc.subscribe(rpcSubject(h.prefix, s), {
      queue: queueGroup(service),
      callback: (_e, msg) => {
        let silent = false;
        const watched = async (req: OperationRequest, env?: Parameters<typeof handler>[1]) => {
          try {
            return await handler(req, env);
          } catch (e) {
            silent = e instanceof Silence;
            throw e;
          }
        };
        void replyTo(watched, msg, { answers }, log, s).then((reply) => {
          if (!silent) msg.respond(JSON.stringify(reply));
        });
      },
    });
  }
  await nc.flush();
  return fake;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
