// Files for the authorities: the COS record of a case (JSON and CSV) for our team to file with
// Siscoaf, and whether a brand had no reported case in a year, counted in the brand's time zone
// (the yearly "no occurrence" statement the operator sends through SIGAP).
import { AppError, type cosAdminOperations } from '@bo/contracts';
import { adminScopeOf, type HandlerOf, type ServiceDeps } from '@bo/service-kit';
import { cosCsvOf, cosRecordOf } from '../domain/cos.ts';
import { caseWithHistory } from '../store/cases.ts';
import { reportedCasesInYear } from '../store/case-counts.ts';
import type { PlayersAdmin } from '../players-admin.ts';
import { caseView } from './admin-cases.ts';
import { zoneForRead } from '../reports/brand-zone.ts';

export function adminCos(deps: ServiceDeps, players: PlayersAdmin): HandlerOf<typeof cosAdminOperations.adminAmlCos> {
  return async (req) => {
    adminScopeOf(req);
    const found = await caseWithHistory(deps.orm, req.params.id);
    if (!found) throw new AppError('AML_CASE_NOT_FOUND');
    const c = found.row;
    // Prepared while under review (the filing gives the receipt), kept once reported.
    if (c.status !== 'under_review' && c.status !== 'reported') {
      throw new AppError('AML_CASE_INVALID_TRANSITION', 'A COS is prepared for a case under review or reported.');
    }
    const record = cosRecordOf(caseView(c, found.history), await players.identityOf(c.playerId));
    return { status: 200, body: { record, csv: cosCsvOf(record) } };
  };
}

export function adminNoOccurrence(deps: ServiceDeps): HandlerOf<typeof cosAdminOperations.adminAmlNoOccurrence> {
  return async (req) => {
    adminScopeOf(req);
    const { brandId } = req.params;
    const { year } = req.query;
    // A case counts in the year it was reported (its `reported` step), the calendar year in the
    // brand's time zone (its operator's profile; the default when this service has not seen it).
    const timeZone = await zoneForRead(deps, brandId);
    const reportedCases = await reportedCasesInYear(deps.sql, brandId, year, timeZone);
    return {
      status: 200,
      body: {
        brandId,
        year,
        timeZone,
        reportedCases,
        noOccurrence: reportedCases === 0,
        statement: reportedCases === 0 ? `Brand ${brandId} reported no suspicious operation to COAF in ${year} (SPA/MF Ordinance 1,143/2024, art. 30).` : null,
      },
    };
  };
}
