// What payments' br-spa rules share: the operators' profiles (cached), the PIX key directory of
// production brands (the PSP's, or the simulator) and the simulator (sandbox brands, tests).
import type { Environment } from '@bo/contracts';
import type { ServiceDeps } from '@bo/service-kit';
import type { PaymentsConfig } from '../config.ts';
import { complianceProfiles, type ComplianceProfiles } from './compliance-profiles.ts';
import type { PixKeyDirectory } from '../providers/pix-key-directory.ts';
import { pixKeySimulator, type PixKeySimulator } from '../providers/pix-key-simulator.ts';
import { pspHttpKeyDirectory } from '../providers/psp-http.ts';

export interface OwnAccount {
  profiles: ComplianceProfiles;
  keysFor(environment: Environment): PixKeyDirectory;
  simulator: PixKeySimulator;
}

export function setupOwnAccount(deps: ServiceDeps<PaymentsConfig>, onSetup?: (o: OwnAccount) => void): OwnAccount {
  const config = deps.config;
  const simulator = pixKeySimulator(deps.sql);
  let production: PixKeyDirectory = simulator;
  if (config.PIX_KEY_DIRECTORY === 'psp') {
    if (!config.PSP_BASE_URL || !config.PSP_TOKEN) throw new Error('PIX_KEY_DIRECTORY=psp needs PSP_BASE_URL and PSP_TOKEN');
    production = pspHttpKeyDirectory({ baseUrl: config.PSP_BASE_URL, token: config.PSP_TOKEN, timeoutMs: config.PSP_TIMEOUT_MS, retries: config.PSP_RETRIES });
  }
  const own: OwnAccount = {
    profiles: complianceProfiles(deps),
    keysFor: (environment) => (environment === 'sandbox' ? simulator : production),
    simulator,
  };
  onSetup?.(own);
  return own;
}
