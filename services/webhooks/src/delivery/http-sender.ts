// One HTTP POST of a webhook. node:http gives what fetch does not: a lookup hook for the SSRF
// guard at connect time, no redirect following (a 3xx is a failed attempt), and one deadline
// over connect, TLS and response headers. The response body is not needed and is discarded.
import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import type { AttemptResult } from '../domain/retry-schedule.ts';
import { parseRetryAfter } from '../domain/retry-schedule.ts';
import { ipLiteralOf, isNonPublicAddress } from '../domain/url-policy.ts';
import { publicOnlyLookup } from './destination-guard.ts';

export interface PostOptions {
  url: string;
  headers: Record<string, string>;
  body: Buffer;
  timeoutMs: number;
  /** Refuse non-public destination addresses (production without WEBHOOK_ALLOW_PRIVATE). */
  guardAddresses: boolean;
}

function describe(err: unknown, timeoutMs: number, timedOut: boolean): string {
  if (timedOut) return `timeout: no response within ${timeoutMs} ms`;
  const e = err as NodeJS.ErrnoException;
  switch (e?.code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
      return 'connection reset';
    case 'ENOTFOUND':
      return 'host not found';
    case 'EAI_AGAIN':
      return 'host lookup failed (temporary)';
    case 'ENONPUBLIC':
      return `destination refused: ${e.message}`;
    default:
      return e?.message ? `${e.code ? `${e.code}: ` : ''}${e.message}` : 'request failed';
  }
}

// Keep-alive connections per endpoint origin: a new TCP (and TLS) connection per delivery was most
// of the webhooks service's CPU per event. A connection is checked by the address guard when it
// is opened, so reusing it never reaches an address the guard would refuse. Idle sockets are
// dropped after 4 s, before common servers' keep-alive timeouts (Node's 5 s), and a request that
// fails on a reused socket before any response is sent once more on a fresh connection.
const agents = new Map<string, http.Agent>();
const MAX_AGENTS = 1000;
function agentFor(url: URL, guard: boolean): http.Agent {
  const key = `${url.protocol}//${url.host}|${guard}`;
  let agent = agents.get(key);
  if (!agent) {
    if (agents.size >= MAX_AGENTS) {
      const [oldest, a] = agents.entries().next().value!;
      agents.delete(oldest);
      a.destroy();
    }
    // As many idle sockets kept as may be open: with fewer, each burst past that number closed its
    // extra sockets once idle and the next burst opened them again (a connect and a close each).
    const options = { keepAlive: true, maxSockets: 32, maxFreeSockets: 32, timeout: 4000, scheduling: 'lifo' as const };
    agent = url.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
    agents.set(key, agent);
  }
  return agent;
}

export function postWebhook(opts: PostOptions): Promise<AttemptResult> {
  return send(opts, true);
}

function send(opts: PostOptions, reuse: boolean): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let url: URL;
  try {
    url = new URL(opts.url);
  } catch {
    return Promise.resolve({ delivered: false, statusCode: null, error: 'invalid URL', durationMs: 0 });
  }
  const literal = ipLiteralOf(url);
  if (opts.guardAddresses && literal && isNonPublicAddress(literal)) {
    return Promise.resolve({ delivered: false, statusCode: null, error: `destination refused: ${literal} is a non-public address`, durationMs: 0 });
  }
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    let timedOut = false;
    const settle = (r: Omit<AttemptResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      resolve({ ...r, durationMs: elapsed() });
    };
    const req = transport.request(
      url,
      {
        method: 'POST',
        headers: { ...opts.headers, 'content-length': String(opts.body.length) },
        agent: reuse ? agentFor(url, opts.guardAddresses) : false,
        ...(opts.guardAddresses ? { lookup: publicOnlyLookup } : {}),
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const delivered = status >= 200 && status < 300;
        let retryAfterMs: number | undefined;
        if (status === 429 || status === 503) {
          const h = res.headers['retry-after'];
          retryAfterMs = parseRetryAfter(Array.isArray(h) ? h[0] : h);
        }
        settle({
          delivered,
          statusCode: status,
          error: delivered ? null : `HTTP ${status}${status >= 300 && status < 400 ? ' (redirects are not followed)' : ''}`,
          ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
        });
        res.on('error', () => undefined);
        res.resume();
        res.on('end', () => clearTimeout(deadline));
      },
    );
    const deadline = setTimeout(() => {
      timedOut = true;
      req.destroy();
    }, opts.timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) => {
      // The server closed an idle kept-alive connection as we used it: once more, on a new one.
      if (reuse && req.reusedSocket && !settled && !timedOut && (err.code === 'ECONNRESET' || err.code === 'EPIPE')) {
        settled = true;
        clearTimeout(deadline);
        void send(opts, false).then(resolve);
        return;
      }
      settle({ delivered: false, statusCode: null, error: describe(err, opts.timeoutMs, timedOut) });
    });
    req.on('close', () => {
      clearTimeout(deadline);
      settle({ delivered: false, statusCode: null, error: timedOut ? describe(undefined, opts.timeoutMs, true) : 'connection closed without a response' });
    });
    req.end(opts.body);
  });
}
