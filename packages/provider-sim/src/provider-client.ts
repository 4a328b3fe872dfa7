// The provider's server side of the provider wallet API (docs/providers.md): every call signed
// with the provider's key and secret (the canonical-string HMAC of operators' requests, headers
// X-Provider-Key / X-Timestamp / X-Signature), with a client timeout as an aggregator has one.
import { PROVIDER_API_PREFIX, signRequest } from '@bo/contracts';

export interface ProviderAnswer {
  status: number;
  body: any;
  headers: Headers;
}

export interface ProviderClientOptions {
  /** The gateway's public URL (http://host:port), without /provider/v1. */
  baseUrl: string;
  key: string;
  secret: string;
  /** Aggregators commonly give up after about 3 s and roll the bet back. */
  timeoutMs?: number;
}

export type ProviderOperation =
  | 'authenticate'
  | 'balance'
  | 'bets'
  | 'wins'
  | 'rollbacks'
  | 'corrections'
  // Issue #59 item 1: what the provider funds.
  | 'free-bets'
  | 'promo-credits'
  | 'jackpot-wins';

export class ProviderClient {
  readonly #o: Required<ProviderClientOptions>;
  constructor(opts: ProviderClientOptions) {
    this.#o = { timeoutMs: 3000, ...opts, baseUrl: opts.baseUrl.replace(/\/+$/, '') };
  }

  /** One signed POST; throws when no answer came in time (the caller decides to retry or roll back). */
  async call(op: ProviderOperation, body: unknown, over: { secret?: string; key?: string; timeoutMs?: number } = {}): Promise<ProviderAnswer> {
    const path = `${PROVIDER_API_PREFIX}/${op}`;
    const payload = JSON.stringify(body);
    const ts = String(Math.floor(Date.now() / 1000));
    const res = await fetch(`${this.#o.baseUrl}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-provider-key': over.key ?? this.#o.key,
        'x-timestamp': ts,
        'x-signature': signRequest(over.secret ?? this.#o.secret, 'POST', path, ts, payload),
      },
      body: payload,
      signal: AbortSignal.timeout(over.timeoutMs ?? this.#o.timeoutMs),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON: kept as text */
    }
    return { status: res.status, body: parsed, headers: res.headers };
  }

  /** One signed GET (issue #59 item 2: the provider reads its transactions with us); `path` after /provider/v1, with its query. */
  async get(path: string): Promise<ProviderAnswer> {
    const full = `${PROVIDER_API_PREFIX}${path}`;
    const ts = String(Math.floor(Date.now() / 1000));
    const res = await fetch(`${this.#o.baseUrl}${full}`, {
      headers: { 'x-provider-key': this.#o.key, 'x-timestamp': ts, 'x-signature': signRequest(this.#o.secret, 'GET', full, ts, '') },
      signal: AbortSignal.timeout(this.#o.timeoutMs),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
  }
}
