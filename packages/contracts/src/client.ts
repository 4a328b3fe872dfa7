// A minimal signed client for the public API: what an operator's server does. Used by tests,
// the benchmark and the docs; operators are free to copy it.
import { signRequest, signRequestV2 } from './signing.ts';

export interface ClientOptions {
  baseUrl: string;
  key: string;
  secret: string;
  fetchImpl?: typeof fetch;
  /** `2`: sign the Idempotency-Key too (X-Signature-Version: 2); version 1 otherwise. */
  signatureVersion?: '1' | '2';
}
export interface ClientResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** Sends of one request signed afresh after 401 SIGNATURE_REUSED, the first included. */
const MAX_SIGNATURE_ATTEMPTS = 3;

/** Resolves once the clock has passed the second `unixSeconds`, so the next signature has another X-Timestamp. */
function nextSecondAfter(unixSeconds: number): Promise<void> {
  const wait = (unixSeconds + 1) * 1000 - Date.now();
  return wait > 0 ? new Promise((resolve) => setTimeout(resolve, wait + 5)) : Promise.resolve();
}

export class OperatorClient {
  readonly #o: ClientOptions;
  constructor(opts: ClientOptions) {
    this.#o = opts;
  }

  /**
   * path is relative to the base URL's /api/v1 (e.g. `/players`), query included; a string or Buffer body is sent as it is.
   * A request this client signed itself that comes back 401 SIGNATURE_REUSED is signed afresh in the next second and
   * sent again, as docs/decisions.md asks of an operator: the same method, path and body sent in one second under
   * another Idempotency-Key is the same version-1 signature. A caller's own `x-timestamp` or `x-signature` is sent as given.
   */
  async request<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ClientResponse<T>> {
    const signsItself = !Object.keys(headers).some((k) => ['x-timestamp', 'x-signature'].includes(k.toLowerCase()));
    for (let attempt = 1; ; attempt++) {
      const ts = headers['x-timestamp'] ?? String(Math.floor(Date.now() / 1000));
      const res = await this.#send<T>(method, path, body, headers, ts);
      const reused = res.status === 401 && (res.body as { error?: { code?: string } } | undefined)?.error?.code === 'SIGNATURE_REUSED';
      if (!reused || !signsItself || attempt === MAX_SIGNATURE_ATTEMPTS) return res;
      await nextSecondAfter(Number(ts));
    }
  }

  async #send<T>(method: string, path: string, body: unknown, headers: Record<string, string>, ts: string): Promise<ClientResponse<T>> {
    const url = new URL(this.#o.baseUrl);
    const rawPath = `${url.pathname.replace(/\/$/, '')}${path}`;
    const payload = body === undefined ? '' : typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
    const v2 = this.#o.signatureVersion === '2';
    const key = Object.entries(headers).find(([k]) => k.toLowerCase() === 'idempotency-key')?.[1];
    const h: Record<string, string> = {
      'x-operator-key': this.#o.key,
      'x-timestamp': ts,
      'x-signature': v2 ? signRequestV2(this.#o.secret, method, rawPath, ts, payload, key) : signRequest(this.#o.secret, method, rawPath, ts, payload),
      ...(v2 ? { 'x-signature-version': '2' } : {}),
      ...(payload ? { 'content-type': 'application/json' } : {}),
      ...headers,
    };
    const res = await (this.#o.fetchImpl ?? fetch)(`${url.origin}${rawPath}`, { method, headers: h, body: payload || undefined });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON */
    }
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  }

  get<T = any>(path: string, headers?: Record<string, string>) {
    return this.request<T>('GET', path, undefined, headers);
  }
  post<T = any>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('POST', path, body ?? {}, headers);
  }
}
