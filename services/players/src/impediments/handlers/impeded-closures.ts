// The "status 10" report, per brand and day (issue #46 item 4; keyed by the day after the block since
// issue #60, as the SPA's FAQ item 22 reports the status on D+1): our team's report (GET
// /admin/reports/impeded-closures) and the same read for the compliance service's SIGAP files
// (players.regulator.impededClosures, internal). The report of day D lists the players blocked after a
// hit on D−1 (the operator's time zone), each with the lists that impeded the CPF, its closing once it
// came, and for a social-programme hit the SIGAP status 10 ("Exclusão – Programas Sociais"). Read
// only: the SIGAP file itself is the compliance service's.
import { COMPLIANCE_DEFAULTS, validationError, type afterHitAdminOperations, type impededClosureMessages } from '@bo/contracts';
import { adminScopeOf, internalScopeOf, type HandlerOf, type ServiceDeps } from '@bo/service-kit';
import { complianceOf, isTimeZone } from '../../rg/index.ts';
import { dayBounds, operatorOfBrand } from '../../store/index.ts';
import { closuresOf } from '../store/impeded-closures.ts';

const DAY_MS = 86_400_000;

/** The calendar date before `date` (YYYY-MM-DD). */
function dayBefore(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10);
}

export function adminImpededClosures(deps: ServiceDeps): HandlerOf<typeof afterHitAdminOperations.adminImpededClosures> {
  return async (req) => {
    adminScopeOf(req);
    const { brandId, date } = req.query;
    if (req.query.timeZone !== undefined && !isTimeZone(req.query.timeZone)) {
      throw validationError('query', [{ path: '/timeZone', message: 'must be an IANA time zone, for example America/Sao_Paulo' }]);
    }
    const operatorId = req.query.timeZone === undefined ? await operatorOfBrand(deps.sql, brandId) : undefined;
    const timeZone = req.query.timeZone ?? (operatorId ? (await complianceOf(deps.orm.em.fork(), operatorId)).timeZone : COMPLIANCE_DEFAULTS.timeZone);
    const { from, to } = await dayBounds(deps.sql, date, timeZone);
    const blockDay = await dayBounds(deps.sql, dayBefore(date), timeZone);
    return { status: 200, body: { brandId, date, timeZone, from, to, data: await closuresOf(deps.sql, brandId, blockDay.from, blockDay.to) } };
  };
}

export function regulatorImpededClosures(deps: ServiceDeps): HandlerOf<typeof impededClosureMessages.closures> {
  return async (req) => {
    internalScopeOf(req);
    // The report's day is [from, to): its blocks are of the 24 hours before (São Paulo has had no daylight saving since 2019).
    const back = (at: string) => new Date(Date.parse(at) - DAY_MS).toISOString();
    return { status: 200, body: { data: await closuresOf(deps.sql, req.body.brandId, back(req.body.from), back(req.body.to)) } };
  };
}
