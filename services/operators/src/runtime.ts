// What the operators service's handlers share: its domain objects over the kit's deps, and the
// clock of the key rules and the sign-in back-off (tests move it to cross a key's end or a block
// without waiting).
import type { ServiceDeps } from '@bo/service-kit';
import { totpRequiredRoles, type OperatorsConfig } from './config.ts';
import { OperatorAdmin } from './store/operators.ts';
import { OperatorKeys } from './store/operator-keys.ts';
import { TeamAccess } from './store/team.ts';
import { ConsoleSessions, DEFAULT_SESSION_POLICY } from './store/console-sessions.ts';

export interface OperatorsRuntime {
  deps: ServiceDeps<OperatorsConfig>;
  operators: OperatorAdmin;
  keys: OperatorKeys;
  team: TeamAccess;
  sessions: ConsoleSessions;
}

export function operatorsRuntime(deps: ServiceDeps<OperatorsConfig>, now: () => number): OperatorsRuntime {
  const { config } = deps;
  const domain = {
    orm: deps.orm,
    nc: deps.nc,
    prefix: deps.prefix,
    log: deps.log,
    rpcTimeoutMs: config.RPC_TIMEOUT_MS,
    masterKey: config.SECRETS_MASTER_KEY,
    defaultRateLimit: config.DEFAULT_RATE_LIMIT_PER_MINUTE,
    now,
    onEventsWritten: () => deps.outbox.poke(),
    call: <R>(subject: string, body: unknown) => deps.call<R>(subject, body),
  };
  const policy = {
    ...DEFAULT_SESSION_POLICY,
    idleMinutes: config.CONSOLE_IDLE_MINUTES,
    absoluteHours: config.CONSOLE_ABSOLUTE_HOURS,
    totpRequiredRoles: totpRequiredRoles(config),
  };
  return {
    deps,
    operators: new OperatorAdmin(domain),
    keys: new OperatorKeys(domain),
    team: new TeamAccess(deps.sql, config.CONSOLE_ONE_TIME_PASSWORD_HOURS, policy.totpRequiredRoles),
    sessions: new ConsoleSessions(deps.sql, config.SECRETS_MASTER_KEY, policy, now),
  };
}
