// What payments' br-spa rules share: the operators' profiles (cached), the PIX key directory of
// production brands (the PSP's, or the simulator) and the simulator (sandbox brands, tests), and the
// rail that pays the unclaimed funds' transfers to FIES and FUNCAP (issue #60) with its simulator.
import type { Environment } from '@bo/contracts';
import type { ServiceDeps } from '@bo/service-kit';
import type { PaymentsConfig } from '../config.ts';
import { complianceProfiles, type ComplianceProfiles } from './compliance-profiles.ts';
import type { PixKeyDirectory } from '../providers/pix-key-directory.ts';
import { pixKeySimulator, type PixKeySimulator } from '../providers/pix-key-simulator.ts';
import { pspHttpKeyDirectory } from '../providers/psp-http.ts';
import type { FundPayoutRail } from '../providers/fund-payout-rail.ts';
import { fundPayoutSimulator, type FundPayoutSimulator } from '../providers/fund-payout-simulator.ts';
import { fundPayoutHttpRail } from '../providers/fund-payout-http.ts';

export interface OwnAccount {
  profiles: ComplianceProfiles;
  keysFor(environment: Environment): PixKeyDirectory;
  simulator: PixKeySimulator;
  /** The rail that pays the funds' halves of a transfer (issue #60): sandbox brands always the simulator. */
  fundPayoutRailFor(environment: Environment): FundPayoutRail;
  fundPayoutSimulator: FundPayoutSimulator;
}

export function setupOwnAccount(deps: ServiceDeps<PaymentsConfig>, onSetup?: (o: OwnAccount) => void): OwnAccount {
  const config = deps.config;
  const simulator = pixKeySimulator(deps.sql);
  let production: PixKeyDirectory = simulator;
  if (config.PIX_KEY_DIRECTORY === 'psp') {
    if (!config.PSP_BASE_URL || !config.PSP_TOKEN) throw new Error('PIX_KEY_DIRECTORY=psp needs PSP_BASE_URL and PSP_TOKEN');
    production = pspHttpKeyDirectory({ baseUrl: config.PSP_BASE_URL, token: config.PSP_TOKEN, timeoutMs: config.PSP_TIMEOUT_MS, retries: config.PSP_RETRIES });
  }
  const fundSimulator = fundPayoutSimulator(deps.sql);
  let fundRail: FundPayoutRail = fundSimulator;
  if (config.FUND_PAYOUT_RAIL === 'psp') {
    if (!config.PSP_BASE_URL || !config.PSP_TOKEN) throw new Error('FUND_PAYOUT_RAIL=psp needs PSP_BASE_URL and PSP_TOKEN');
    if (config.FUND_PAYOUT_FIES_ACCOUNT.startsWith('simulated:') || config.FUND_PAYOUT_FUNCAP_ACCOUNT.startsWith('simulated:')) {
      throw new Error("FUND_PAYOUT_RAIL=psp needs FUND_PAYOUT_FIES_ACCOUNT and FUND_PAYOUT_FUNCAP_ACCOUNT set to the funds' accounts");
    }
    fundRail = fundPayoutHttpRail({ baseUrl: config.PSP_BASE_URL, token: config.PSP_TOKEN, timeoutMs: config.PSP_TIMEOUT_MS, retries: config.PSP_RETRIES });
  }
  const own: OwnAccount = {
    profiles: complianceProfiles(deps),
    keysFor: (environment) => (environment === 'sandbox' ? simulator : production),
    simulator,
    fundPayoutRailFor: (environment) => (environment === 'sandbox' ? fundSimulator : fundRail),
    fundPayoutSimulator: fundSimulator,
  };
  onSetup?.(own);
  return own;
}
