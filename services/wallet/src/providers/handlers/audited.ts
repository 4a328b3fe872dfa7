// Every admin change of the providers module writes its audit row in the change's own transaction
// (issue #56): a change that took effect has exactly one row (its id from the request's key, so a
// run again under it adds none), one rolled back has none; the outbox relays it to the audit log.
import { adminScopeOf, decisionAuthorOf, writeDecisionAudit, type DecisionAudit, type SqlRunner } from '@bo/service-kit';
import type { ProvidersContext } from './context.ts';

export type Audited<T> = { answer: T; audit: Omit<DecisionAudit, 'action'> };

/** `change` and its audit row (`action`: the operation's id) in one transaction; its answer. */
export function auditedChanges(ctx: ProvidersContext) {
  return async <T>(req: Parameters<typeof adminScopeOf>[0], action: string, change: (tx: SqlRunner) => Promise<Audited<T>>): Promise<T> => {
    const by = decisionAuthorOf(adminScopeOf(req), req.ctx);
    const answer = await ctx.deps.sql.transaction(async (tx) => {
      const { answer, audit } = await change(tx);
      await writeDecisionAudit(tx, ctx.deps.schema, by, { action, ...audit });
      return answer;
    });
    ctx.deps.outbox.poke();
    return answer;
  };
}
