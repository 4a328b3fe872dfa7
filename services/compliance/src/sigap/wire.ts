// SIGAP's file reception wire format, and only that: the request the adapter sends and how it reads
// the answers. ASSUMED, NOT READ FROM THE MANUAL: Serpro's API manual for SIGAP's file reception is
// not public (docs/aml.md, "SIGAP files"). What is public: the files are sent through an API built
// by Serpro, each goes through a structure and a quality analysis, and a file counts as sent only
// after both. Every path and field name below is ours, to be matched to the manual before going
// live; changing the wire format changes this module alone (http-adapter.ts only moves bytes).
import type { SigapPhase, SigapReason } from '@bo/contracts';
import type { SigapAnswer, SigapSubmission } from './port.ts';

export const SIGAP_PATHS = { submit: '/arquivos', status: (protocol: string) => `/arquivos/${encodeURIComponent(protocol)}` } as const;

/** The body of a submission: the file as base64, with what names it and its SHA-256. */
export const submitRequest = (f: SigapSubmission) => ({
  tipoArquivo: f.fileType,
  dataReferencia: f.referenceDate,
  nomeArquivo: f.fileName,
  parte: f.part,
  totalPartes: f.parts,
  hashSha256: f.checksum,
  conteudo: Buffer.from(f.content, 'utf8').toString('base64'),
});

/** What we expect: `{ protocolo, situacao: 'EM_PROCESSAMENTO' | 'ACEITO' | 'REJEITADO', recibo?, fase?, erros?: [{ codigo, campo?, registro?, mensagem }] }`. */
interface WireAnswer {
  protocolo?: unknown;
  situacao?: unknown;
  recibo?: unknown;
  fase?: unknown;
  erros?: unknown;
}
interface WireError {
  codigo?: unknown;
  campo?: unknown;
  registro?: unknown;
  mensagem?: unknown;
}

const PHASES: Record<string, SigapPhase> = { ESTRUTURA: 'structure', QUALIDADE: 'quality' };

/** One answer; anything we cannot read is `unavailable` (never taken for a receipt). */
export function readAnswer(body: unknown): SigapAnswer {
  const a = (body ?? {}) as WireAnswer;
  const protocol = typeof a.protocolo === 'string' && a.protocolo ? a.protocolo : undefined;
  if (a.situacao === 'ACEITO' && typeof a.recibo === 'string' && a.recibo) return { outcome: 'accepted', receipt: a.recibo, ...(protocol ? { protocol } : {}) };
  if (a.situacao === 'REJEITADO') {
    const errors = Array.isArray(a.erros) ? (a.erros as WireError[]) : [];
    const reasons: SigapReason[] = errors.map((e) => ({
      code: typeof e?.codigo === 'string' ? e.codigo : String(e?.codigo ?? 'UNKNOWN'),
      field: typeof e?.campo === 'string' ? e.campo : null,
      record: Number.isInteger(e?.registro) ? (e.registro as number) : null,
      message: typeof e?.mensagem === 'string' ? e.mensagem : 'no message',
    }));
    return {
      outcome: 'rejected',
      phase: PHASES[String(a.fase)] ?? 'structure',
      reasons: reasons.length > 0 ? reasons : [{ code: 'UNKNOWN', field: null, record: null, message: 'rejected without reasons' }],
      ...(protocol ? { protocol } : {}),
    };
  }
  if (a.situacao === 'EM_PROCESSAMENTO' && protocol) return { outcome: 'pending', protocol };
  return { outcome: 'unavailable', why: 'unreadable answer' };
}
