// PEP and sanctions screening of the risk register's subjects (issue #60 item 5): team members,
// partners and suppliers are screened like players (Portaria SPA/MF 1.143/2024: know your employee,
// partner, supplier; docs/aml.md, "The risk register"), through the same port as production players,
// by their document (CPF or CNPJ) and name, when registered, at each review and whenever a list
// changes. A hit rates the subject high (a lower rating given is raised, saying why); nothing else
// is done on a hit: the relationship is our team's decision. A screening that cannot be answered is
// kept as `failed` and asked again at the next review, list change or rescreen: never cleared on a guess.
import type { RiskLevel } from '@bo/contracts';
import type { Logger, Sql } from '@bo/service-kit';
import { markSubjectScreeningFailed, recordSubjectScreening, screenableSubjects } from '../store/subject-screenings.ts';
import type { ScreeningHit, ScreeningPort } from './port.ts';

export type SubjectScreeningState = 'clear' | 'hit' | 'not_screened' | 'failed';
export interface SubjectScreening {
  screeningState: SubjectScreeningState;
  screeningHits: Array<{ list: string; detail: string; reference: string }>;
  screenedAt: Date | null;
}

/** Screens one subject; the caller's operator is the subject's (ours: `ours`), in production. */
export async function screenSubject(
  port: ScreeningPort,
  s: { name: string; document: string | null; operatorId: string | null },
  now: Date,
  log?: Logger,
): Promise<SubjectScreening> {
  if (!s.document) return { screeningState: 'not_screened', screeningHits: [], screenedAt: null };
  let hits: ScreeningHit[];
  try {
    hits = await port.screen({ cpf: s.document, name: s.name, birthDate: null }, { operatorId: s.operatorId ?? 'ours', environment: 'production' });
  } catch (err) {
    log?.warn({ err }, 'screening of a risk register subject failed: kept as failed, asked again later');
    return { screeningState: 'failed', screeningHits: [], screenedAt: null };
  }
  return {
    screeningState: hits.length > 0 ? 'hit' : 'clear',
    screeningHits: hits.map((h) => ({ list: h.list, detail: h.detail, reference: h.reference })),
    screenedAt: now,
  };
}

/** The rating a screening leaves: high on a hit (with why), else the one given. */
export function ratingAfter(rating: RiskLevel, rationale: string, sc: SubjectScreening): { rating: RiskLevel; rationale: string } {
  if (sc.screeningState !== 'hit' || rating === 'high') return { rating, rationale };
  const lists = [...new Set(sc.screeningHits.map((h) => h.list))].join(' and ');
  return { rating: 'high', rationale: `${rationale} [rated high, not ${rating}: on the ${lists} list at screening]` };
}

/**
 * Screens every active subject with a document again (a list changed): how many, and the ids of
 * those newly on a list (their rating raised to high, their review due as for high). Plain SQL (store/subject-screenings.ts).
 */
export async function rescreenSubjects(
  sql: Sql,
  port: ScreeningPort,
  now: Date,
  reviewDueAt: (now: Date, rating: RiskLevel) => Date,
  log?: Logger,
): Promise<{ screened: number; newHits: string[] }> {
  const rows = await screenableSubjects(sql);
  const newHits: string[] = [];
  for (const r of rows) {
    const sc = await screenSubject(port, { name: r.name, document: r.document, operatorId: r.operator_id }, now, log);
    if (sc.screeningState === 'failed') {
      await markSubjectScreeningFailed(sql, r.id);
      continue;
    }
    const raised = r.screening_state !== 'hit' && sc.screeningState === 'hit';
    const next = ratingAfter(r.rating, r.rationale, sc);
    await recordSubjectScreening(sql, {
      id: r.id,
      previous: r.rating,
      screeningState: sc.screeningState,
      screeningHits: sc.screeningHits,
      screenedAt: sc.screenedAt,
      rating: next.rating,
      rationale: next.rationale,
      reviewDueAt: reviewDueAt(now, next.rating),
      now,
    });
    if (raised) newHits.push(r.id);
  }
  return { screened: rows.length, newHits };
}
