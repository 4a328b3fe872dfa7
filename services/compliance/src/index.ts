export { complianceService, createComplianceService } from './service.ts';
export { ComplianceConfigSchema, type ComplianceConfig } from './config.ts';
