// PEP and sanctions screening of the risk register's subjects (issue #60 item 5): team members,
// partners and suppliers are screened like players (Portaria SPA/MF 1.143/2024: know your employee,
// partner, supplier; docs/aml.md, "The risk register"), through the same port as production players,
// by their document (CPF or CNPJ) and name, when registered, at each review and whenever a list
// changes. A hit rates the subject high (a lower rating given is raised, saying why); nothing else
// is done on a hit: the relationship is our team's decision. A screening that cannot be answered is
// kept as `failed` and asked again at the next review, list change or rescreen: never cleared on a guess.
import type { RiskLevel } from '@bo/contracts';
import type { Logger, Sql } from '@bo/service-kit';
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
 * those newly on a list (their rating raised to high, their review due as for high). Plain SQL.
 */
export async function rescreenSubjects(
  sql: Sql,
  port: ScreeningPort,
  now: Date,
  reviewDueAt: (now: Date, rating: RiskLevel) => Date,
  log?: Logger,
): Promise<{ screened: number; newHits: string[] }> {
  const rows = await sql.query<{
    id: string;
    name: string;
    document: string;
    operator_id: string | null;
    rating: RiskLevel;
    rationale: string;
    screening_state: string;
  }>(
    `select id, name, document, operator_id, rating, rationale, screening_state from compliance.risk_subjects where status = 'active' and document is not null order by id`,
  );
  const newHits: string[] = [];
  for (const r of rows) {
    const sc = await screenSubject(port, { name: r.name, document: r.document, operatorId: r.operator_id }, now, log);
    if (sc.screeningState === 'failed') {
      await sql.query(`update compliance.risk_subjects set screening_state = 'failed' where id = ? and status = 'active'`, [r.id]);
      continue;
    }
    const raised = r.screening_state !== 'hit' && sc.screeningState === 'hit';
    const next = ratingAfter(r.rating, r.rationale, sc);
    await sql.transaction(async (tx) => {
      await tx.query(
        `update compliance.risk_subjects set screening_state = ?, screening_hits = ?::jsonb, screened_at = ?, rating = ?, rationale = ?,
           review_due_at = case when ? then ? else review_due_at end, rated_at = case when ? then ? else rated_at end,
           rated_by = case when ? then 'screening' else rated_by end
         where id = ? and status = 'active'`,
        [
          sc.screeningState,
          JSON.stringify(sc.screeningHits),
          sc.screenedAt,
          next.rating,
          next.rationale,
          next.rating !== r.rating,
          reviewDueAt(now, next.rating),
          next.rating !== r.rating,
          now,
          next.rating !== r.rating,
          r.id,
        ],
      );
      if (next.rating !== r.rating)
        await tx.query(
          `insert into compliance.risk_subject_ratings (subject_id, rating, rationale, "by", "at", review_due_at) values (?, ?, ?, 'screening', ?, ?)`,
          [r.id, next.rating, next.rationale, now, reviewDueAt(now, next.rating)],
        );
    });
    if (raised) newHits.push(r.id);
  }
  return { screened: rows.length, newHits };
}
