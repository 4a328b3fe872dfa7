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
    case 'ECONNREFUSED': return 'connection refused';
    case 'ECONNRESET': return 'connection reset';
    case 'ENOTFOUND': return 'host not found';
    case 'EAI_AGAIN': return 'host lookup failed (temporary)';
    case 'ENONPUBLIC': return `destination refused: ${e.message}`;
    default: return e?.message ? `${e.code ? `${e.code}: ` : ''}${e.message}` : 'request failed';
  }
}

export function postWebhook(opts: PostOptions): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let url: URL;
  try { url = new URL(opts.url); } catch {
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
    const req = transport.request(url, {
      method: 'POST',
      headers: { ...opts.headers, 'content-length': String(opts.body.length) },
      // A fresh connection per attempt: nothing shared between endpoints, nothing stale.
      agent: false,
      ...(opts.guardAddresses ? { lookup: publicOnlyLookup } : {}),
    }, (res) => {
      const status = res.statusCode ?? 0;
      const delivered = status >= 200 && status < 300;
      let retryAfterMs: number | undefined;
      if (status === 429 || status === 503) {
        const h = res.headers['retry-after'];
        retryAfterMs = parseRetryAfter(Array.isArray(h) ? h[0] : h);
      }
      settle({
        delivered, statusCode: status,
        error: delivered ? null : `HTTP ${status}${status >= 300 && status < 400 ? ' (redirects are not followed)' : ''}`,
        ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      });
      res.on('error', () => undefined);
      res.resume();
      res.on('end', () => { clearTimeout(deadline); req.destroy(); });
    });
    const deadline = setTimeout(() => { timedOut = true; req.destroy(); }, opts.timeoutMs);
    req.on('error', (err) => settle({ delivered: false, statusCode: null, error: describe(err, opts.timeoutMs, timedOut) }));
    req.on('close', () => {
      clearTimeout(deadline);
      settle({ delivered: false, statusCode: null, error: timedOut ? describe(undefined, opts.timeoutMs, true) : 'connection closed without a response' });
    });
    req.end(opts.body);
  });
}
