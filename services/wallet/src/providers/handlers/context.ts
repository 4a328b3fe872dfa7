import type { ServiceDeps } from '@bo/service-kit';
import type { WalletConfig } from '../../config.ts';
import type { OperatorStanding } from './operator-standing.ts';

export interface ProvidersContext {
  deps: ServiceDeps<WalletConfig>;
  operators: OperatorStanding;
}
