import type { ServiceModule } from '@bo/service-kit';

// Placeholder: the games module (catalogue, game sessions) is built in issue #6.
export const gamesModule: ServiceModule = { entities: [], migrations: [], handlers: () => ({}) };
