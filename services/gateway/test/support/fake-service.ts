// A stand-in domain service for gateway-layer tests: it answers one subject over real NATS and
// counts the requests that reach it, so a test can tell how many effects the gateway caused.
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { rpcSubject, queueGroup, type OperationReply, type OperationRequest } from '@bo/contracts';
import { testNatsUrl } from '@bo/service-kit/testing';

export interface FakeService {
  calls: OperationRequest[];
  /** What the next requests get; a function may delay or vary the answer. */
  respond: (req: OperationRequest) => Promise<OperationReply | 'silence'>;
  close(): Promise<void>;
}

export async function fakeService(prefix: string, subject: string, service = 'fake'): Promise<FakeService> {
  const nc: NatsConnection = await connect({ servers: testNatsUrl() });
  const fake: FakeService = {
    calls: [],
    respond: async (req) => ({ ok: true, status: 201, body: { n: fake.calls.length, body: req.body } }),
    close: async () => {
      if (!nc.isClosed()) await nc.drain();
    },
  };
  nc.subscribe(rpcSubject(prefix, subject), {
    queue: queueGroup(service),
    callback: (_e, msg) => {
      const req = msg.json<OperationRequest>();
      fake.calls.push(req);
      void fake.respond(req).then((r) => {
        if (r !== 'silence') msg.respond(JSON.stringify(r));
      });
    },
  });
  await nc.flush();
  return fake;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
