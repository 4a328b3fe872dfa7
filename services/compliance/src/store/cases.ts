// Our team's AML cases as rows (compliance.cases, compliance.case_steps, compliance.case_evidence):
// the queue's page, a case with its steps and evidence, and the transactions of a decision, each under
// the case's row lock, with the audit row written by the caller with the kit's SQL on the same
// transaction (`sqlIn`). Entities only; the watch opens and joins cases in SQL (watch.ts), and the
// counts read in SQL are in case-counts.ts.
import type { AmlCaseStatus } from '@bo/contracts';
import { ormInOneSnapshot, sqlIn, type SqlRunner } from '@bo/service-kit';
import { LockMode, type EntityManager, type FilterQuery, type MikroORM } from '@mikro-orm/postgresql';
import { AmlCaseEntity, AmlCaseStepEntity, AmlEvidenceEntity, ScreenedPlayerEntity, type AmlCaseRow } from './entities.ts';

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
  /** One environment's cases (issue #61: production apart from the sandbox). */
  environment?: string;
  /** Oldest first (else newest first). */
  oldest: boolean;
  /**
   * The riskiest (`risk`: then the largest within a risk level, issue #70) or the largest (`amount`)
   * first, then the one waiting longest: issue #61. Else by age (`oldest`).
   */
  by?: 'risk' | 'amount';
  /** After this position of the order (a cursor). */
  after?: { at: string; id: string };
  limit: number;
}

/**
 * A case's place in the `by` order, as a cursor keeps it (`at`): the rank and the amount (`risk`) or the
 * amount, then the opening time, joined by `|`; and back.
 */
export function rankedPosition(by: 'risk' | 'amount', c: Pick<AmlCaseRow, 'riskRank' | 'amount' | 'openedAt'>): string {
  return `${by === 'risk' ? `${c.riskRank}|${c.amount}` : c.amount}|${c.openedAt.toISOString()}`;
}
function positionParts(at: string): { keys: string[]; openedAt: Date } {
  const parts = at.split('|');
  return { keys: parts.slice(0, -1), openedAt: new Date(parts.at(-1) ?? '') };
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
    ...(f.environment ? { environment: f.environment } : {}),
  };
  const and: object[] = [...(f.openedBefore ? [{ openedAt: { $lt: new Date(f.openedBefore) } }] : [])];
  if (f.by) {
    // The keys descending (riskiest, then largest; or largest), then the one waiting longest, then the id.
    const keys = f.by === 'risk' ? (['riskRank', 'amount'] as const) : (['amount'] as const);
    if (f.after) {
      const { keys: at, openedAt } = positionParts(f.after.at);
      const values = keys.map((k, i) => (k === 'riskRank' ? Number(at[i]) : (at[i] ?? '')));
      // After the position: a smaller first key; or the same first key and a smaller second; … then later, then a greater id.
      const same = (n: number) => Object.fromEntries(keys.slice(0, n).map((k, i) => [k, values[i]]));
      and.push({
        $or: [
          ...keys.map((k, i) => ({ ...same(i), [k]: { $lt: values[i] } })),
          { ...same(keys.length), openedAt: { $gt: openedAt } },
          { ...same(keys.length), openedAt, id: { $gt: f.after.id } },
        ],
      });
    }
    if (and.length) where.$and = and;
    return orm.em.fork().find(AmlCaseEntity, where as FilterQuery<AmlCaseRow>, {
      orderBy: [...keys.map((k) => ({ [k]: 'desc' as const })), { openedAt: 'asc' }, { id: 'asc' }],
      limit: f.limit,
    });
  }
  if (f.after) and.push({ $or: [{ openedAt: { [past]: new Date(f.after.at) } }, { openedAt: new Date(f.after.at), id: { [past]: f.after.id } }] });
  if (and.length) where.$and = and;
  return orm.em.fork().find(AmlCaseEntity, where as FilterQuery<AmlCaseRow>, {
    orderBy: [{ openedAt: f.oldest ? 'asc' : 'desc' }, { id: f.oldest ? 'asc' : 'desc' }],
    limit: f.limit,
  });
}

/** The names of the players (as screened: the watch screens each at their first KYC event), by id; a player never screened is left out. */
export async function playerNames(orm: MikroORM, playerIds: string[]): Promise<Map<string, string>> {
  if (playerIds.length === 0) return new Map();
  const rows = await orm.em.fork().find(ScreenedPlayerEntity, { playerId: { $in: [...new Set(playerIds)] } }, { fields: ['playerId', 'name'] });
  return new Map(rows.map((r) => [r.playerId, r.name]));
}

async function historyOf(em: EntityManager, caseId: string): Promise<CaseHistory> {
  const steps = await em.find(AmlCaseStepEntity, { caseId }, { orderBy: { id: 'asc' } });
  const evidence = await em.find(AmlEvidenceEntity, { caseId }, { orderBy: { id: 'asc' } });
  return { steps, evidence };
}

/**
 * A case with its steps and evidence, oldest first, in one snapshot (a step committed meanwhile shows
 * with the status it set); undefined when there is none.
 */
export function caseWithHistory(orm: MikroORM, id: string): Promise<{ row: AmlCaseRow; history: CaseHistory } | undefined> {
  return ormInOneSnapshot(orm, async (em) => {
    const row = await em.findOne(AmlCaseEntity, { id });
    return row ? { row, history: await historyOf(em, id) } : undefined;
  });
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
