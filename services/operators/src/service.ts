// The operators service: operators, brands, their keys and webhook endpoint settings, our team's
// people and service tokens, console sessions and the admin audit log, in schema `operators`. The
// gateway forwards the admin operations on them here and asks the messages of contracts'
// operators.ts; it keeps only a cache of credentials, dropped by the broadcast each change makes
// before it answers (broadcast/operator-changes.ts).
import { DEV_MASTER_KEY, personalDataHandlers, startLoop, type ServiceDefinition } from '@bo/service-kit';
import { operatorsPersonalData } from './store/personal-data.ts';
import { OperatorsConfigSchema } from './config.ts';
import { operatorEntities } from './store/entities.ts';
import { operatorMigrations } from './store/migrations.ts';
import { operatorsRuntime, type OperatorsRuntime } from './runtime.ts';
import { adminOperatorHandlers } from './handlers/admin-operators.ts';
import { adminTeamHandlers } from './handlers/admin-team.ts';
import { gatewayMessageHandlers } from './handlers/gateway-messages.ts';
import { startAuditIntake } from './handlers/audit-intake.ts';

export const OPERATORS_SCHEMA = 'operators';

/** `now`: the clock of the key rules (epoch ms); tests move it. */
export function operatorsServiceWith(opts: { now?: () => number } = {}): ServiceDefinition<typeof OperatorsConfigSchema, OperatorsRuntime> {
  return {
    name: 'operators',
    schema: OPERATORS_SCHEMA,
    config: OperatorsConfigSchema,
    entities: operatorEntities,
    migrations: operatorMigrations,
    // Webhook endpoint changes go to the internal stream (for the webhooks service); decisions' audit rows come from it.
    internalEvents: true,
    setup: (deps) => {
      if (deps.config.SECRETS_MASTER_KEY === DEV_MASTER_KEY) deps.log.warn('SECRETS_MASTER_KEY is the development default; set it in production');
      return operatorsRuntime(deps, opts.now ?? Date.now);
    },
    handlers: (deps, rt) => ({
      ...adminOperatorHandlers(rt),
      ...adminTeamHandlers(rt),
      ...gatewayMessageHandlers(rt),
      // What this service holds about a player, for the players service's data requests (issue #69).
      ...personalDataHandlers(deps, operatorsPersonalData),
    }),
    background: (deps, rt) => {
      const cleanup = startLoop({
        name: 'console session cleanup',
        intervalMs: deps.config.RETENTION_INTERVAL_MS,
        log: deps.log,
        startNow: false,
        run: async () => {
          await rt.sessions.deleteEnded();
          return false;
        },
      });
      // Decisions other services audit in their own transactions reach the audit log here.
      const auditIntake = startAuditIntake({ nc: deps.nc, prefix: deps.prefix, replicas: deps.config.NATS_REPLICAS, sql: deps.sql, log: deps.log });
      return [() => cleanup.stop(), auditIntake];
    },
  };
}

export const operatorsService = operatorsServiceWith();
