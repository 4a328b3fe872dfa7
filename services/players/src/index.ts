export { playersService, playersServiceWith } from './service.ts';
export { PlayersConfigSchema, type PlayersConfig } from './config.ts';
export { playersPersonalData } from './privacy/index.ts';
