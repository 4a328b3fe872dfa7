import type { ServiceDeps } from '@bo/service-kit';
import type { WalletConfig } from '../../config.ts';
import type { OperatorStanding } from './operator-standing.ts';
import type { PrizeClockRecorder } from './prize-clock-metrics.ts';
import type { RoundFactsCache } from './round-facts.ts';
import type { SessionCache } from './session-cache.ts';

export interface ProvidersContext {
  deps: ServiceDeps<WalletConfig>;
  operators: OperatorStanding;
  /** The prize clock's metrics: each win credited now that is timed (or should have been). */
  prizes: PrizeClockRecorder;
  /** Sessions that took a bet, by token (handlers/session-cache.ts). */
  sessions: SessionCache;
  /** Rounds' facts that never change, kept from their bets (handlers/round-facts.ts). */
  rounds: RoundFactsCache;
}
