// An admin change's audit row (a decision or any other change our team makes), written by the
// service that makes the change, into its own outbox in the change's transaction (internal event
// `audit.recorded`): the operators service inserts it into the audit log under the id made here,
// once however often it is delivered. So a change that committed has its row whatever happens after
// the commit (a lost reply, a replay, a crash), and one rolled back has none. The operators
// service writes its own changes' rows straight into the log, under the same ids (auditRowId).
import { createHash } from 'node:crypto';
import { AUDIT_RECORDED, ID_PREFIXES, newId, type AdminScope, type AuditRecorded, type RequestContext } from '@bo/contracts';
import { writeInternalEvent } from './outbox.ts';
import type { SqlRunner } from './sql.ts';

/** What a change or decision did: the operation, its target, and the state before and after. */
export interface DecisionAudit {
  action: string;
  target: string;
  before: unknown;
  after: unknown;
}

/** Who made the change or decision, from the admin request (its scope, id and Idempotency-Key): what the audit row names. */
export interface DecisionAuthor {
  actor: string;
  personId?: string;
  requestId: string;
  /** The request's Idempotency-Key: a change run again under it (after a crash before its answer was kept) keeps its one row. */
  idempotencyKey?: string;
}

export function decisionAuthorOf(scope: AdminScope, ctx: Pick<RequestContext, 'requestId' | 'idempotencyKey'>): DecisionAuthor {
  return {
    actor: scope.actor,
    ...(scope.personId ? { personId: scope.personId } : {}),
    requestId: ctx.requestId,
    ...(ctx.idempotencyKey ? { idempotencyKey: ctx.idempotencyKey } : {}),
  };
}

/**
 * The row's id: made from the request's key when it has one (an admin key is one request, so a run
 * repeated under the key gives the same id and the audit log keeps one row), else new.
 */
export function auditRowId(by: Pick<DecisionAuthor, 'idempotencyKey'>, d: Pick<DecisionAudit, 'action' | 'target'>): string {
  if (!by.idempotencyKey) return newId('audit');
  const digest = createHash('sha256').update(`${by.idempotencyKey}\n${d.action}\n${d.target}`).digest('hex');
  return `${ID_PREFIXES.audit}_${digest.slice(0, 32)}`;
}

/**
 * Who decided, as four eyes compares it: the person's id. The gateway sends one with every
 * decision; a direct call without one (another service, a test) is the person its actor names.
 */
export function deciderOf(by: { actor: string; personId?: string }): string {
  return by.personId ?? `actor:${by.actor}`;
}

/** Admin changes are nobody's events: the outbox row's routing names no operator. */
const ADMIN_ROUTING = { operatorId: 'admin', brandId: 'admin', environment: 'production' } as const;

/** Writes the change's or decision's audit row into `schema`'s outbox, in the caller's transaction. */
export async function writeDecisionAudit(tx: SqlRunner, schema: string, by: DecisionAuthor, d: DecisionAudit): Promise<void> {
  const entry: AuditRecorded = {
    id: auditRowId(by, d),
    at: new Date().toISOString(),
    actor: by.actor,
    actorId: by.personId ?? null,
    action: d.action,
    target: d.target,
    before: d.before ?? null,
    after: d.after ?? null,
    requestId: by.requestId,
  };
  await writeInternalEvent(tx, schema, ADMIN_ROUTING, AUDIT_RECORDED, entry);
}
