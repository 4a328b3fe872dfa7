// What a module of the players service gives the root's composition (service.ts): the kit's
// ServiceModule, plus `announced`: the handlers whose success may change what players.state answers,
// which the root wraps to broadcast the player's change before the reply (announcesChange). Modules
// that use the eligibility collaborators (impediments/registry/setup.ts) are made with them. Their
// `entities` and `migrations` are empty: the schema has one entity list and one migration list
// (a migration's name and place are recorded in the database), the shared store's (store/index.ts),
// which the root's definition takes.
import type { Handler, ServiceDeps, ServiceModule } from '@bo/service-kit';
import type { PlayersConfig } from './config.ts';

export interface PlayersModule extends ServiceModule<PlayersConfig> {
  /** Wrapped by the root's announcesChange: players.changed is published once each has run. */
  announced?(deps: ServiceDeps<PlayersConfig>): Record<string, Handler>;
}

/** Handlers that store their answer in the transaction of their change (`runOnce`), not through the kit's claim (idempotency/kit-kept.ts). */
export const ANSWERED_BY_EFFECT = { answers: 'effect' } as const;
