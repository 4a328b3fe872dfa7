// Our internal impediments registry (Lei 14.790/2023 art. 26, docs/eligibility.md): the CPFs our
// compliance team files (the operator's staff, people with access to its systems, athletes,
// referees, coaches, officials, agents, people barred by an order, relatives…). It is ours, in our
// own schema, so it is always available and authoritative: the eligibility rules ask it first, for
// production brands, and a hit is `impeded` whatever the SPA registry says or whether it answers.
// Sandbox brands never ask it (nor the real SPA): a test key must not learn who is on it.
import { INTERNAL_REGISTRY_REASON, type Environment, type ImpedimentReason } from '@bo/contracts';
import type { SqlRunner } from '@bo/service-kit';
import type { ImpedimentAnswer } from './registry.ts';

/** An answer of the SPA registry, or a hit on our internal list (reason `internal_registry`, kept for our team only). */
export type CheckAnswer = ImpedimentAnswer | { result: 'impeded'; reasons: Array<ImpedimentReason | typeof INTERNAL_REGISTRY_REASON> };

/** The answer of a hit on the internal list (`impediment_checks.reasons` = `internal_registry`). */
export const INTERNAL_HIT: CheckAnswer = { result: 'impeded', reasons: [INTERNAL_REGISTRY_REASON] };

/** Whether brands of this environment consult the internal list: production only. */
export const consultsInternalList = (environment: Environment): boolean => environment === 'production';

/**
 * The CPFs (11 digits) of `cpfs` on the internal list. `sql` is the caller's connection: the
 * transaction's own when one is open (never a second pool connection while it holds one).
 */
export async function listedCpfs(sql: SqlRunner, cpfs: string[]): Promise<Set<string>> {
  if (cpfs.length === 0) return new Set();
  const rows = await sql.query<{ cpf: string }>('select cpf from players.internal_impediments where cpf = any(?::text[])', [cpfs]);
  return new Set(rows.map((r) => r.cpf));
}
