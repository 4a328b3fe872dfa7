// The whole system as real processes (gateway + every service), on a fresh database and NATS
// prefix, for end-to-end tests. Processes can be killed and restarted to test crashes.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';
import { OperatorClient, type ClientResponse, type CreatedOperator } from '@bo/contracts';
import { cleanupNatsPrefix, createTestDatabase, notePhase, serviceEntry, testPrefix, waitFor, type TestDatabase } from '@bo/service-kit/testing';
import { infrastructure } from './infrastructure.ts';
import { freePortBlock } from '../../../scripts/local-infra.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');
export const COMPONENTS = ['players', 'wallet', 'payments', 'webhooks', 'operators', 'compliance', 'gateway'] as const;
export type Component = (typeof COMPONENTS)[number];
export const ADMIN_TOKEN = 'e2e-admin-token-0123456789abcdef';

/**
 * A port for a process of the stack to listen on, below the kernel's ephemeral range: a port the
 * kernel handed out (listen on 0) can be taken by a busy machine's outgoing connection before the
 * process binds it (a gateway that failed to start with EADDRINUSE, seen under load).
 */
const freePort = (): Promise<number> => freePortBlock(1);

export interface Stack {
  publicUrl: string;
  adminUrl: string;
  db: TestDatabase;
  prefix: string;
  env: Record<string, string>;
  logs: Map<Component, string[]>;
  start(c: Component, extraEnv?: Record<string, string>): Promise<ChildProcess>;
  kill(c: Component, signal?: NodeJS.Signals): Promise<void>;
  /** Resolves when the process exits by itself (e.g. at a crash point). */
  exited(c: Component): Promise<number | null>;
  waitReady(): Promise<void>;
  /** A second gateway process on the same database and NATS (another replica); its public URL. Stopped by close(). */
  startGatewayReplica(): Promise<string>;
  /**
   * The admin API with the bootstrap token; `actor` labels the stand-in person acting (X-Admin-Actor:
   * letters, digits, `.`, `_`, `-`; the audit names it `stand-in:<label>`, never a team member).
   */
  admin(method: string, p: string, body?: unknown, actor?: string): Promise<{ status: number; body: any }>;
  createOperator(name?: string): Promise<CreatedOperator & { sandboxClient: OperatorClient; productionClient: OperatorClient }>;
  /**
   * A webhook URL set by the admin API reaches the webhooks service as an endpoint event (a moment
   * on a busy machine): sends test webhooks until one is not 409 WEBHOOK_NOT_CONFIGURED, and
   * answers the first such reply. On a timeout it prints what the event's path looked like.
   */
  firstTestWebhook(client: OperatorClient): Promise<ClientResponse>;
  close(): Promise<void>;
}

export interface StackOptions {
  /** The DATABASE_URL a component is given, from the test database's (e.g. through a proxy the test can cut). */
  databaseUrlOf?: (c: Component, url: string) => string;
  /** More environment for one component (e.g. its METRICS_PORT). */
  envOf?: (c: Component) => Record<string, string>;
  /**
   * A database of the caller's instead of a new test database, and a NATS prefix of the caller's
   * instead of a new one: close() then leaves both (the restore drill starts the system again on a
   * restored copy of the database, with the same JetStream streams).
   */
  database?: TestDatabase;
  prefix?: string;
}

export async function startStack(
  extraEnv: Record<string, string> = {},
  components: readonly Component[] = COMPONENTS,
  opts: StackOptions = {},
): Promise<Stack> {
  const infra = await infrastructure();
  const startedAt = performance.now();
  const db = opts.database ?? (await createTestDatabase('e2e'));
  const prefix = opts.prefix ?? testPrefix('e2e');
  const [port, adminPort] = [await freePort(), await freePort()];
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/tmp',
    ...(process.env.NODE_COMPILE_CACHE ? { NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE } : {}),
    DATABASE_URL: db.url,
    NATS_URL: infra.natsUrl,
    NATS_PREFIX: prefix,
    PORT: String(port),
    ADMIN_PORT: String(adminPort),
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    ADMIN_TOKEN,
    SECRETS_MASTER_KEY: 'e2e-master-key-0123456789abcdef',
    GAME_LAUNCH_SECRET: 'e2e-game-launch-secret-0123456789',
    LEDGER_CURSOR_SECRET: 'e2e-cursor-secret-0123456789abcdef',
    WEBHOOK_ALLOW_HTTP: '1',
    WEBHOOK_ALLOW_PRIVATE: '1',
    WEBHOOK_RETRY_SCHEDULE_MS: '50,100,150,200,250,300,350',
    // A ceiling no answer of a busy machine reaches (3 s was: under load a call between the processes
    // answered 503 and a browser test read an error page; issue #71). A process that is down still answers
    // at once (no responders), and a database cut refuses at once: those tests keep their pace.
    RPC_TIMEOUT_MS: '30000',
    OUTBOX_POLL_MS: '50',
    LOG_LEVEL: 'warn',
    ...extraEnv,
  };
  const procs = new Map<Component, ChildProcess>();
  const exits = new Map<Component, Promise<number | null>>();
  const logs = new Map<Component, string[]>();

  const replicas: { child: ChildProcess; exit: Promise<number | null> }[] = [];
  const spawnComponent = (c: Component, more: Record<string, string>): ChildProcess => {
    const child = spawn(process.execPath, [serviceEntry(path.join(ROOT, `services/${c}/src/main.ts`))], {
      cwd: ROOT,
      env: { ...env, ...more },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const lines = logs.get(c) ?? [];
    logs.set(c, lines);
    const keep = (d: Buffer) => {
      lines.push(...d.toString().split('\n').filter(Boolean));
      if (lines.length > 500) lines.splice(0, lines.length - 500);
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    return child;
  };

  const stack: Stack = {
    publicUrl: `http://127.0.0.1:${port}`,
    adminUrl: `http://127.0.0.1:${adminPort}`,
    db,
    prefix,
    env,
    logs,
    async start(c, more = {}) {
      const databaseUrl = opts.databaseUrlOf?.(c, env.DATABASE_URL!);
      const child = spawnComponent(c, { ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}), ...opts.envOf?.(c), ...more });
      procs.set(c, child);
      exits.set(c, new Promise((r) => child.once('exit', (code) => r(code))));
      return child;
    },
    async startGatewayReplica() {
      const replicaPort = await freePort();
      const child = spawnComponent('gateway', { PORT: String(replicaPort), ADMIN_PORT: String(await freePort()) });
      replicas.push({ child, exit: new Promise((r) => child.once('exit', (code) => r(code))) });
      const url = `http://127.0.0.1:${replicaPort}`;
      await waitFor(async () => (await fetch(`${url}/readyz`).catch(() => undefined))?.ok, {
        timeoutMs: 120_000,
        intervalMs: 100,
        what: 'the gateway replica',
      });
      return url;
    },
    async kill(c, signal = 'SIGKILL') {
      const child = procs.get(c);
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      child.kill(signal);
      await exits.get(c);
    },
    exited: (c) => exits.get(c) ?? Promise.resolve(null),
    async waitReady() {
      await waitFor(
        async () => {
          const res = await fetch(`${stack.publicUrl}/readyz`).catch(() => undefined);
          if (!res) return false;
          const body = (await res.json()) as { checks: Record<string, boolean> };
          // Ready when every started component answers (a test may run a subset).
          return components.filter((c) => c !== 'gateway').every((c) => body.checks[c]);
        },
        // E2E_READY_TIMEOUT_MS: a machine shared with other suites may start the processes slower.
        { timeoutMs: Number(process.env.E2E_READY_TIMEOUT_MS ?? 120_000), intervalMs: 100, what: 'the stack to be ready' },
      );
    },
    async admin(method, p, body, actor) {
      const res = await fetch(`${stack.adminUrl}${p}`, {
        method,
        headers: {
          authorization: `Bearer ${ADMIN_TOKEN}`,
          ...(actor ? { 'x-admin-actor': actor } : {}),
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        body: body !== undefined ? JSON.stringify(body) : undefined,
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    },
    async createOperator(name = 'E2E Operator') {
      const res = await stack.admin('POST', '/admin/operators', { name });
      if (res.status !== 201) throw new Error(`operator creation failed: ${res.status} ${JSON.stringify(res.body)}`);
      const op = res.body as CreatedOperator;
      const client = (c: { key: string; secret: string }) => new OperatorClient({ baseUrl: `${stack.publicUrl}/api/v1`, key: c.key, secret: c.secret });
      return { ...op, sandboxClient: client(op.sandbox), productionClient: client(op.production) };
    },
    async firstTestWebhook(client) {
      try {
        return await waitFor(
          async () => {
            const r = await client.post('/webhooks/test');
            return r.status === 409 && r.body?.error?.code === 'WEBHOOK_NOT_CONFIGURED' ? undefined : r;
          },
          { timeoutMs: 60_000, intervalMs: 100, what: 'the webhook endpoint' },
        );
      } catch (e) {
        const sql = new pg.Client({ connectionString: db.url });
        await sql.connect();
        const outbox = await sql.query('select event_id, subject_type, created_at, published_at from operators.outbox order by seq');
        const endpoints = await sql.query('select operator_id, environment, url is not null as has_url, version from webhooks.endpoints');
        await sql.end();
        console.error('gateway outbox', JSON.stringify(outbox.rows), '\nwebhooks endpoints', JSON.stringify(endpoints.rows));
        for (const c of ['gateway', 'webhooks'] as const) console.error(`--- ${c}\n${(logs.get(c) ?? []).slice(-40).join('\n')}`);
        throw e;
      }
    },
    async close() {
      for (const r of replicas) if (r.child.exitCode === null && r.child.signalCode === null) r.child.kill('SIGTERM');
      await Promise.all([...procs.keys()].map((c) => stack.kill(c, 'SIGTERM')));
      await Promise.all(replicas.map((r) => r.exit));
      if (!opts.prefix) await cleanupNatsPrefix(prefix);
      if (!opts.database) await db.drop();
    },
  };
  // Services first: each runs its own migrations; then the gateway.
  for (const c of components) await stack.start(c);
  try {
    await stack.waitReady();
  } catch (e) {
    for (const [c, lines] of logs) console.error(`--- ${c}\n${lines.slice(-30).join('\n')}`);
    await stack.close();
    throw e;
  }
  notePhase('system start', performance.now() - startedAt);
  return stack;
}

/**
 * The registration data br-spa requires beyond name, e-mail, CPF, birth date and the limits (phone,
 * gender, sign-up IP, address: Portaria 1.231/2024 art. 31 as amended; issue #60). Valid under any profile.
 */
export const REGISTRATION_DATA = {
  phone: '+5511987654321',
  gender: 'feminino',
  signupIp: '198.51.100.7',
  address: { street: 'Rua Augusta', number: '1500', district: 'Consolação', city: 'São Paulo', state: 'SP', postalCode: '01304-001' },
} as const;

/** A valid player's registration (a CPF with its check digits), with the data br-spa requires but the limits. */
export const playerInput = (externalId: string) => ({
  externalId,
  name: 'Ana Souza',
  email: 'ana@example.com',
  cpf: '529.982.247-25',
  birthDate: '1990-05-17',
  ...REGISTRATION_DATA,
});

export const uniq = (label: string) => `${label}-${Math.random().toString(36).slice(2, 10)}`;
