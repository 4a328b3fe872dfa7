export { complianceService, createComplianceService } from './service.ts';
export { watchConsumerName } from './watch/event-watch.ts';
export { ComplianceConfigSchema, type ComplianceConfig } from './config.ts';
export { compliancePersonalData } from './store/personal-data.ts';
