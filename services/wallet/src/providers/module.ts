// The providers module of the wallet (docs/providers.md): third-party game providers, their keys
// and games, and the provider wallet API they call for every bet, win and rollback. It lives in the
// wallet because a provider's bet is the player's money, posted by the one ledger writer in the
// same statement as its record.
import { connectorAdminOperations, gameRegisterOperations, providerAdminOperations, providerOperations } from '@bo/contracts';
import { handle, type Handler, type ServiceModule } from '@bo/service-kit';
import type { WalletConfig } from '../config.ts';
import { prizeClockMigrations, providerMigrations } from './store/migrations.ts';
import { adminProviderHandlers } from './handlers/admin.ts';
import { providerBet } from './handlers/bet.ts';
import { credentialLookup } from './handlers/credential.ts';
import { providerAuthenticate, providerBalance, providerRefreshSession } from './handlers/sessions.ts';
import { providerCorrection, providerRollback, providerWin } from './handlers/settle.ts';
import type { ProvidersContext } from './handlers/context.ts';
import { operatorStanding, type OperatorStanding } from './handlers/operator-standing.ts';
// Issue #44 items 6-7: what operators, our team and the regulator file read.
import { providerReadHandlers } from './handlers/reads.ts';
import { providerReadMigrations } from './store/read-migrations.ts';
import { providerDebtMigrations } from './store/debt-migrations.ts';
import { providerSandboxMigrations } from './store/sandbox-migrations.ts';
import { prizeClockRecorder } from './handlers/prize-clock-metrics.ts';
import { sessionCache } from './handlers/session-cache.ts';
import { roundFactsCache } from './handlers/round-facts.ts';
// Issue #58: connectors (docs/connectors.md): our team's side and the gateway's questions.
import { providerConnectorMigrations } from './store/connector-migrations.ts';
import { connectorAdminHandlers } from './handlers/connector-admin.ts';
import { connectorCallHandlers } from './handlers/connector-calls.ts';
// Issue #59 items 4-6: sessions that end on inactivity; the game register (certificates) and RTP as measured.
import { providerSessionMigrations } from './store/session-migrations.ts';
import { providerGameRegisterMigrations } from './store/game-register-migrations.ts';
import { gameRegisterHandlers } from './handlers/game-register.ts';
import { registerGameRegisterMetrics } from './handlers/game-register-metrics.ts';
// Issue #59 items 1-3: provider-funded bets and credits, reconciliation, what the brand owes a provider.
import { providerMoneyMigrations } from './store/provider-money-migrations.ts';
import { providerBetUpdateMigrations } from './store/bet-update-migrations.ts';
import { providerFreeBet, providerJackpotWin, providerPromoCredit } from './handlers/provider-funded.ts';
import { hub88StatementHandlers } from './handlers/hub88-statements.ts';
import { providerMoneyHandlers } from './handlers/provider-money.ts';
import { registerReconciliationMetrics } from './handlers/reconciliation-metrics.ts';

// One operator-status cache per running service (its NATS subscription stops with the service).
const standings = new WeakMap<object, OperatorStanding>();
const standingOf = (deps: Parameters<typeof operatorStanding>[0]) => {
  let s = standings.get(deps);
  if (!s) {
    s = operatorStanding(deps);
    standings.set(deps, s);
  }
  return s;
};

export const providersModule: ServiceModule<WalletConfig> = {
  entities: [],
  migrations: [
    ...providerMigrations,
    ...providerReadMigrations,
    ...providerDebtMigrations,
    ...providerSandboxMigrations,
    ...prizeClockMigrations,
    ...providerConnectorMigrations,
    ...providerSessionMigrations,
    ...providerGameRegisterMigrations,
    ...providerMoneyMigrations,
    ...providerBetUpdateMigrations,
  ],
  background: (deps) => {
    // Read when scraped: nothing to stop.
    registerGameRegisterMetrics(deps.metrics, deps.sql);
    registerReconciliationMetrics(deps.metrics, deps.sql);
    return [async () => standingOf(deps).stop()];
  },
  handlers: (deps) => {
    const ctx: ProvidersContext = {
      deps,
      operators: standingOf(deps),
      prizes: prizeClockRecorder(deps.metrics),
      sessions: sessionCache(),
      rounds: roundFactsCache(),
    };
    const admin = adminProviderHandlers(ctx);
    const adminHandlers: Record<string, Handler> = {};
    for (const [id, fn] of Object.entries(admin)) {
      Object.assign(adminHandlers, handle(providerAdminOperations[id as keyof typeof admin], fn as never));
    }
    for (const [id, fn] of Object.entries(connectorAdminHandlers(ctx))) {
      Object.assign(adminHandlers, handle(connectorAdminOperations[id as keyof typeof connectorAdminOperations], fn as never));
    }
    for (const [id, fn] of Object.entries(gameRegisterHandlers(ctx))) {
      Object.assign(adminHandlers, handle(gameRegisterOperations[id as keyof typeof gameRegisterOperations], fn as never));
    }
    return {
      ...handle(providerOperations.providerAuthenticate, providerAuthenticate(ctx)),
      ...handle(providerOperations.providerRefreshSession, providerRefreshSession(ctx)),
      ...handle(providerOperations.providerBalance, providerBalance(ctx)),
      ...handle(providerOperations.providerBet, providerBet(ctx)),
      ...handle(providerOperations.providerWin, providerWin(ctx)),
      ...handle(providerOperations.providerRollback, providerRollback(ctx)),
      ...handle(providerOperations.providerCorrection, providerCorrection(ctx)),
      ...handle(providerOperations.providerFreeBet, providerFreeBet(ctx)),
      ...handle(providerOperations.providerPromoCredit, providerPromoCredit(ctx)),
      ...handle(providerOperations.providerJackpotWin, providerJackpotWin(ctx)),
      ...credentialLookup(ctx),
      ...connectorCallHandlers(ctx),
      ...adminHandlers,
      ...providerReadHandlers(ctx),
      ...providerMoneyHandlers(ctx),
      ...hub88StatementHandlers(ctx),
    };
  },
};
