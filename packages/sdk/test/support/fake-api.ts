// A local HTTP server standing in for the gateway: it records every request (raw target, headers,
// body bytes), checks the signature with @bo/contracts' own signRequest (the gateway's code), and
// answers from a script, one step per request, so retry behaviour is exact and repeatable.
import http from 'node:http';
import { signRequest, signRequestV2 } from '@bo/contracts';

export const KEY = 'bk_test_FakeKey0000000000000000000000';
export const SECRET = 'sk_test_FakeSecret000000000000000000000000000000';

export interface Recorded {
  method: string;
  /** The request target exactly as received. */
  target: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** The signature matches @bo/contracts' signRequest over what arrived. */
  signatureValid: boolean;
}

/** One scripted answer; `drop` closes the socket without answering (a network error). */
export type Step = { status: number; body?: unknown; headers?: Record<string, string> } | { drop: true };

export interface FakeApi {
  baseUrl: string;
  origin: string;
  requests: Recorded[];
  /** Answers for the next requests, in order; when empty, `fallback` answers. */
  script: Step[];
  fallback: Step;
  close(): Promise<void>;
}

export const envelope = (code: string, message = code, details?: Record<string, unknown>, requestId = 'req_fake') => ({
  error: { code, message, requestId, ...(details ? { details } : {}) },
});

export async function startFakeApi(): Promise<FakeApi> {
  const api: FakeApi = {
    baseUrl: '',
    origin: '',
    requests: [],
    script: [],
    fallback: { status: 200, body: {} },
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const ts = String(req.headers['x-timestamp'] ?? '');
      // As the gateway checks it: version 2 signs the Idempotency-Key too (the SDK sends it), version 1 without the header.
      const key = req.headers['idempotency-key'] as string | undefined;
      const expected =
        req.headers['x-signature-version'] === '2'
          ? signRequestV2(SECRET, req.method!, req.url!, ts, body, key)
          : signRequest(SECRET, req.method!, req.url!, ts, body);
      api.requests.push({ method: req.method!, target: req.url!, headers: req.headers, body, signatureValid: expected === req.headers['x-signature'] });
      const step = api.script.shift() ?? api.fallback;
      if ('drop' in step) {
        req.socket.destroy();
        return;
      }
      const payload = step.body === undefined ? '' : JSON.stringify(step.body);
      res
        .writeHead(step.status, {
          'x-request-id': `req_${api.requests.length}`,
          ...(payload ? { 'content-type': 'application/json' } : {}),
          ...step.headers,
        })
        .end(payload);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  api.origin = `http://127.0.0.1:${port}`;
  api.baseUrl = `${api.origin}/api/v1`;
  return api;
}

/** A clock that only moves when the SDK sleeps, and a record of every sleep. */
export function fakeTime(startMs = Date.UTC(2026, 10, 22, 12, 0, 0)) {
  let now = startMs;
  const sleeps: number[] = [];
  return {
    now: () => now,
    sleeps,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      now += ms;
    },
  };
}
