// Hub88 calling the operator's Wallet API (docs/connectors-hub88.md): every call a JSON POST under
// the base URL the operator handed Hub88, signed with Hub88's private key (X-Hub88-Signature: base64
// RSA-SHA256 over the exact body). An attempt with no answer in time, or not HTTP 200 with an RS_*
// status, is a network failure: what Hub88 then does is the caller's (simulation.ts).
import type { KeyObject } from 'node:crypto';
import { HUB88_WALLET_PATHS, signHub88, type Hub88Answer, type Hub88WalletCall } from '@bo/contracts';

/** An answer, or a network failure (no answer in time, a connection lost, an answer that is not Hub88's shape). */
export type Hub88Reply = { ok: true; answer: Hub88Answer } | { ok: false; failure: string };

export class Hub88WalletClient {
  readonly #base: string;
  readonly #key: KeyObject;
  readonly #timeoutMs: number;
  constructor(opts: { baseUrl: string; privateKey: KeyObject; timeoutMs: number }) {
    this.#base = opts.baseUrl.replace(/\/+$/, '');
    this.#key = opts.privateKey;
    this.#timeoutMs = opts.timeoutMs;
  }

  /** One attempt; `timeoutMs` overrides the client's (a tiny one drops the answer on purpose). */
  async send(call: Hub88WalletCall, body: Record<string, unknown>, timeoutMs = this.#timeoutMs): Promise<Hub88Reply> {
    const text = JSON.stringify(body);
    try {
      const res = await fetch(`${this.#base}${HUB88_WALLET_PATHS[call]}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-hub88-signature': signHub88(text, this.#key) },
        body: text,
        signal: AbortSignal.timeout(timeoutMs),
      });
      const answer = (await res.json().catch(() => undefined)) as Hub88Answer | undefined;
      if (res.status !== 200 || typeof answer?.status !== 'string') return { ok: false, failure: `HTTP ${res.status}` };
      return { ok: true, answer };
    } catch (e) {
      return { ok: false, failure: e instanceof Error ? e.name : String(e) };
    }
  }
}
