export { startGateway, API_PREFIX, type RunningGateway } from './gateway.ts';
export { loadGatewayConfig, GatewayConfigSchema, type GatewayConfig } from './config.ts';
export { verifyRequestSignature, timestampInRange } from './auth/signature.ts';
