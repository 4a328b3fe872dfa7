// The real screening adapter: a provider's HTTP API (SCREENING_URL, SCREENING_API_KEY). Its wire
// format lives here and only here: POST <url>/v1/screen with { document, name, birthDate } and a
// bearer key, answered with { matches: [{ type: "PEP" | "SANCTION", description, entryId }] }.
// Any other answer is an error (the caller retries); a 2xx with no matches is "not listed".
import type { ScreeningHit, ScreeningPort } from './port.ts';

interface WireMatch {
  type: string;
  description?: string;
  entryId?: string;
}

export function httpScreeningAdapter(o: { url: string; apiKey: string; timeoutMs: number }): ScreeningPort {
  return {
    async screen(subject) {
      const res = await fetch(new URL('/v1/screen', o.url), {
        method: 'POST',
        headers: { authorization: `Bearer ${o.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ document: subject.cpf, name: subject.name, birthDate: subject.birthDate }),
        signal: AbortSignal.timeout(o.timeoutMs),
      });
      if (!res.ok) throw new Error(`screening provider answered ${res.status}`);
      const body = (await res.json()) as { matches?: WireMatch[] };
      if (!Array.isArray(body.matches)) throw new Error('screening provider answer has no matches array');
      return body.matches.flatMap((m): ScreeningHit[] => {
        const list = m.type === 'PEP' ? 'pep' : m.type === 'SANCTION' ? 'sanctions' : undefined;
        return list ? [{ list, detail: m.description ?? m.type, reference: m.entryId ?? '' }] : [];
      });
    },
  };
}
