// Public surface of the webhooks service: how to build and configure it (tests, start script).
export { webhooksService } from './service.ts';
export { WebhooksConfigSchema, type WebhooksConfig } from './config.ts';
export { webhooksConsumerName } from './delivery/event-consumer.ts';
export { webhooksPersonalData } from './store/personal-data.ts';
