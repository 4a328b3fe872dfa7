export { paymentsService } from './service.ts';
export { PaymentsConfigSchema, type PaymentsConfig } from './config.ts';
export { paymentsPersonalData } from './store/personal-data.ts';
