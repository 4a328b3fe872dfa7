// The real adapter of the SPA impediment registry: HTTPS with the operator's credentials, a
// timeout per attempt and a few retries on outages (5xx, timeouts, network errors). The wire
// format is spa-wire.ts's; this module only moves bytes and decides what an outage is.
import { allAnswered, type ImpedimentAnswer, type ImpedimentRegistry } from './registry.ts';
import { batchRequest, oneRequest, readBatch, readResult, SPA_PATHS } from './spa-wire.ts';

export interface SpaHttpSettings {
  baseUrl: string;
  /** Sent as a bearer token (the SPA's manual says how its credentials are presented: see spa-wire.ts). */
  token: string;
  timeoutMs: number;
  retries: number;
  /** Tests and outages: the fetch to use (global fetch by default). */
  fetch?: typeof fetch;
}

type Attempt = { ok: true; body: unknown } | { ok: false; why: string };

export function spaHttpRegistry(settings: SpaHttpSettings): ImpedimentRegistry {
  const doFetch = settings.fetch ?? fetch;
  const post = async (path: string, body: unknown): Promise<Attempt> => {
    let last = 'no attempt';
    for (let attempt = 0; attempt <= settings.retries; attempt++) {
      try {
        const res = await doFetch(new URL(path, settings.baseUrl), {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${settings.token}` },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(settings.timeoutMs),
        });
        if (res.ok) return { ok: true, body: await res.json() };
        last = `HTTP ${res.status}`;
        // A 4xx is our request's fault: repeating it will not help.
        if (res.status < 500) break;
      } catch (e) {
        last = e instanceof Error ? e.name : 'network error';
      }
    }
    return { ok: false, why: last };
  };
  return {
    async check(cpf): Promise<ImpedimentAnswer> {
      const got = await post(SPA_PATHS.one, oneRequest(cpf));
      return got.ok ? readResult(got.body) : { result: 'unavailable', why: got.why };
    },
    async checkBatch(cpfs) {
      const got = await post(SPA_PATHS.batch, batchRequest(cpfs));
      return got.ok ? readBatch(cpfs, got.body) : allAnswered(cpfs, { result: 'unavailable', why: got.why });
    },
  };
}
