// The players module's face: the root's composition (service.ts) is its only importer; no other
// module imports it (docs/architecture.md, "One template per service": it is the top of the
// service's arrows, players → kyc, rg, impediments).
export { playersModule } from './module.ts';
