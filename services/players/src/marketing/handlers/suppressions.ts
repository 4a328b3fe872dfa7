// The daily suppression list (issue #60 item 2): a brand's players who must not be contacted with
// marketing on a day (in the operator's time zone), with every reason that applied that day. The
// operator's (GET /marketing/suppressions, its own brand) and our team's (GET /admin/marketing/suppressions).
import type { MarketingSuppressionList, marketingAdminOperations, marketingOperations } from '@bo/contracts';
import { adminScopeOf, operatorScopeOf, type HandlerOf, type ServiceDeps } from '@bo/service-kit';
import { dayBounds, operatorOfBrand, timeZoneOf } from '../../store/index.ts';
import { suppressionsOf } from '../store/suppressions.ts';

const DEFAULT_LIMIT = 500;

async function listOf(
  deps: ServiceDeps,
  operatorId: string | undefined,
  brandId: string,
  q: { date: string; limit?: number; after?: string },
): Promise<MarketingSuppressionList> {
  const timeZone = await timeZoneOf(deps.orm.em.fork(), operatorId);
  const { from, to } = await dayBounds(deps.sql, q.date, timeZone);
  const limit = q.limit ?? DEFAULT_LIMIT;
  const rows = await suppressionsOf(deps.sql, brandId, from, to, q.after ?? '', limit + 1);
  const data = rows.slice(0, limit);
  return { brandId, date: q.date, timeZone, from, to, data, nextAfter: rows.length > limit ? data[data.length - 1]!.playerId : null };
}

export function listMarketingSuppressions(deps: ServiceDeps): HandlerOf<typeof marketingOperations.listMarketingSuppressions> {
  return async (req) => {
    const scope = operatorScopeOf(req);
    return { status: 200, body: await listOf(deps, scope.operatorId, scope.brandId, req.query) };
  };
}

export function adminMarketingSuppressions(deps: ServiceDeps): HandlerOf<typeof marketingAdminOperations.adminMarketingSuppressions> {
  return async (req) => {
    adminScopeOf(req);
    const operatorId = await operatorOfBrand(deps.sql, req.query.brandId);
    return { status: 200, body: await listOf(deps, operatorId, req.query.brandId, req.query) };
  };
}
