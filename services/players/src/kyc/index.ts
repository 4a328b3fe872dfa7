// The KYC module's face: all the rest of the players service may import of it (docs/architecture.md,
// "One template per service"). The players module's admin file of a player shows the KYC
// submissions and history.
export { kycModule } from './module.ts';
export { toKycSubmission } from './domain/kyc-views.ts';
export { listKycHistory, listKycSubmissions } from './store/kyc.ts';
