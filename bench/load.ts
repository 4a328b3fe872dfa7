// The load generator: one autocannon run (a warm-up, then the measured run) per process, so it
// never shares an event loop with what it measures. Receives a LoadSpec over IPC, replies with
// a LoadSummary and exits.
import autocannon, { type AutocannonRequest, type AutocannonResult } from 'autocannon';
import { pacedRun } from './paced-load.ts';
import { createPlayerRequest, meRequest, type Credentials } from './requests.ts';
import {
  bareRequest,
  depositRequests,
  providerRequests,
  roundRequest,
  walletRequest,
  type BenchPlayer,
  type BenchSession,
  type ProviderBenchSession,
  type ProviderCredentials,
} from './money-requests.ts';
import { hub88Requests, type Hub88BenchConnector, type Hub88BenchSession } from './hub88-requests.ts';

export type ScenarioKind = 'hello' | 'me' | 'createPlayer' | 'bareSelect' | 'bareUpdate' | 'deposit' | 'wallet' | 'rounds' | 'provider' | 'hub88';

export interface LoadSpec {
  name: string;
  kind: ScenarioKind;
  /** Origin only, e.g. http://127.0.0.1:41234 */
  url: string;
  creds?: Credentials;
  runId: string;
  connections: number;
  durationSec: number;
  warmupSec: number;
  /** Money scenarios: the players (and their brand's credentials) and the funded game sessions. */
  players?: BenchPlayer[];
  sessions?: BenchSession[];
  /** The provider scenario: sessions of the provider's game and the provider's credentials. */
  providerSessions?: ProviderBenchSession[];
  provider?: ProviderCredentials;
  /** The Hub88 scenario (issue #58): sessions of the connector's game, the connector, and how many rounds to sign before the run. */
  hub88Sessions?: Hub88BenchSession[];
  hub88?: Hub88BenchConnector & { presignedRounds: number };
  /**
   * Steady rate (requests a second over all connections), evenly spaced (paced-load.ts): the soak and
   * the provider calls at half the maximum rate. Unlimited (autocannon, closed loop) when absent.
   */
  overallRate?: number;
  /** createPlayer: the first CPF's counter (runs on one br-spa brand need CPFs of their own: one per CPF per brand). */
  cpfBase?: number;
  /** createPlayer: send the loss and time limits a br-spa registration requires (issue #46). */
  withLimits?: boolean;
}

export interface RunFigures {
  requestsPerSec: number;
  /** Responses counted. */
  total: number;
  /** Requests sent, including those still in flight when the run stopped. */
  sent: number;
  latencyMs: { avg: number; p50: number; p90: number; p99: number; max: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodes: Record<string, number>;
}

export interface LoadSummary extends RunFigures {
  name: string;
  kind: ScenarioKind;
  connections: number;
  durationSec: number;
  /** The warm-up run before it (not part of the figures); null when BENCH_WARMUP=0. */
  warmup: RunFigures | null;
}

function figures(r: AutocannonResult): RunFigures {
  const statusCodes: Record<string, number> = {};
  for (const [code, s] of Object.entries(r.statusCodeStats ?? {})) statusCodes[code] = Number(s.count);
  return {
    requestsPerSec: r.requests.average,
    total: r.requests.total,
    sent: r.requests.sent,
    latencyMs: { avg: r.latency.average, p50: r.latency.p50, p90: r.latency.p90, p99: r.latency.p99, max: r.latency.max },
    errors: r.errors,
    timeouts: r.timeouts,
    non2xx: r.non2xx,
    statusCodes,
  };
}

function requestsFor(spec: LoadSpec, counter: { n: number }): AutocannonRequest[] {
  switch (spec.kind) {
    case 'hello':
      return [{ method: 'GET', path: '/' }];
    case 'bareSelect':
    case 'bareUpdate':
      return [bareRequest(spec.kind)];
    case 'deposit':
      return depositRequests(spec.players!, spec.runId, counter);
    case 'wallet':
      return [walletRequest(spec.players!, counter)];
    case 'rounds':
      return [roundRequest(spec.sessions!, spec.runId, counter)];
    case 'provider':
      return providerRequests(spec.providerSessions!, spec.provider!, spec.runId, counter);
    case 'hub88':
      return hub88Requests(spec.hub88Sessions!, spec.hub88!, spec.runId, counter, spec.hub88!.presignedRounds);
    default:
      if (!spec.creds) throw new Error(`${spec.name}: credentials required`);
      return [spec.kind === 'me' ? meRequest(spec.creds) : createPlayerRequest(spec.creds, spec.runId, counter, spec.cpfBase, spec.withLimits)];
  }
}

async function run(spec: LoadSpec): Promise<LoadSummary> {
  // One counter across warm-up and measured run: every POST is a new player and a new key.
  const counter = { n: 0 };
  const requests = requestsFor(spec, counter);
  const rate = spec.overallRate;
  const once = async (duration: number): Promise<RunFigures> =>
    rate
      ? pacedRun(spec.url, spec.connections, duration, rate, requests)
      : figures(await autocannon({ url: spec.url, connections: spec.connections, duration, timeout: 10, requests }));
  const warmup = spec.warmupSec > 0 ? await once(spec.warmupSec) : null;
  const measured = await once(spec.durationSec);
  return { name: spec.name, kind: spec.kind, connections: spec.connections, durationSec: spec.durationSec, ...measured, warmup };
}

process.on('message', (msg: { type?: string; spec?: LoadSpec }) => {
  if (msg?.type !== 'run' || !msg.spec) return;
  run(msg.spec).then(
    (summary) => process.send!({ type: 'result', summary }, () => process.exit(0)),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
});
process.send!({ type: 'ready' });
