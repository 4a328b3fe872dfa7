// A load at a steady rate, for the runs that ask for one (`overallRate`: the provider calls at
// half the maximum rate, the soak). autocannon's own rate limit sends each connection's quota for
// the second as fast as it can and then waits for the next second, so "half the rate" was full
// load for half of each second and its latency that of full load. Here request i is due at
// start + i / rate, spread evenly, and its latency is counted from when it was due (a request that
// waits for a free connection waits on the clock too), so a backlog cannot hide.
//
// It walks the same request sequences as autocannon (`setupRequest` / `onResponse` with a context
// per connection), so every scenario keeps one definition of its requests.
import http from 'node:http';
import { createHistogram } from 'node:perf_hooks';
import type { AutocannonRequest } from 'autocannon';
import type { RunFigures } from './load.ts';

const TIMEOUT_MS = 10_000;

interface Connection {
  context: Record<string, unknown>;
  step: number;
}

interface Sent {
  status: number;
  body: string;
}

function send(agent: http.Agent, origin: URL, req: AutocannonRequest): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const body = typeof req.body === 'string' || Buffer.isBuffer(req.body) ? req.body : undefined;
    const r = http.request(
      {
        agent,
        host: origin.hostname,
        port: origin.port,
        method: req.method ?? 'GET',
        path: req.path ?? '/',
        headers: { ...(req.headers ?? {}), ...(body !== undefined ? { 'content-length': Buffer.byteLength(body) } : {}) },
        timeout: TIMEOUT_MS,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    r.on('timeout', () => r.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })));
    r.on('error', reject);
    r.end(body);
  });
}

/**
 * Sends `ratePerSec` requests a second for `durationSec`, evenly spaced, on at most
 * `connections` keep-alive connections, each walking `requests` in order with its own context.
 * Requests due before the end are all sent and counted, those waiting for a connection too (a
 * backlog shows in the latency, not as requests left out).
 */
export async function pacedRun(url: string, connections: number, durationSec: number, ratePerSec: number, requests: AutocannonRequest[]): Promise<RunFigures> {
  const origin = new URL(url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const latency = createHistogram();
  const statusCodes: Record<string, number> = {};
  let total = 0;
  let sent = 0;
  let errors = 0;
  let timeouts = 0;
  let non2xx = 0;

  const idle: Connection[] = Array.from({ length: connections }, () => ({ context: {}, step: 0 }));
  const waiting: number[] = []; // due times of requests no connection was free for
  const intervalMs = 1000 / ratePerSec;
  const start = performance.now();
  const end = start + durationSec * 1000;
  let inFlight = 0;
  let drained: (() => void) | undefined;

  const fire = (conn: Connection, dueAt: number) => {
    const base = requests[conn.step % requests.length]!;
    conn.step++;
    const req = (base.setupRequest ? base.setupRequest({ ...base }, conn.context) : base) ?? base;
    inFlight++;
    sent++;
    send(agent, origin, req)
      .then(({ status, body }) => {
        // Timed like autocannon's: answered requests only.
        latency.record(Math.max(1, Math.round((performance.now() - dueAt) * 1e6)));
        total++;
        statusCodes[status] = (statusCodes[status] ?? 0) + 1;
        if (status < 200 || status > 299) non2xx++;
        base.onResponse?.(status, body, conn.context);
      })
      .catch((err: { code?: string }) => {
        // A failed request, or a sequence step that could not read its answer: counted, never thrown.
        if (err?.code === 'ETIMEDOUT') timeouts++;
        else errors++;
      })
      .finally(() => {
        inFlight--;
        const next = waiting.shift();
        if (next !== undefined) fire(conn, next);
        else idle.push(conn);
        if (inFlight === 0 && drained) drained();
      });
  };

  await new Promise<void>((resolve) => {
    let i = 0;
    const tick = () => {
      const now = performance.now();
      for (let due = start + i * intervalMs; due <= now && due < end; due = start + ++i * intervalMs) {
        const conn = idle.pop();
        if (conn) fire(conn, due);
        else waiting.push(due);
      }
      const next = start + i * intervalMs;
      if (next >= end) return resolve();
      setTimeout(tick, Math.max(0, next - performance.now()));
    };
    tick();
  });
  // A connection that finishes takes the next waiting request: none waits once none is in flight.
  if (inFlight > 0) await new Promise<void>((resolve) => (drained = resolve));
  agent.destroy();

  // An empty histogram (no request answered) reads NaN for its mean: report zeros beside the errors.
  const answered = latency.count > 0;
  const ms = (ns: number) => (answered ? Math.round(ns / 1e6) : 0);
  return {
    requestsPerSec: Math.round((total / durationSec) * 100) / 100,
    total,
    sent,
    latencyMs: {
      avg: answered ? Math.round((latency.mean / 1e6) * 100) / 100 : 0,
      p50: ms(latency.percentile(50)),
      p90: ms(latency.percentile(90)),
      p99: ms(latency.percentile(99)),
      max: ms(latency.max),
    },
    errors,
    timeouts,
    non2xx,
    statusCodes,
  };
}
