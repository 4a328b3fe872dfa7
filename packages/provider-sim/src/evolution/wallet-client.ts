// Evolution calling the operator's One Wallet (docs/connectors-evolution.md): every call a JSON POST
// under the base URL the operator handed Evolution, with Evolution's API token as `authToken`. An
// attempt with no answer in time, or an answer that is not Evolution's shape, is a network failure:
// what Evolution then does is the caller's (simulation.ts).
import { EVOLUTION_WALLET_PATHS, type EvolutionWalletCall, type EvolutionWireAnswer } from '@bo/contracts';

export type EvolutionReply = { ok: true; http: number; answer: EvolutionWireAnswer } | { ok: false; failure: string };

export class EvolutionWalletClient {
  readonly #base: string;
  readonly #token: string;
  readonly #timeoutMs: number;
  constructor(opts: { baseUrl: string; authToken: string; timeoutMs: number }) {
    this.#base = opts.baseUrl.replace(/\/+$/, '');
    this.#token = opts.authToken;
    this.#timeoutMs = opts.timeoutMs;
  }

  /** One attempt; `timeoutMs` overrides the client's (a tiny one drops the answer on purpose). */
  async send(call: EvolutionWalletCall, body: Record<string, unknown>, timeoutMs = this.#timeoutMs): Promise<EvolutionReply> {
    try {
      const res = await fetch(`${this.#base}${EVOLUTION_WALLET_PATHS[call]}?authToken=${encodeURIComponent(this.#token)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
      const answer = (await res.json().catch(() => undefined)) as EvolutionWireAnswer | undefined;
      if (typeof answer?.status !== 'string') return { ok: false, failure: `HTTP ${res.status}` };
      return { ok: true, http: res.status, answer };
    } catch (e) {
      return { ok: false, failure: e instanceof Error ? e.name : String(e) };
    }
  }
}
