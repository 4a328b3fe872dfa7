export { paymentsService } from './service.ts';
export { PaymentsConfigSchema, type PaymentsConfig } from './config.ts';
