export { operatorsService, operatorsServiceWith, OPERATORS_SCHEMA } from './service.ts';
export { loadOperatorsConfig, OperatorsConfigSchema, type OperatorsConfig } from './config.ts';
export { verifyPassword } from './domain/team.ts';
