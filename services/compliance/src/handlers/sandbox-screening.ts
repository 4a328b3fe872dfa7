// The sandbox's control of the screening simulator (docs/aml.md, "Screening"): an operator's test
// key puts a CPF on its own sandbox's simulated PEP or sanctions list, and its sandbox players with
// that CPF are screened again before the answer (a sanctions hit's freeze is in force when the
// operator reads it). The answer names the entry only: what the screening found stays with our
// team (no tipping off).
import { normaliseCpf, type screeningSandboxOperations } from '@bo/contracts';
import { isoTime, operatorScopeOf, type HandlerOf, type ServiceDeps } from '@bo/service-kit';
import { addScreeningEntry, removeScreeningEntry } from '../store/screening-entries.ts';
import type { Screening } from '../screening/screening.ts';

export function sandboxAddScreeningEntry(deps: ServiceDeps, screening: Screening): HandlerOf<typeof screeningSandboxOperations.sandboxAddScreeningEntry> {
  return async (req) => {
    const scope = operatorScopeOf(req);
    const cpf = normaliseCpf(req.body.cpf);
    const entry = await addScreeningEntry(deps.orm, {
      list: req.body.list,
      cpf,
      name: req.body.name ?? 'Sandbox entry',
      detail: req.body.detail ?? `sandbox ${req.body.list} entry`,
      operatorId: scope.operatorId,
    });
    await screening.rescreenAll(entry.id, { operatorId: scope.operatorId, cpf });
    return { status: 201, body: { id: entry.id, list: req.body.list, cpf, createdAt: isoTime(entry.createdAt) } };
  };
}

export function sandboxRemoveScreeningEntry(deps: ServiceDeps): HandlerOf<typeof screeningSandboxOperations.sandboxRemoveScreeningEntry> {
  return async (req) => {
    const scope = operatorScopeOf(req);
    // Only the key's operator's own entries: another operator's, or our team's, are not found.
    const row = await removeScreeningEntry(deps.orm, req.params.id, scope.operatorId);
    return { status: 200, body: { id: req.params.id, removed: row !== null } };
  };
}
