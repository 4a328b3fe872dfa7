// The screening port (design.md, "Rules that gate money"): one interface to the PEP and sanctions
// lists, a real adapter whose wire format lives in one module (http-adapter.ts) and a simulator
// (simulator.ts) used by `npm start`, the sandbox and the tests. Failure policy: a screening that
// cannot be answered is retried (the KYC event is redelivered; a rescreen reports the failure and
// our team runs it again); nothing is frozen or cleared on a guess (docs/aml.md says why).
import type { Environment, ScreeningList } from '@bo/contracts';

export interface ScreeningSubject {
  cpf: string;
  name: string;
  birthDate: string | null;
}

export interface ScreeningHit {
  list: ScreeningList;
  /** What the list says: the office held or the relation (PEP), the list and its reference (sanctions). */
  detail: string;
  /** The provider's reference of the entry. */
  reference: string;
}

/** Whose player is screened: the simulator applies an operator's sandbox entries to its sandbox players only. */
export interface ScreeningCaller {
  operatorId: string;
  environment: Environment;
}

export interface ScreeningPort {
  screen(subject: ScreeningSubject, caller: ScreeningCaller): Promise<ScreeningHit[]>;
}
