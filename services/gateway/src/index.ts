export { startGateway, API_PREFIX, type RunningGateway } from './gateway.ts';
export { gatewayConfigOf, loadGatewayConfig, GatewayConfigSchema, type GatewayConfig } from './config.ts';
