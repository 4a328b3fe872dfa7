// The screening simulator's lists (our team edits them; npm start, the sandbox and the tests screen
// against them) and the rescreen of every watched player after a list change. Adding an entry is a
// list change: every watched player is screened again before the answer, so a sanctions hit's
// freeze is in force when our team reads it.
import type { screeningAdminOperations } from '@bo/contracts';
import { adminScopeOf, isoTime, type HandlerOf, type ServiceDeps } from '@bo/service-kit';
import { addScreeningEntry, removeScreeningEntry, screeningEntries } from '../store/screening-entries.ts';
import type { Screening } from '../screening/screening.ts';

type Row = { id: string; list: string; cpf: string; name: string; detail: string; createdAt: Date };
const view = (r: Row) => ({ id: r.id, list: r.list as 'pep' | 'sanctions', cpf: r.cpf, name: r.name, detail: r.detail, createdAt: isoTime(r.createdAt) });

export function adminListScreeningEntries(deps: ServiceDeps): HandlerOf<typeof screeningAdminOperations.adminListScreeningEntries> {
  return async (req) => {
    adminScopeOf(req);
    const rows = await screeningEntries(deps.orm);
    return { status: 200, body: { data: rows.map(view) } };
  };
}

export function adminAddScreeningEntry(deps: ServiceDeps, screening: Screening): HandlerOf<typeof screeningAdminOperations.adminAddScreeningEntry> {
  return async (req) => {
    adminScopeOf(req);
    const entry = await addScreeningEntry(deps.orm, req.body);
    const rescreen = await screening.rescreenAll(entry.id);
    return {
      status: 201,
      body: { entry: view(entry), rescreen },
      audit: { target: `screening_entry:${entry.id}`, before: null, after: { entry: view(entry), rescreen } },
    };
  };
}

export function adminRemoveScreeningEntry(deps: ServiceDeps): HandlerOf<typeof screeningAdminOperations.adminRemoveScreeningEntry> {
  return async (req) => {
    adminScopeOf(req);
    const row = await removeScreeningEntry(deps.orm, req.params.id);
    return { status: 200, body: { removed: row !== null }, audit: { target: `screening_entry:${req.params.id}`, before: row ? view(row) : null, after: null } };
  };
}

export function adminRescreen(_deps: ServiceDeps, screening: Screening): HandlerOf<typeof screeningAdminOperations.adminRescreen> {
  return async (req) => {
    const { actor } = adminScopeOf(req);
    const result = await screening.rescreenAll(`manual-${Date.now()}`);
    return { status: 200, body: result, audit: { target: 'screening:rescreen', before: null, after: { by: actor, ...result } } };
  };
}
