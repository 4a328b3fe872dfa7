// Our team's AML cases as rows (compliance.cases, compliance.case_steps, compliance.case_evidence):
// the queue's page, a case with its steps and evidence, and the transactions of a decision, each under
// the case's row lock, with the audit row written by the caller with the kit's SQL on the same
// transaction (`sqlIn`). Entities only; the watch opens and joins cases in SQL (watch.ts), and the
// counts read in SQL are in case-counts.ts.
import type { AmlCaseStatus } from '@bo/contracts';
import { sqlIn, type SqlRunner } from '@bo/service-kit';
import { LockMode, type EntityManager, type FilterQuery, type MikroORM } from '@mikro-orm/postgresql';
import { AmlCaseEntity, AmlCaseStepEntity, AmlEvidenceEntity, type AmlCaseRow } from './entities.ts';

export type { AmlCaseRow };

export interface CaseStepRow {
  status: AmlCaseStatus;
  by: string;
  at: Date;
  reason: string;
  receipt?: string | null;
}

export interface CaseEvidenceRow {
  rule: string;
  eventId: string;
  at: Date;
  summary: string;
  facts: Record<string, unknown>;
}

export interface CaseHistory {
  steps: CaseStepRow[];
  evidence: CaseEvidenceRow[];
}

export interface CaseFilter {
  playerId?: string;
  status?: string;
  risk?: string;
  rule?: string;
  operatorId?: string;
  brandId?: string;
  /** `none`: the cases nobody has. */
  assignee?: string;
  /** A COS decided and not filed yet; `overdue`: past its deadline at `now`. */
  cos?: string;
  now: Date;
  openedBefore?: string;
  /** Oldest first (else newest first). */
  oldest: boolean;
  /** After this position of the order (a cursor). */
  after?: { at: string; id: string };
  limit: number;
}

/** A page of the queue. */
export function listCases(orm: MikroORM, f: CaseFilter): Promise<AmlCaseRow[]> {
  const past = f.oldest ? '$gt' : '$lt';
  // Built as a plain object: the ORM's filter type does not follow a conditional spread of many optional keys.
  const where: Record<string, unknown> = {
    ...(f.playerId ? { playerId: f.playerId } : {}),
    ...(f.status ? { status: f.status } : {}),
    ...(f.risk ? { risk: f.risk } : {}),
    ...(f.rule ? { rules: { $contains: [f.rule] } } : {}),
    ...(f.operatorId ? { operatorId: f.operatorId } : {}),
    ...(f.brandId ? { brandId: f.brandId } : {}),
    ...(f.assignee === 'none' ? { assignee: null } : f.assignee ? { assignee: f.assignee } : {}),
    ...(f.cos ? { cosFiledAt: null, cosDueAt: f.cos === 'overdue' ? { $lte: f.now } : { $ne: null } } : {}),
  };
  const and = [
    ...(f.openedBefore ? [{ openedAt: { $lt: new Date(f.openedBefore) } }] : []),
    ...(f.after ? [{ $or: [{ openedAt: { [past]: new Date(f.after.at) } }, { openedAt: new Date(f.after.at), id: { [past]: f.after.id } }] }] : []),
  ];
  if (and.length) where.$and = and;
  return orm.em.fork().find(AmlCaseEntity, where as FilterQuery<AmlCaseRow>, {
    orderBy: [{ openedAt: f.oldest ? 'asc' : 'desc' }, { id: f.oldest ? 'asc' : 'desc' }],
    limit: f.limit,
  });
}

async function historyOf(em: EntityManager, caseId: string): Promise<CaseHistory> {
  const [steps, evidence] = await Promise.all([
    em.find(AmlCaseStepEntity, { caseId }, { orderBy: { id: 'asc' } }),
    em.find(AmlEvidenceEntity, { caseId }, { orderBy: { id: 'asc' } }),
  ]);
  return { steps, evidence };
}

/** A case with its steps and evidence, oldest first; undefined when there is none. */
export async function caseWithHistory(orm: MikroORM, id: string): Promise<{ row: AmlCaseRow; history: CaseHistory } | undefined> {
  const em = orm.em.fork();
  const row = await em.findOne(AmlCaseEntity, { id });
  return row ? { row, history: await historyOf(em, id) } : undefined;
}

/** A change of cases in one transaction. */
export interface CaseTx {
  /** A case under its row lock. */
  lock(id: string): Promise<AmlCaseRow | null>;
  /** A step kept in the case's history, written at the next save. */
  addStep(caseId: string, step: CaseStepRow): void;
  /** Writes what was changed on the cases and added. */
  save(): Promise<void>;
  history(caseId: string): Promise<CaseHistory>;
  /** The transaction's runner, for its audit row. */
  sql: SqlRunner;
}

export function inCaseTransaction<T>(orm: MikroORM, work: (tx: CaseTx) => Promise<T>): Promise<T> {
  return orm.em.fork().transactional((em) =>
    work({
      lock: (id) => em.findOne(AmlCaseEntity, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE }),
      addStep: (caseId, step) => {
        em.persist(em.create(AmlCaseStepEntity, { caseId, ...step }));
      },
      save: () => em.flush(),
      history: (caseId) => historyOf(em, caseId),
      sql: sqlIn(em),
    }),
  );
}
