// The privacy module's face: the root's composition (service.ts) is its only importer.
export { privacyModule } from './module.ts';
export { playersPersonalData } from './store/catalogue.ts';
