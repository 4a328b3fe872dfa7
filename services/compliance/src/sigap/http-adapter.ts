// The real SIGAP adapter: HTTPS with the operator's credential (SIGAP_URL, SIGAP_TOKEN), a timeout
// per attempt and a few retries on outages (5xx, timeouts, network errors). The wire format is
// wire.ts's; this module only moves bytes and decides what an outage is. A 4xx is our request's
// fault: its body is read as an answer (a rejection), else reported as not delivered.
import type { SigapAnswer, SigapPort } from './port.ts';
import { SIGAP_PATHS, readAnswer, submitRequest } from './wire.ts';

export interface SigapHttpSettings {
  baseUrl: string;
  /** Sent as a bearer token (how SIGAP's credentials are presented is the manual's: see wire.ts). */
  token: string;
  timeoutMs: number;
  retries: number;
  /** Tests: the fetch to use (global fetch by default). */
  fetch?: typeof fetch;
}

export function sigapHttpAdapter(s: SigapHttpSettings): SigapPort {
  const doFetch = s.fetch ?? fetch;
  const call = async (method: 'GET' | 'POST', path: string, body?: unknown): Promise<SigapAnswer> => {
    let last = 'no attempt';
    for (let attempt = 0; attempt <= s.retries; attempt++) {
      try {
        const res = await doFetch(new URL(path, s.baseUrl), {
          method,
          headers: { authorization: `Bearer ${s.token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
          ...(body ? { body: JSON.stringify(body) } : {}),
          signal: AbortSignal.timeout(s.timeoutMs),
        });
        if (res.ok || (res.status >= 400 && res.status < 500)) {
          const answer = readAnswer(await res.json().catch(() => undefined));
          if (answer.outcome !== 'unavailable' || res.ok) return answer;
          return { outcome: 'unavailable', why: `HTTP ${res.status}` };
        }
        last = `HTTP ${res.status}`;
      } catch (e) {
        last = e instanceof Error ? e.name : 'network error';
      }
    }
    return { outcome: 'unavailable', why: last };
  };
  return {
    via: 'sigap',
    submit: (file) => call('POST', SIGAP_PATHS.submit, submitRequest(file)),
    status: (protocol) => call('GET', SIGAP_PATHS.status(protocol)),
  };
}
