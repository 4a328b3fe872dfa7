// The SPA impediment registry's wire format, and only that: the request bodies the adapter sends
// and how it reads the answers. TO BE MATCHED TO THE SPA'S PUBLISHED MANUAL (Manual SIGAP, módulo
// de impedidos) before going live: the field names and paths here are our reading of the
// ordinances' answers ("Impedido – Autoexclusão Centralizada", "Impedido – Programas Sociais",
// "Não Impedido"), not the manual's. Changing the wire format changes this module alone.
import type { ImpedimentReason } from '@bo/contracts';
import type { ImpedimentAnswer } from './registry.ts';

export const SPA_PATHS = { one: '/impedidos/consulta', batch: '/impedidos/consulta-lote' } as const;

export const oneRequest = (cpf: string) => ({ cpf });
export const batchRequest = (cpfs: string[]) => ({ cpfs });

/** What we expect per CPF: `{ cpf, situacao: 'NAO_IMPEDIDO' | 'IMPEDIDO', motivos?: [...] }`. */
interface WireResult {
  cpf?: unknown;
  situacao?: unknown;
  motivos?: unknown;
}

const REASONS: Record<string, ImpedimentReason> = {
  AUTOEXCLUSAO_CENTRALIZADA: 'central_self_exclusion',
  PROGRAMA_SOCIAL: 'social_program',
};

/** One answer; anything we cannot read is `unavailable` (never a silent pass). */
export function readResult(body: unknown): ImpedimentAnswer {
  const r = (body ?? {}) as WireResult;
  if (r.situacao === 'NAO_IMPEDIDO') return { result: 'not_impeded' };
  if (r.situacao === 'IMPEDIDO') {
    const motivos = Array.isArray(r.motivos) ? r.motivos : [];
    const reasons = motivos.map((m) => REASONS[String(m)]).filter((m): m is ImpedimentReason => m !== undefined);
    // An impediment whose reason we do not know is still an impediment.
    return { result: 'impeded', reasons: reasons.length > 0 ? reasons : ['central_self_exclusion'] };
  }
  return { result: 'unavailable', why: 'unreadable answer' };
}

/** A batch answer: `{ resultados: [WireResult...] }`; a CPF missing from it is `unavailable`. */
export function readBatch(cpfs: string[], body: unknown): Map<string, ImpedimentAnswer> {
  const list = (body as { resultados?: unknown } | null)?.resultados;
  const byCpf = new Map<string, ImpedimentAnswer>();
  if (Array.isArray(list)) for (const r of list as WireResult[]) if (typeof r?.cpf === 'string') byCpf.set(r.cpf, readResult(r));
  return new Map(cpfs.map((cpf) => [cpf, byCpf.get(cpf) ?? { result: 'unavailable', why: 'missing from the batch answer' }]));
}
