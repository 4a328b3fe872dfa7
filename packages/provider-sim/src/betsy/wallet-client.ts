// Betsy calling the operator's partner backend API (docs/connectors-betsy.md): every call a JSON body
// under the PARTNER_API_URL the operator handed Betsy, signed with `x-sign-jws` (a detached JWS, HS256
// with the PARTNER_SECRET). An attempt with no answer in time, or an answer that is not JSON, is a
// network failure: what Betsy then does is the caller's (simulation.ts).
import { BETSY_PATHS, betsySignature, parseBetsyBody, type BetsyWireAnswer } from '@bo/contracts';

/** An answer, with its `amount`'s exact JSON text (a balance is read as written, never through a float). */
export type BetsyReply = { ok: true; http: number; answer: BetsyWireAnswer; amountText?: string } | { ok: false; failure: string };

export class BetsyWalletClient {
  readonly #base: string;
  readonly #secret: string;
  readonly #timeoutMs: number;
  constructor(opts: { baseUrl: string; partnerSecret: string; timeoutMs: number }) {
    this.#base = opts.baseUrl.replace(/\/+$/, '');
    this.#secret = opts.partnerSecret;
    this.#timeoutMs = opts.timeoutMs;
  }

  /** One attempt; `timeoutMs` overrides the client's (a tiny one drops the answer on purpose). */
  async send(method: 'POST' | 'PUT', path: keyof typeof BETSY_PATHS, body: unknown, timeoutMs = this.#timeoutMs): Promise<BetsyReply> {
    const raw = JSON.stringify(body);
    try {
      const res = await fetch(`${this.#base}${BETSY_PATHS[path]}`, {
        method,
        headers: { 'content-type': 'application/json', 'x-sign-jws': betsySignature(raw, this.#secret) },
        body: raw,
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await res.text();
      let parsed: ReturnType<typeof parseBetsyBody>;
      try {
        parsed = parseBetsyBody(text);
      } catch {
        return { ok: false, failure: `HTTP ${res.status}` };
      }
      const answer = parsed.body as BetsyWireAnswer | null;
      if (answer === null || typeof answer !== 'object') return { ok: false, failure: `HTTP ${res.status}` };
      const amountText = parsed.sourceOf(answer, 'amount');
      return { ok: true, http: res.status, answer, ...(amountText === undefined ? {} : { amountText }) };
    } catch (e) {
      return { ok: false, failure: e instanceof Error ? e.name : String(e) };
    }
  }
}
