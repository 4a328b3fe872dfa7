// The players service: players, KYC submissions and status, player status, responsible-gaming
// limits, pauses and self-exclusion, each operator's compliance profile, and the br-spa eligibility
// rules with our internal impediments registry. Made of modules, each reached through its face
// (index.ts): players, kyc, rg, impediments, marketing; the schema's one entity list and one migration list are
// the shared store's (store/index.ts: a migration's name and place are recorded). Subjects come from the contract's
// operation table so the gateway and this service cannot disagree on a name.
import { playerChangedSubject, type PlayerChanged } from '@bo/contracts';
import type { Handler, ServiceDefinition, ServiceDeps } from '@bo/service-kit';
import { PlayersConfigSchema } from './config.ts';
import { impedimentsModule, setupEligibility, type Eligibility, type EligibilityOptions } from './impediments/index.ts';
import { kycModule } from './kyc/index.ts';
import { marketingModule } from './marketing/index.ts';
import type { PlayersModule } from './module.ts';
import { playersModule } from './players/index.ts';
import { privacyModule } from './privacy/index.ts';
import { rgModule } from './rg/index.ts';
import { playerEntities, playerMigrations } from './store/index.ts';

export const PLAYERS_SCHEMA = 'players';

/**
 * After a handler that may change what players.state answers succeeds, broadcasts the player's
 * id so the wallet's and payments' caches drop it (contracts' players-client.ts). Published
 * before the reply on the same connection, so whoever sees the reply and then asks the wallet is
 * answered after the wallet has dropped the entry.
 */
function announcesChange(deps: ServiceDeps, handlers: Record<string, Handler>): Record<string, Handler> {
  return Object.fromEntries(
    Object.entries(handlers).map(([subject, handler]) => [
      subject,
      async (req: Parameters<Handler>[0], env: Parameters<Handler>[1]) => {
        try {
          // `env` carries the stored answers: the wrapped handler keeps its key's answer as if unwrapped.
          const reply = await handler(req, env);
          deps.outbox.poke(); // a change may have written events
          return reply;
        } finally {
          // Also after a failure: it may have come after the commit, and a needless drop costs one call.
          const params = req.params as { id?: string; playerId?: string } | undefined;
          // An internal message (no path) names its player in its body.
          const playerId = params?.id ?? params?.playerId ?? (req.body as { playerId?: string } | undefined)?.playerId;
          if (playerId) deps.nc.publish(playerChangedSubject(deps.prefix), JSON.stringify({ playerId } satisfies PlayerChanged));
        }
      },
    ]),
  );
}

/**
 * The modules, made with the eligibility collaborators. Impediments before rg: their background
 * tasks are the sweep, the closing, then the self-exclusion terms (readiness lists them in this order).
 */
const modulesWith = (elig: Eligibility): PlayersModule[] => [playersModule(elig), kycModule, impedimentsModule(elig), rgModule, marketingModule, privacyModule];

/** The service with its eligibility collaborators chosen (tests pass a clock they move, and see the simulator). */
export function playersServiceWith(opts: EligibilityOptions = {}): ServiceDefinition<typeof PlayersConfigSchema, Eligibility> {
  return {
    name: 'players',
    schema: PLAYERS_SCHEMA,
    config: PlayersConfigSchema,
    entities: playerEntities,
    migrations: playerMigrations,
    // A decision's audit row goes to the internal stream, for the operators service's audit log.
    internalEvents: true,
    setup: (deps) => setupEligibility(deps, opts),
    handlers: (deps, elig) => {
      const modules = modulesWith(elig);
      return Object.assign({}, ...modules.map((m) => m.handlers(deps)), ...modules.map((m) => announcesChange(deps, m.announced?.(deps) ?? {})));
    },
    background: (deps, elig) => modulesWith(elig).flatMap((m) => m.background?.(deps) ?? []),
  };
}

export const playersService = playersServiceWith();
