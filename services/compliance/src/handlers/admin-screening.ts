// The screening simulator's lists (our team edits them; npm start, the sandbox and the tests screen
// against them) and the rescreen of every watched player after a list change. Adding an entry is a
// list change: every watched player is screened again before the answer, so a sanctions hit's
// freeze is in force when our team reads it. Each change is audited in its transaction (the kit's
// writeDecisionAudit, relayed to the audit log once).
import type { screeningAdminOperations } from '@bo/contracts';
import { adminScopeOf, decisionAuthorOf, isoTime, writeDecisionAudit, type HandlerOf, type ServiceDeps } from '@bo/service-kit';
import { addScreeningEntry, removeScreeningEntry, screeningEntries } from '../store/screening-entries.ts';
import type { Screening } from '../screening/screening.ts';
import type { ScreeningPort } from '../screening/port.ts';
import { rescreenSubjects } from '../screening/subjects.ts';
import { reviewDueAt } from '../domain/risk-register.ts';

type Row = { id: string; list: string; cpf: string; name: string; detail: string; createdAt: Date };
const view = (r: Row) => ({ id: r.id, list: r.list as 'pep' | 'sanctions', cpf: r.cpf, name: r.name, detail: r.detail, createdAt: isoTime(r.createdAt) });

export function adminListScreeningEntries(deps: ServiceDeps): HandlerOf<typeof screeningAdminOperations.adminListScreeningEntries> {
  return async (req) => {
    adminScopeOf(req);
    const rows = await screeningEntries(deps.orm);
    return { status: 200, body: { data: rows.map(view) } };
  };
}

export function adminAddScreeningEntry(
  deps: ServiceDeps,
  screening: Screening,
  subjectsPort?: ScreeningPort,
): HandlerOf<typeof screeningAdminOperations.adminAddScreeningEntry> {
  return async (req) => {
    const by = decisionAuthorOf(adminScopeOf(req), req.ctx);
    const entry = await addScreeningEntry(deps.orm, req.body, (row, tx) =>
      writeDecisionAudit(tx, deps.schema, by, { action: 'adminAddScreeningEntry', target: `screening_entry:${row.id}`, before: null, after: view(row) }),
    );
    deps.outbox.poke();
    const rescreen = await screening.rescreenAll(entry.id);
    // The risk register's subjects too (issue #60): a new hit rates the subject high.
    if (subjectsPort) await rescreenSubjects(deps.sql, subjectsPort, new Date(), reviewDueAt, deps.log);
    return { status: 201, body: { entry: view(entry), rescreen } };
  };
}

export function adminRemoveScreeningEntry(deps: ServiceDeps): HandlerOf<typeof screeningAdminOperations.adminRemoveScreeningEntry> {
  return async (req) => {
    const by = decisionAuthorOf(adminScopeOf(req), req.ctx);
    const { id } = req.params;
    const row = await removeScreeningEntry(deps.orm, id, undefined, (row, tx) =>
      writeDecisionAudit(tx, deps.schema, by, {
        action: 'adminRemoveScreeningEntry',
        target: `screening_entry:${id}`,
        before: row ? view(row) : null,
        after: null,
      }),
    );
    deps.outbox.poke();
    return { status: 200, body: { removed: row !== null } };
  };
}

/** A rescreen is many transactions (a screening each): audited once it is done, in a transaction of its own. */
export function adminRescreen(deps: ServiceDeps, screening: Screening): HandlerOf<typeof screeningAdminOperations.adminRescreen> {
  return async (req) => {
    const scope = adminScopeOf(req);
    const result = await screening.rescreenAll(`manual-${Date.now()}`);
    await deps.sql.transaction((tx) =>
      writeDecisionAudit(tx, deps.schema, decisionAuthorOf(scope, req.ctx), {
        action: 'adminRescreen',
        target: 'screening:rescreen',
        before: null,
        after: { by: scope.actor, ...result },
      }),
    );
    deps.outbox.poke();
    return { status: 200, body: result };
  };
}
