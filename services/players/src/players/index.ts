// The players module's face: the root's composition (service.ts), and the privacy module, whose data
// request's correction changes a registration the way the PATCH does (docs/architecture.md, "One
// template per service": players → kyc, rg, impediments; privacy → players).
export { playersModule } from './module.ts';
export { applyRegistrationChanges } from './handlers/update-player.ts';
export { announceRegistration, registrationMissingOf } from './handlers/registration.ts';
