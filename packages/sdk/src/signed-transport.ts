// Sends one operation: builds the URL, signs every attempt afresh (new X-Timestamp, same body
// bytes), adds the Idempotency-Key to idempotent operations, and retries per retry-policy.ts
// with the same key. The clock, sleep, randomness and fetch are injectable for tests.
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { ConnectionError, errorFromResponse, type BackOfficeError } from './errors.ts';
import { API_VERSION } from './operations.generated.ts';
import { DEFAULT_RETRY, backoffDelay, isRetryable, parseRetryAfter, type AttemptFailure, type RetryOptions } from './retry-policy.ts';
import { prepareSecret, signRequestV2, type PreparedSecret } from './signing.ts';

export interface TransportOptions {
  /**
   * The contract's `{base_url}`, ending with `/api/v1` (e.g. `https://api.example.com/api/v1`).
   * A bare origin gets `/api/v1` appended.
   */
  baseUrl: string;
  /** Operator key, `bk_test_...` (sandbox) or `bk_live_...` (production). */
  key: string;
  /** Operator secret, `sk_...`; never sent, only used to sign. */
  secret: string;
  retry?: Partial<RetryOptions>;
  /** Deadline of one attempt (a timeout is a network error, retried like one). Default 30 s. */
  timeoutMs?: number;
  fetch?: typeof fetch;
  /** Clock in epoch milliseconds, for X-Timestamp and HTTP-date Retry-After. */
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** In [0, 1), for backoff jitter. */
  random?: () => number;
  /** Makes an Idempotency-Key when the caller gives none (8–128 of `[A-Za-z0-9_\-:.]`). */
  newIdempotencyKey?: () => string;
  userAgent?: string;
}

export interface RequestOptions {
  /** For idempotent operations: your own key (e.g. derived from your payment id); default a random UUID. */
  idempotencyKey?: string;
  signal?: AbortSignal;
  timeoutMs?: number;
  retry?: Partial<RetryOptions>;
}

/** What the transport needs to know about an operation (a row of OPERATIONS). */
export interface OperationSpec {
  id: string;
  method: string;
  path: string;
  pathParams: readonly string[];
  idempotent: boolean;
  hasBody: boolean;
}

export interface OperationInput {
  params?: Record<string, string>;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
}

export interface ApiResponse<T> {
  status: number;
  body: T;
  headers: Headers;
  /** X-Request-Id of the attempt that answered. */
  requestId: string | undefined;
  /** The key sent, for idempotent operations. */
  idempotencyKey: string | undefined;
  /** True when the server answered from its idempotency store (`Idempotent-Replayed: true`). */
  replayed: boolean;
  attempts: number;
}

const USER_AGENT = `bo-sdk-node (api ${API_VERSION})`;

export class SignedTransport {
  readonly #origin: string;
  readonly #basePath: string;
  readonly #key: string;
  readonly #secret: PreparedSecret;
  readonly #retry: RetryOptions;
  readonly #timeoutMs: number;
  readonly #fetch: typeof fetch;
  readonly #now: () => number;
  readonly #sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly #random: () => number;
  readonly #newKey: () => string;
  readonly #userAgent: string;

  constructor(opts: TransportOptions) {
    if (!opts.key || !opts.secret) throw new TypeError('key and secret are required');
    const base = new URL(opts.baseUrl);
    this.#origin = base.origin;
    const p = base.pathname.replace(/\/+$/, '');
    this.#basePath = p === '' ? '/api/v1' : p;
    this.#key = opts.key;
    this.#secret = prepareSecret(opts.secret);
    this.#retry = { ...DEFAULT_RETRY, ...opts.retry };
    this.#timeoutMs = opts.timeoutMs ?? 30_000;
    // Looked up per call, so a test or an instrumentation that replaces globalThis.fetch is seen.
    this.#fetch = opts.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.#now = opts.now ?? Date.now;
    this.#sleep = opts.sleep ?? ((ms, signal) => delay(ms, undefined, { signal }));
    this.#random = opts.random ?? Math.random;
    this.#newKey = opts.newIdempotencyKey ?? randomUUID;
    this.#userAgent = opts.userAgent ?? USER_AGENT;
  }

  async send<T>(op: OperationSpec, input: OperationInput = {}, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
    const url = this.#url(op, input);
    // What the server sees and the signature covers: the serialised target, not our template.
    const rawPath = `${url.pathname}${url.search}`;
    const payload = op.hasBody ? JSON.stringify(input.body ?? {}) : undefined;
    const idempotencyKey = op.idempotent ? (opts.idempotencyKey ?? this.#newKey()) : undefined;
    const safety = op.idempotent || op.method === 'GET' ? 'idempotent' : 'unsafe';
    const retry = { ...this.#retry, ...opts.retry };

    for (let attempt = 1; ; attempt++) {
      opts.signal?.throwIfAborted();
      const timestamp = String(Math.floor(this.#now() / 1000));
      const headers: Record<string, string> = {
        accept: 'application/json',
        'user-agent': this.#userAgent,
        'x-operator-key': this.#key,
        'x-timestamp': timestamp,
        // Version 2: the Idempotency-Key is signed too, so two requests alike but for their keys are both taken.
        'x-signature-version': '2',
        'x-signature': signRequestV2(this.#secret, op.method, rawPath, timestamp, payload, idempotencyKey),
        ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
      };
      const timeout = AbortSignal.timeout(opts.timeoutMs ?? this.#timeoutMs);
      const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
      let failure: AttemptFailure;
      let error: BackOfficeError;
      let waitMs: number | undefined;
      try {
        const fetchOnce = this.#fetch; // a plain call: a caller's fetch gets no `this`
        const res = await fetchOnce(url, { method: op.method, headers, body: payload, signal });
        const text = await res.text();
        const body = parseBody(text);
        if (res.ok) {
          return {
            status: res.status,
            body: body as T,
            headers: res.headers,
            requestId: res.headers.get('x-request-id') ?? undefined,
            idempotencyKey,
            replayed: res.headers.get('idempotent-replayed') === 'true',
            attempts: attempt,
          };
        }
        waitMs = parseRetryAfter(res.headers.get('retry-after'), this.#now());
        error = errorFromResponse(res.status, res.headers, body, { retryAfterMs: waitMs, idempotencyKey, attempts: attempt });
        failure = { kind: 'status', status: res.status, code: error.code };
      } catch (e) {
        // The caller's own abort is not a failure to retry.
        if (opts.signal?.aborted) throw opts.signal.reason;
        failure = { kind: 'network', connectRefused: isConnectRefused(e) };
        error = new ConnectionError({
          code: 'NETWORK_ERROR',
          message: `${op.method} ${rawPath}: ${describe(e)}`,
          idempotencyKey,
          attempts: attempt,
          cause: e,
        });
      }
      if (attempt >= retry.maxAttempts || !isRetryable(failure, safety)) throw error;
      if (waitMs !== undefined && waitMs > retry.maxRetryAfterMs) throw error;
      await this.#sleep(waitMs ?? backoffDelay(attempt, retry, this.#random), opts.signal).catch((e: unknown) => {
        // An abort while waiting ends the call with the caller's own reason, as during a request.
        throw opts.signal?.aborted ? opts.signal.reason : e;
      });
    }
  }

  #url(op: OperationSpec, input: OperationInput): URL {
    let path = op.path;
    for (const name of op.pathParams) {
      const value = input.params?.[name];
      // '.' and '..' would be resolved away by the URL parser and address another resource.
      if (typeof value !== 'string' || value === '' || value === '.' || value === '..') {
        throw new TypeError(`${op.id}: path parameter ${name} must be a non-empty id, got ${JSON.stringify(value)}`);
      }
      path = path.replace(`{${name}}`, encodeURIComponent(value));
    }
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(input.query ?? {})) if (v !== undefined) query.append(k, String(v));
    const qs = query.toString();
    return new URL(`${this.#basePath}${path}${qs ? `?${qs}` : ''}`, this.#origin);
  }
}

function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function isConnectRefused(e: unknown): boolean {
  const codes: unknown[] = [];
  const collect = (x: unknown, depth: number) => {
    if (!x || typeof x !== 'object' || depth > 3) return;
    codes.push((x as { code?: unknown }).code);
    collect((x as { cause?: unknown }).cause, depth + 1);
    for (const inner of (x as { errors?: unknown[] }).errors ?? []) collect(inner, depth + 1);
  };
  collect(e, 0);
  return codes.includes('ECONNREFUSED');
}

function describe(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  const cause = e.cause instanceof Error ? `: ${e.cause.message}` : '';
  return `${e.message}${cause}`;
}
