// The port of the SPA impediment registry (SIGAP "módulo de impedidos", docs/eligibility.md): one
// interface the eligibility rules call, whatever answers it (the real HTTP adapter, spa-http.ts,
// or the simulator, simulator.ts). An answer is never an exception: an outage is `unavailable`,
// and each rule decides in writing what `unavailable` means for it (eligibility.ts).
import type { ImpedimentReason } from '@bo/contracts';

export type ImpedimentAnswer = { result: 'not_impeded' } | { result: 'impeded'; reasons: ImpedimentReason[] } | { result: 'unavailable'; why: string };

/** Whose question it is: the SPA answers each licensed operator with its own credentials. */
export interface RegistryCaller {
  operatorId: string;
}

export interface ImpedimentRegistry {
  /** One CPF (11 digits). */
  check(cpf: string, caller: RegistryCaller): Promise<ImpedimentAnswer>;
  /** Several CPFs at once (the sweep): an answer per CPF; the whole batch `unavailable` on an outage. */
  checkBatch(cpfs: string[], caller: RegistryCaller): Promise<Map<string, ImpedimentAnswer>>;
}

/** The same answer for every CPF of a batch (an outage). */
export function allAnswered(cpfs: string[], answer: ImpedimentAnswer): Map<string, ImpedimentAnswer> {
  return new Map(cpfs.map((cpf) => [cpf, answer]));
}
