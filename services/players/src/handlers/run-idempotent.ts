// runOnce plus the two answers it leaves to the caller:
// - a request that lost a race to another request WITH THE SAME KEY (it waited on a row lock or an
//   index entry, then failed a check or the insert) returns the winner's stored result;
// - a unique violation that is a domain rule (externalId per brand) becomes its error code.
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError, type ErrorCode, type RequestContext } from '@bo/contracts';
import { findProcessed, runOnce, type HandlerResult, type ServiceDeps } from '@bo/service-kit';

function violatedConstraint(e: unknown): string | undefined {
  if (typeof e !== 'object' || e === null) return undefined;
  const { code, constraint } = e as { code?: string; constraint?: string };
  return code === '23505' ? constraint : undefined;
}

export async function runIdempotent(
  deps: ServiceDeps, ctx: RequestContext, operation: string,
  effect: (tx: EntityManager) => Promise<HandlerResult>,
  uniqueViolations: Record<string, ErrorCode> = {},
): Promise<HandlerResult> {
  try {
    return await runOnce(deps.orm.em, deps.schema, ctx, operation, effect);
  } catch (e) {
    if (ctx.idempotencyKey) {
      const prior = await findProcessed(deps.orm.em.fork(), deps.schema, ctx);
      if (prior) return prior;
    }
    const constraint = violatedConstraint(e);
    const code = constraint ? uniqueViolations[constraint] : undefined;
    if (code) throw new AppError(code);
    throw e;
  }
}
