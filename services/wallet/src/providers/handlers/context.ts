import type { ServiceDeps } from '@bo/service-kit';
import type { WalletConfig } from '../../config.ts';

export interface ProvidersContext {
  deps: ServiceDeps<WalletConfig>;
}
