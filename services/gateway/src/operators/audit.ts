import type { EntityManager } from '@mikro-orm/postgresql';
import { newId } from '@bo/contracts';
import { AuditEntity } from '../persistence/entities.ts';

export interface AuditRecord {
  actor: string;
  action: string;
  target: string;
  before: unknown;
  after: unknown;
  requestId: string;
}

/** Every admin action leaves who, what, when, before and after. */
export function recordAudit(em: EntityManager, r: AuditRecord): void {
  em.create(AuditEntity, { id: newId('audit'), ...r, before: r.before ?? null, after: r.after ?? null, at: new Date() });
}
