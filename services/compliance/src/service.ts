// The compliance service (issue #28): the AML watch over the events stream, our team's cases with
// their evidence and decisions, each player's risk level, the brands' rule thresholds, and the
// payout hold payments asks about. It owns schema `compliance`; nothing it holds is ever answered
// to an operator (no tipping off): its operations are admin operations or internal messages.
import { amlAdminOperations, amlMessages } from '@bo/contracts';
import { handle, type ServiceDefinition } from '@bo/service-kit';
import { ComplianceConfigSchema } from './config.ts';
import { adminDecideCase, adminGetCase, adminListCases } from './handlers/admin-cases.ts';
import { adminGetRules, adminSetRules } from './handlers/admin-rules.ts';
import { adminGetPlayerRisk, holdCheck } from './handlers/player-risk.ts';
import { complianceEntities } from './persistence/entities.ts';
import { COMPLIANCE_SCHEMA, complianceMigrations } from './persistence/migrations.ts';
import { startEventWatch, type EventWatchOptions } from './watch/event-watch.ts';
import { operatorProfiles } from './watch/operator-profiles.ts';

/** What a test may hear from the watch (in-process only). */
export interface ComplianceHooks {
  onHandled?: EventWatchOptions['onHandled'];
}

export function complianceServiceWith(hooks: ComplianceHooks = {}): ServiceDefinition<typeof ComplianceConfigSchema> {
  return {
    name: 'compliance',
    schema: COMPLIANCE_SCHEMA,
    config: ComplianceConfigSchema,
    entities: complianceEntities,
    migrations: complianceMigrations,
    handlers: (deps) => ({
      ...handle(amlAdminOperations.adminListAmlCases, adminListCases(deps)),
      ...handle(amlAdminOperations.adminGetAmlCase, adminGetCase(deps)),
      ...handle(amlAdminOperations.adminAmlCaseDecision, adminDecideCase(deps)),
      ...handle(amlAdminOperations.adminGetAmlRules, adminGetRules(deps)),
      ...handle(amlAdminOperations.adminSetAmlRules, adminSetRules(deps)),
      ...handle(amlAdminOperations.adminGetPlayerRisk, adminGetPlayerRisk(deps)),
      ...handle(amlMessages.holdCheck, holdCheck(deps)),
    }),
    background: (deps) => [
      startEventWatch({
        nc: deps.nc,
        prefix: deps.prefix,
        replicas: deps.config.NATS_REPLICAS,
        sql: deps.sql,
        log: deps.log,
        profiles: operatorProfiles(deps, deps.config.PROFILE_CACHE_MS),
        ackWaitMs: deps.config.WATCH_ACK_WAIT_MS,
        call: (subject, body) => deps.call(subject, body),
        ...(hooks.onHandled ? { onHandled: hooks.onHandled } : {}),
      }),
    ],
  };
}

export const complianceService = complianceServiceWith();
