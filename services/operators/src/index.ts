export { operatorsService, operatorsServiceWith, OPERATORS_SCHEMA } from './service.ts';
export { loadOperatorsConfig, OperatorsConfigSchema, type OperatorsConfig } from './config.ts';
export { hashPassword, verifyPassword } from './domain/passwords.ts';
export { operatorsPersonalData } from './store/personal-data.ts';
