// The players closed after an impediment hit, per brand and day (issue #46 item 4): our team's
// report (GET /admin/reports/impeded-closures) and the same read for the compliance service's SIGAP
// files (players.regulator.impededClosures, internal). Each line names the lists that impeded the
// CPF and, for a social-programme hit, the SIGAP status 10 ("Exclusão – Programas Sociais") it is
// reported with the next day. Read only: the SIGAP file itself is the compliance service's.
import { COMPLIANCE_DEFAULTS, validationError, type afterHitAdminOperations, type impededClosureMessages } from '@bo/contracts';
import { adminScopeOf, internalScopeOf, type HandlerOf, type ServiceDeps } from '@bo/service-kit';
import { complianceOf, isTimeZone } from '../../rg/index.ts';
import { closuresOf, dayBounds, operatorOfBrand } from '../store/impeded-closures.ts';

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
    return { status: 200, body: { brandId, date, timeZone, from, to, data: await closuresOf(deps.sql, brandId, from, to) } };
  };
}

export function regulatorImpededClosures(deps: ServiceDeps): HandlerOf<typeof impededClosureMessages.closures> {
  return async (req) => {
    internalScopeOf(req);
    return { status: 200, body: { data: await closuresOf(deps.sql, req.body.brandId, req.body.from, req.body.to) } };
  };
}
