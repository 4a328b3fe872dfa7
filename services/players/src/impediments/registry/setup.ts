// Builds the eligibility collaborators from the configuration: the registry of production brands
// (the SPA's over HTTPS, or the simulator), the simulator (sandbox brands, `npm start`, tests) and
// the clock. Tests pass their own clock (and read the simulator from what setup returns).
import type { ServiceDeps } from '@bo/service-kit';
import type { PlayersConfig } from '../../config.ts';
import type { Clock, Eligibility } from '../flows/eligibility.ts';
import { impedimentSimulator } from './simulator.ts';
import { spaHttpRegistry } from './spa-http.ts';

export interface EligibilityOptions {
  clock?: Clock;
  /** Called with what setup built (tests drive the simulator through it). */
  onSetup?: (elig: Eligibility) => void;
}

export function setupEligibility(deps: ServiceDeps<PlayersConfig>, opts: EligibilityOptions): Eligibility {
  const config = deps.config;
  const simulator = impedimentSimulator(deps, { down: config.IMPEDIMENT_SIMULATOR_DOWN, latencyMs: config.IMPEDIMENT_SIMULATOR_LATENCY_MS });
  let production = simulator as Eligibility['simulator'] | ReturnType<typeof spaHttpRegistry>;
  if (config.IMPEDIMENT_REGISTRY === 'spa') {
    if (!config.SPA_BASE_URL || !config.SPA_TOKEN) throw new Error('IMPEDIMENT_REGISTRY=spa needs SPA_BASE_URL and SPA_TOKEN');
    production = spaHttpRegistry({ baseUrl: config.SPA_BASE_URL, token: config.SPA_TOKEN, timeoutMs: config.SPA_TIMEOUT_MS, retries: config.SPA_RETRIES });
  }
  const elig: Eligibility = {
    registryFor: (environment) => (environment === 'sandbox' ? simulator : production),
    simulator,
    clock: opts.clock ?? (() => new Date()),
    config,
  };
  opts.onSetup?.(elig);
  return elig;
}
