// Our internal impediments registry (Lei 14.790/2023 art. 26, docs/eligibility.md): the CPFs our
// compliance team files (the operator's staff, people with access to its systems, athletes,
// referees, coaches, officials, agents, people barred by an order, relatives…). It is ours, in our
// own schema, so it is always available and authoritative: the eligibility rules ask it first, for
// production brands, and a hit is `impeded` whatever the SPA registry says or whether it answers.
// Sandbox brands never ask it (nor the real SPA): a test key must not learn who is on it. Its rows
// are read in store/internal-list.ts; here, what a hit answers and who consults the list.
import { INTERNAL_REGISTRY_REASON, type Environment, type ImpedimentReason } from '@bo/contracts';
import type { ImpedimentAnswer } from '../registry/registry.ts';

/** An answer of the SPA registry, or a hit on our internal list (reason `internal_registry`, kept for our team only). */
export type CheckAnswer = ImpedimentAnswer | { result: 'impeded'; reasons: Array<ImpedimentReason | typeof INTERNAL_REGISTRY_REASON> };

/** The answer of a hit on the internal list (`impediment_checks.reasons` = `internal_registry`). */
export const INTERNAL_HIT: CheckAnswer = { result: 'impeded', reasons: [INTERNAL_REGISTRY_REASON] };

/** Whether brands of this environment consult the internal list: production only. */
export const consultsInternalList = (environment: Environment): boolean => environment === 'production';
