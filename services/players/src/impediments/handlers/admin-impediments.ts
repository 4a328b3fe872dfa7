// Our compliance team's internal impediments registry (Lei 14.790/2023 art. 26, docs/eligibility.md):
// the list (GET /admin/impediments, a signed cursor, one CPF with `cpf`), an entry put (POST, again
// for the same CPF: its category and note replaced) and taken off (DELETE). Each change is audited
// by the gateway (`audit` in the answer). Putting a CPF on the list acts at once, as an SPA hit
// would: the production players of br-spa operators with that CPF are restricted in the same
// transaction, and after the commit their open game sessions end. Taking it off lifts nothing: a
// restricted player stays restricted and is closed on schedule (a new registration is checked afresh).
import { INTERNAL_REGISTRY_REASON, normaliseCpf, type InternalImpediment, type internalImpedimentAdminOperations } from '@bo/contracts';
import { adminScopeOf, decisionAuthorOf, isoTime, listCursor, sqlIn, writeDecisionAudit, type HandlerOf, type ServiceDeps } from '@bo/service-kit';
import type { PlayersConfig } from '../../config.ts';
import type { InternalImpedimentRow } from '../../store/index.ts';
import { afterRestriction, restrictPlayer, type Eligibility } from '../flows/eligibility.ts';
import { recordCheck } from '../store/checks.ts';
import { fileEntry, findEntry, listEntries } from '../store/internal-entries.ts';
import { lockCpfEntry, playersToRestrict, removeEntry } from '../store/internal-list.ts';

const view = (r: InternalImpedimentRow): InternalImpediment => ({
  cpf: r.cpf,
  category: r.category,
  note: r.note,
  addedBy: r.addedBy,
  addedAt: isoTime(r.addedAt),
});

export function adminListImpediments(deps: ServiceDeps<PlayersConfig>): HandlerOf<typeof internalImpedimentAdminOperations.adminListImpediments> {
  // Bound to the filter: a cursor of another CPF's list is refused.
  const cursors = listCursor(deps.config.LIST_CURSOR_SECRET, 'players.internal_impediments');
  return async (req) => {
    adminScopeOf(req);
    const cpf = req.query.cpf === undefined ? undefined : normaliseCpf(req.query.cpf);
    const scope = [cpf ?? ''];
    const limit = req.query.limit ?? 50;
    const after = req.query.cursor ? cursors.decode(scope, req.query.cursor) : undefined;
    const rows = await listEntries(deps.orm.em.fork(), cpf, limit, after);
    return { status: 200, body: cursors.page(scope, rows, limit, view, (r) => ({ at: isoTime(r.addedAt), id: r.cpf })) };
  };
}

export function adminAddImpediment(
  deps: ServiceDeps<PlayersConfig>,
  elig: Eligibility,
): HandlerOf<typeof internalImpedimentAdminOperations.adminAddImpediment> {
  return async (req) => {
    const scope = adminScopeOf(req);
    const { actor } = scope;
    const cpf = normaliseCpf(req.body.cpf);
    const now = elig.clock();
    const { entry, restricted } = await deps.orm.em.fork().transactional(async (tx) => {
      const sql = sqlIn(tx);
      // Two puts of one CPF at once: the second waits here, then replaces what the first wrote.
      await lockCpfEntry(sql, cpf);
      const existing = await findEntry(tx, cpf);
      const before = existing ? view(existing) : null;
      const row = fileEntry(tx, existing, cpf, { category: req.body.category, note: req.body.note, addedBy: actor, addedAt: now });
      await tx.flush();
      // As an SPA hit would: the production players of br-spa operators with this CPF, not yet
      // restricted or closed (sandbox brands never consult the internal list).
      const players = await playersToRestrict(sql, cpf);
      const restricted: Array<{ id: string; brandId: string }> = [];
      for (const p of players) {
        await recordCheck(
          sql,
          { operatorId: p.operatorId, brandId: p.brandId, playerId: p.id, cpf },
          'internal_listing',
          { result: 'impeded', reasons: [INTERNAL_REGISTRY_REASON] },
          now,
        );
        if (await restrictPlayer(tx, deps.schema, p.id, now, elig.config)) restricted.push({ id: p.id, brandId: p.brandId });
      }
      const entry = view(row);
      await writeDecisionAudit(sql, deps.schema, decisionAuthorOf(scope, req.ctx), {
        action: 'adminAddImpediment',
        target: `impediment:${cpf}`,
        before,
        after: { ...entry, restricted: restricted.map((p) => p.id) },
      });
      return { entry, restricted };
    });
    await afterRestriction(deps, restricted);
    deps.outbox.poke();
    return { status: 201, body: { entry, restricted: restricted.map((p) => p.id) } };
  };
}

export function adminRemoveImpediment(deps: ServiceDeps): HandlerOf<typeof internalImpedimentAdminOperations.adminRemoveImpediment> {
  return async (req) => {
    const author = decisionAuthorOf(adminScopeOf(req), req.ctx);
    const cpf = normaliseCpf(req.params.cpf);
    const row = await deps.sql.transaction(async (tx) => {
      // One statement: of two removals at once, one removes and the other finds nothing.
      const row = await removeEntry(tx, cpf);
      await writeDecisionAudit(tx, deps.schema, author, {
        action: 'adminRemoveImpediment',
        target: `impediment:${cpf}`,
        before: row ? view(row) : null,
        after: null,
      });
      return row;
    });
    deps.outbox.poke();
    return { status: 200, body: { cpf, removed: row !== undefined } };
  };
}
