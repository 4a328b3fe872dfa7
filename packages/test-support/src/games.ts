// Test stack for the games module: a fresh database and NATS prefix, the real players service and
// the real wallet service (ledger + games) started in-process, helpers that make players in a
// given state over NATS, and small HTTP servers that play an external game provider.
import http from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { randomInt } from 'node:crypto';
import type { Test } from 'tap';
import { requestOperation, type OperationReply, type OperatorScope, type Scope, type KycStatus, type PlayerStatus } from '@bo/contracts';
import { loadConfig, startService, type RunningService, type ServiceDefinition } from '@bo/service-kit';
import { cleanupNatsPrefix, createTestDatabase, randomCpf, testNatsUrl, testPrefix, type TestDatabase } from '@bo/service-kit/testing';
import type { LedgerVerification } from '@bo/contracts';
import type { TObject } from '@sinclair/typebox';
import { adminScope } from './scopes.ts';
import { BR_SPA_REGISTRATION, type PlayerSetup } from './players.ts';

export const LAUNCH_SECRET = 'test-launch-secret-0123456789abcdef';

export const scopes = {
  sandbox: { kind: 'operator', operatorId: 'op_A', brandId: 'brd_A_sandbox', environment: 'sandbox', currency: 'BRL' } as OperatorScope,
  production: { kind: 'operator', operatorId: 'op_A', brandId: 'brd_A_live', environment: 'production', currency: 'BRL' } as OperatorScope,
  otherBrand: { kind: 'operator', operatorId: 'op_B', brandId: 'brd_B_sandbox', environment: 'sandbox', currency: 'BRL' } as OperatorScope,
};
export const gatewayScope: Scope = { kind: 'internal', service: 'gateway' };
export const paymentsScope: Scope = { kind: 'internal', service: 'payments' };

export interface GamesStack {
  db: TestDatabase;
  prefix: string;
  players: RunningService;
  wallet: RunningService;
  call(
    subject: string,
    scope: Scope,
    part?: { params?: Record<string, string>; query?: Record<string, unknown>; body?: unknown },
  ): Promise<OperationReply<any>>;
  /** `incomplete`: without the registration data br-spa requires beyond the limits (BR_SPA_REGISTRATION); `limits` sent with the registration. */
  createPlayer(
    scope: OperatorScope,
    state?: { kyc?: KycStatus; status?: PlayerStatus; selfExcludedUntil?: string; incomplete?: boolean; limits?: PlayerSetup['limits'] },
  ): Promise<string>;
  /** Opens a session and returns its body (fails the test if it is not 201). */
  openSession(
    t: Test,
    scope: OperatorScope,
    playerId: string,
    gameId: string,
  ): Promise<{ id: string; gameUrl: string; mode: string; expiresAt: string; createdAt: string }>;
  sql<T = any>(query: string, params?: unknown[]): Promise<T[]>;
  /** Real money for a player, as payments' deposit confirm would credit it. */
  credit(scope: OperatorScope, playerId: string, amount: string): Promise<void>;
  /** A withdrawal's reservation, as payments' withdrawal request would make it; returns its id. */
  hold(scope: OperatorScope, playerId: string, amount: string): Promise<string>;
  verifyLedger(): Promise<LedgerVerification>;
}

/** A random source that plays the given numbers first, then crypto random. */
export function scriptedRng(): Rng & { push(...values: number[]): void } {
  const queue: number[] = [];
  return {
    push: (...values) => {
      queue.push(...values);
    },
    int: (min, max) => {
      const v = queue.shift();
      if (v === undefined) return randomInt(min, max);
      if (v < min || v >= max) throw new Error(`scripted ${v} outside [${min}, ${max})`);
      return v;
    },
  };
}

/** The games module's random source (the wallet's `Rng`). */
export interface Rng {
  int(minInclusive: number, maxExclusive: number): number;
}

/** The services a games stack runs, from their packages (`gamesServicesWith`). */
export interface GamesServices {
  players: { service: ServiceDefinition<any, any>; config: TObject };
  /** The wallet; with `rng`, its games module draws from it. */
  wallet(rng?: Rng): { service: ServiceDefinition<any, any>; config: TObject };
}

/**
 * Starts players + wallet with the games settings in `env` (as the environment gives them: strings,
 * converted and checked by the wallet's schema) and tears everything down with the test.
 */
export async function startGamesStack(
  t: Test,
  services: GamesServices,
  env: Record<string, string> = {},
  opts: { prefix?: string; rng?: Rng } = {},
): Promise<GamesStack> {
  const db = await createTestDatabase('games');
  const prefix = opts.prefix ?? testPrefix('games');
  // As the environment gives them: strings, converted and checked by the schemas. The services' deadline
  // for each other is a ceiling no answer of a busy machine reaches (3 s was: 40 rounds at once on one
  // session, each asking the players service, answered SERVICE_UNAVAILABLE under load; issue #71); a
  // service that is not running still answers at once (no responders).
  const env0 = {
    DATABASE_URL: db.url,
    NATS_URL: testNatsUrl(),
    NATS_PREFIX: prefix,
    RPC_TIMEOUT_MS: '30000',
    OUTBOX_POLL_MS: '50',
    OUTBOX_IDLE_POLL_MS: '1000',
  };
  const players = await startService(services.players.service, loadConfig(services.players.config, env0));
  const w = services.wallet(opts.rng);
  const wallet: RunningService = await startService(
    w.service,
    loadConfig(w.config, { ...env0, GAME_LAUNCH_SECRET: LAUNCH_SECRET, PUBLIC_BASE_URL: 'http://games.test:3000', ...env }),
  );
  t.teardown(async () => {
    await wallet.stop();
    await players.stop();
    await cleanupNatsPrefix(prefix);
    await db.drop();
  });

  let seq = 0;
  const stack: GamesStack = {
    db,
    prefix,
    players,
    wallet,
    call: (subject, scope, part = {}) =>
      requestOperation(
        wallet.nc,
        subject,
        {
          ctx: { requestId: `req_test_${++seq}`, scope, ...(scope.kind === 'operator' ? { idempotencyKey: `test-key-${prefix}-${seq}` } : {}) },
          params: part.params ?? {},
          query: part.query ?? {},
          body: part.body ?? {},
        },
        // Generous: a test waits for its answer, and a busy machine (40 clicks on one player's row) may take more than 10 s.
        { prefix, timeoutMs: 30_000 },
      ),
    async createPlayer(scope, state = {}) {
      const n = ++seq;
      const created = await stack.call('players.create', scope, {
        body: {
          externalId: `ext-${n}`,
          name: `Player ${n}`,
          email: `p${n}@example.com`,
          cpf: randomCpf(),
          birthDate: '1990-01-15',
          ...(state.incomplete ? {} : BR_SPA_REGISTRATION),
          ...(state.limits ? { limits: state.limits } : {}),
        },
      });
      if (!created.ok) throw new Error(`players.create: ${JSON.stringify(created)}`);
      const id = created.body.id as string;
      const must = async (subject: string, body: unknown) => {
        const r = await stack.call(subject, adminScope, { params: { id }, body });
        if (!r.ok) throw new Error(`${subject}: ${JSON.stringify(r)}`);
      };
      if (state.kyc && state.kyc !== 'nao_iniciado') await must('players.admin.kycDecision', { status: state.kyc });
      if (state.selfExcludedUntil) await must('players.admin.limits', { dailyDepositLimit: null, selfExcludedUntil: state.selfExcludedUntil });
      if (state.status && state.status !== 'ativo') await must('players.admin.status', { status: state.status });
      return id;
    },
    async openSession(t, scope, playerId, gameId) {
      const r = await stack.call('games.sessions.create', scope, { params: { playerId }, body: { gameId } });
      if (!r.ok || r.status !== 201) t.fail(`session not opened: ${JSON.stringify(r)}`);
      return (r as any).body;
    },
    sql: <T>(query: string, params: unknown[] = []) => wallet.sql.query(query, params) as Promise<T[]>,
    async credit(scope, playerId, amount) {
      const r = await stack.call('wallet.credit', paymentsScope, {
        body: { brandId: scope.brandId, playerId, currency: scope.currency, amount, depositId: `dep_test_${++seq}` },
      });
      if (!r.ok) throw new Error(`wallet.credit: ${JSON.stringify(r)}`);
    },
    async hold(scope, playerId, amount) {
      const withdrawalId = `wd_test_${++seq}`;
      const r = await stack.call('wallet.hold', paymentsScope, { body: { brandId: scope.brandId, playerId, currency: scope.currency, amount, withdrawalId } });
      if (!r.ok) throw new Error(`wallet.hold: ${JSON.stringify(r)}`);
      return withdrawalId;
    },
    async verifyLedger() {
      const r = await stack.call('wallet.admin.verifyLedger', adminScope);
      if (!r.ok) throw new Error(`verifyLedger: ${JSON.stringify(r)}`);
      return r.body as LedgerVerification;
    },
  };
  return stack;
}

/** The token part of a gameUrl. */
export function tokenOf(gameUrl: string): string {
  return new URL(gameUrl).pathname.split('/').pop()!;
}

export interface FakeProvider {
  url: string;
  requests: Array<{ path: string; body: any }>;
  close(): Promise<void>;
}

/** An external provider that answers each launch with a page URL of its own, or hangs. */
export async function startFakeProvider(t: Test, behaviour: 'answer' | 'hang' | 'error' = 'answer'): Promise<FakeProvider> {
  const requests: FakeProvider['requests'] = [];
  const hanging: http.ServerResponse[] = [];
  const server = http.createServer(async (req, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const body = raw ? JSON.parse(raw) : undefined;
    requests.push({ path: req.url ?? '', body });
    if (behaviour === 'hang') {
      hanging.push(res);
      return;
    }
    if (behaviour === 'error') {
      res.writeHead(500).end('boom');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ url: `https://provider.example/tables/${body.sessionId}?lang=pt` }));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = async () => {
    for (const r of hanging) r.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  t.teardown(close);
  return { url, requests, close };
}

/** A local port nobody listens on: bound, noted, released. */
export async function deadPort(): Promise<number> {
  const server = http.createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
