// The risk register's rows (compliance.risk_subjects, compliance.risk_subject_ratings): the list in
// review order, a subject with its ratings, and the transactions of its changes (a subject added,
// reviewed, ended), each under the subject's row lock where it changes one, with the audit row written
// by the caller with the kit's SQL on the same transaction (`sqlIn`). Entities only; what is read of
// the register in SQL is in risk-register-reads.ts.
import type { RiskLevel } from '@bo/contracts';
import { sqlIn, type SqlRunner } from '@bo/service-kit';
import { LockMode, UniqueConstraintViolationException, type EntityManager, type MikroORM } from '@mikro-orm/postgresql';
import { RiskSubjectEntity, RiskSubjectRatingEntity, type RiskSubjectRow } from './entities.ts';

export type { RiskSubjectRow };

export interface RatingRow {
  rating: RiskLevel;
  rationale: string;
  by: string;
  at: Date;
  reviewDueAt: Date;
}

export interface SubjectFilter {
  status: string;
  kind?: string;
  /** `none`: our own team's subjects. */
  operatorId?: string;
  rating?: string;
  /** Only the subjects whose review is due at this time. */
  dueAt?: Date;
  /** After this position of the review order (a cursor). */
  after?: { at: string; id: string };
  limit: number;
}

/** The subjects in review order (the review due first), `limit` of them. */
export function listSubjects(orm: MikroORM, f: SubjectFilter): Promise<RiskSubjectRow[]> {
  const where: Record<string, unknown> = {
    status: f.status,
    ...(f.kind ? { kind: f.kind } : {}),
    ...(f.operatorId ? { operatorId: f.operatorId === 'none' ? null : f.operatorId } : {}),
    ...(f.rating ? { rating: f.rating } : {}),
  };
  const and = [
    ...(f.dueAt ? [{ reviewDueAt: { $lte: f.dueAt } }] : []),
    ...(f.after ? [{ $or: [{ reviewDueAt: { $gt: new Date(f.after.at) } }, { reviewDueAt: new Date(f.after.at), id: { $gt: f.after.id } }] }] : []),
  ];
  if (and.length) where.$and = and;
  return orm.em.fork().find(RiskSubjectEntity, where, { orderBy: [{ reviewDueAt: 'asc' }, { id: 'asc' }], limit: f.limit });
}

const ratingsOf = (em: EntityManager, subjectId: string): Promise<RatingRow[]> => em.find(RiskSubjectRatingEntity, { subjectId }, { orderBy: { id: 'asc' } });

/** A subject with every rating it was given, oldest first; undefined when there is none. */
export async function subjectWithRatings(orm: MikroORM, id: string): Promise<{ row: RiskSubjectRow; ratings: RatingRow[] } | undefined> {
  const em = orm.em.fork();
  const row = await em.findOne(RiskSubjectEntity, { id });
  return row ? { row, ratings: await ratingsOf(em, id) } : undefined;
}

/** A change of the register in one transaction. */
export interface RegisterTx {
  /** A subject under its row lock. */
  lock(id: string): Promise<RiskSubjectRow | null>;
  /** A new subject (not ended), written at the next save. */
  add(row: Omit<RiskSubjectRow, 'endedAt' | 'endedBy' | 'endReason'>): RiskSubjectRow;
  /** A rating kept in the subject's history, written at the next save. */
  addRating(subjectId: string, rating: RatingRow): void;
  /** Writes what was changed on the subjects and added. */
  save(): Promise<void>;
  ratings(subjectId: string): Promise<RatingRow[]>;
  /** The transaction's runner, for its audit row. */
  sql: SqlRunner;
}

export function inRegisterTransaction<T>(orm: MikroORM, work: (tx: RegisterTx) => Promise<T>): Promise<T> {
  return orm.em.fork().transactional((em) =>
    work({
      lock: (id) => em.findOne(RiskSubjectEntity, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE }),
      add: (row) => em.create(RiskSubjectEntity, row),
      addRating: (subjectId, r) => {
        em.persist(em.create(RiskSubjectRatingEntity, { subjectId, ...r }));
      },
      save: () => em.flush(),
      ratings: (subjectId) => ratingsOf(em, subjectId),
      sql: sqlIn(em),
    }),
  );
}

/** Whether a change failed on the register's uniqueness (one active subject per operator and document or team member). */
export const isDuplicateSubject = (err: unknown): boolean => err instanceof UniqueConstraintViolationException;
