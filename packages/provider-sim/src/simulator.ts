// A run of the simulator: providers set up (registered by our team's token, or given by key),
// N sessions of players each registered, funded and launched by the operator, played by the
// casino or the sportsbook scenarios, `concurrency` at a time; the sports bets settled after every
// session; then each player's wallet compared with the book and the ledger verified.
import type { ProviderKind } from '@bo/contracts';
import { AdminSide, type SimProvider } from './admin-side.ts';
import { Book, type Accepted, type Counts } from './book.ts';
import { playSessions } from './connector-run.ts';
import { startLaunchServer, type LaunchServer } from './launch-server.ts';
import { toCents } from './money.ts';
import { OperatorSide } from './operator-side.ts';
import { PlayerSession } from './player-session.ts';
import { ProviderClient } from './provider-client.ts';
import type { RetryPolicy } from './retry.ts';
import { casinoSession, providerFunded, sportsSession, type ExpireSession } from './scenarios.ts';
import { reconcilePlantedStatement, type StatementCheck } from './statement.ts';

export interface SimulationOptions {
  /** The gateway's public URL (http://host:port): /api/v1 and /provider/v1. */
  gatewayUrl: string;
  operator: { key: string; secret: string };
  /** Our team's admin API: registers the simulated providers (unless `providers`) and verifies the ledger. */
  admin?: { url: string; token: string };
  /** Providers already registered (their key and secret, games), instead of registering new ones. */
  providers?: SimProvider[];
  /** The launch endpoint the providers' launchUrl points at (default: one started here on 127.0.0.1). */
  launch?: LaunchServer;
  sessions: number;
  concurrency: number;
  /** Rounds of bet + win per casino session before the other scenarios. */
  rounds: number;
  /** Each player's deposit. */
  funds: string;
  /** Every how many sessions one is a sportsbook's (when there is a sportsbook provider). */
  sportsEvery: number;
  /** How long a call is retried with the same id until it gets a final answer (ms). */
  retryDeadlineMs: number;
  /** The provider client's timeout per attempt (ms). */
  timeoutMs: number;
  /** Ends a session now (tests); without it a session that ends within `maxExpiryWaitMs` is waited for, others skip that scenario. */
  expireSession?: ExpireSession;
  maxExpiryWaitMs: number;
  /** Issue #59 item 1: each casino session also plays free bets, a promotional credit, a jackpot contribution and win (not under br-spa). */
  providerFunded?: boolean;
  /** Issue #59 item 2: at the end, the casino provider's daily statement with planted differences, reconciled on the admin API. */
  statement?: boolean;
  log?: (line: string) => void;
}

export interface SimulationSummary {
  providers: Array<{ providerId: string; kind: ProviderKind }>;
  sessions: { casino: number; sportsbook: number };
  players: number;
  counts: Counts;
  /** Players whose wallet (available − held) is not what the book says. */
  balanceMismatches: string[];
  ledger: { verified: boolean; ok?: boolean; mismatches?: number };
  problems: string[];
  skipped: string[];
  /** Every provider transaction accepted (the e2e test checks each in the database). */
  transactions: Accepted[];
  /** Each player's deposit and what the book says their balance is. */
  balances: Record<string, { funded: string; expected: string }>;
  /** With `statement`: what reconciliation found against what was planted. */
  statement?: StatementCheck;
}

export const DEFAULTS = {
  sessions: 6,
  concurrency: 3,
  rounds: 5,
  funds: '100.00',
  sportsEvery: 3,
  retryDeadlineMs: 120_000,
  timeoutMs: 3000,
  maxExpiryWaitMs: 5000,
} as const;

/** Waits for the launch's expiry when it is near enough; otherwise the scenario is skipped. */
const waitForExpiry =
  (maxMs: number): ExpireSession =>
  async (s) => {
    const wait = new Date(s.launch.expiresAt).getTime() - Date.now() + 1000;
    if (wait > maxMs) return false;
    await new Promise((r) => setTimeout(r, Math.max(0, wait)));
    return true;
  };

export async function runSimulation(opts: SimulationOptions): Promise<SimulationSummary> {
  const log = opts.log ?? (() => undefined);
  const book = new Book();
  const retry: RetryPolicy = {
    deadlineMs: opts.retryDeadlineMs,
    onRetry: () => book.counts.retries++,
    onServerError: (_what, status, retryAfter, code) => {
      const k = `${status} ${code ?? ''}${status === 503 && !retryAfter ? ' (no Retry-After)' : ''}`.trim();
      book.counts.serverErrors[k] = (book.counts.serverErrors[k] ?? 0) + 1;
    },
  };
  const operator = new OperatorSide({ baseUrl: opts.gatewayUrl, ...opts.operator, retry });
  const admin = opts.admin ? new AdminSide({ ...opts.admin, retry }) : undefined;
  const launch = opts.launch ?? (await startLaunchServer());
  try {
    let providers = opts.providers;
    if (!providers) {
      if (!admin) throw new Error('Either providers (key, secret, games) or the admin API is needed.');
      const me = await operator.me();
      const environment = me.environment === 'production' ? 'production' : 'sandbox';
      const stamp = new Date().toISOString().slice(0, 19);
      providers = [];
      for (const kind of ['casino', 'sportsbook'] as const)
        providers.push(
          await admin.registerProvider({
            name: `Simulated ${kind === 'casino' ? 'aggregator' : 'sportsbook'} ${stamp} ${Math.random().toString(36).slice(2, 6)}`,
            kind,
            launchUrl: launch.url,
            operatorId: me.operatorId,
            environment,
          }),
        );
      log(`registered ${providers.map((p) => `${p.kind} ${p.providerId}`).join(', ')} (launch at ${launch.url})`);
    }
    const casino = providers.find((p) => p.kind === 'casino');
    const sportsbook = providers.find((p) => p.kind === 'sportsbook');
    const clients = new Map(
      providers.map((p) => [p.providerId, new ProviderClient({ baseUrl: opts.gatewayUrl, key: p.key, secret: p.secret, timeoutMs: opts.timeoutMs })]),
    );
    const expire = opts.expireSession ?? waitForExpiry(opts.maxExpiryWaitMs);
    const funded = new Map<string, string>();
    const settlements: Array<() => Promise<void>> = [];
    const sessions = { casino: 0, sportsbook: 0 };

    const play = async (n: number) => {
      const provider = sportsbook && (!casino || n % opts.sportsEvery === opts.sportsEvery - 1) ? sportsbook : casino!;
      const game = provider.games[n % provider.games.length]!;
      const playerId = await operator.fundedPlayer(`${provider.kind}-${n}`, opts.funds);
      book.fund(playerId, opts.funds);
      funded.set(playerId, opts.funds);
      const { sessionId } = await operator.openSession(playerId, game.id);
      const l = launch.launches.get(sessionId);
      if (!l) throw new Error(`session ${sessionId} was opened without a launch at the provider`);
      const s = new PlayerSession({ book, provider, game, launch: l, client: clients.get(provider.providerId)!, retry });
      if (provider.kind === 'sportsbook') {
        sessions.sportsbook++;
        settlements.push(await sportsSession(s, n));
      } else {
        sessions.casino++;
        // Before the casino scenarios, the last of which ends the session.
        if (opts.providerFunded) await providerFunded(s);
        await casinoSession(s, { rounds: opts.rounds, seed: n, expire });
      }
    };
    await playSessions(opts.sessions, opts.concurrency, play);
    log(`${opts.sessions} sessions played; settling ${settlements.length} sportsbook sessions' open bets`);
    // Sports bets settle later: after the sessions ended (their settlement needs no live session).
    for (const settle of settlements) await settle();

    const balanceMismatches: string[] = [];
    for (const playerId of funded.keys()) {
      // No withdrawal holds anything of these players: available is what a bet can take.
      const { available } = await operator.wallet(playerId);
      if (toCents(available) !== toCents(book.expected(playerId)))
        balanceMismatches.push(`${playerId}: wallet ${available}, expected ${book.expected(playerId)}`);
    }
    let statement: StatementCheck | undefined;
    if (opts.statement && admin && casino) {
      const me = await operator.me();
      const date = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date());
      statement = await reconcilePlantedStatement(
        admin,
        clients.get(casino.providerId)!,
        casino.providerId,
        date,
        me.environment === 'production' ? 'production' : 'sandbox',
      );
      log(`statement of ${date}: ${statement.lines} lines, ${statement.matched} matched; planted differences found exactly: ${statement.exact}`);
      if (!statement.exact) book.problem(`statement: planted ${JSON.stringify(statement.planted)}, found ${JSON.stringify(statement.found)}`);
    }
    let ledger: SimulationSummary['ledger'] = { verified: false };
    if (admin) {
      const v = await admin.verifyLedger();
      ledger = { verified: true, ok: v.ok, mismatches: v.mismatches.length };
      if (!v.ok) book.problem(`ledger verify: ${JSON.stringify(v.mismatches).slice(0, 500)}`);
    }
    return {
      providers: providers.map((p) => ({ providerId: p.providerId, kind: p.kind })),
      sessions,
      players: funded.size,
      counts: book.counts,
      balanceMismatches,
      ledger,
      problems: [...book.problems, ...balanceMismatches.map((m) => `balance ${m}`)],
      skipped: book.skipped,
      transactions: [...book.accepted.values()],
      balances: Object.fromEntries([...funded].map(([p, f]) => [p, { funded: f, expected: book.expected(p) }])),
      ...(statement ? { statement } : {}),
    };
  } finally {
    if (!opts.launch) await launch.close();
  }
}
