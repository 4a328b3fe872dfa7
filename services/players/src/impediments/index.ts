// The impediments module's face: all the rest of the players service may import of it
// (docs/architecture.md, "One template per service"). The root builds the eligibility collaborators
// (`setupEligibility`) every module made with them shares; the players module asks the registries at
// registration (`checkAtRegistration`, its clean check recorded in the registration's transaction),
// answers players.state's withdrawal window (`withdrawalsUntil`) and broadcasts a sanctions freeze's
// change (`announcePlayerChanged`).
export { impedimentsModule } from './module.ts';
export { setupEligibility, type EligibilityOptions } from './registry/setup.ts';
export { withdrawalsUntil } from './domain/days.ts';
export { announcePlayerChanged, checkAtRegistration, type Eligibility, type RecordCleanCheck } from './flows/eligibility.ts';
