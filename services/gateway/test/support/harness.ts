// Starts gateway replicas on a fresh database and NATS prefix, with the operators service they ask
// (in-process) and a stand-in of the players service's compliance profile (GET /me), and helpers for the admin API and signed operator clients. Removes everything in
// teardown.
import {
  COMPLIANCE_DEFAULTS,
  OPERATOR_COMPLIANCE_SUBJECT,
  OperatorClient,
  queueGroup,
  rpcSubject,
  type CreatedOperator,
  type OperationReply,
} from '@bo/contracts';
import {
  AnswerStore,
  processedRequestsClaimsSql,
  processedRequestsFingerprintSql,
  processedRequestsKeepTextSql,
  processedRequestsTableSql,
  startService,
  type RunningService,
} from '@bo/service-kit';
import type { NatsConnection } from '@nats-io/transport-node';
import { createTestDatabase, testNatsUrl, testPrefix, cleanupNatsPrefix, type TestDatabase } from '@bo/service-kit/testing';
import { loadOperatorsConfig, operatorsServiceWith } from '@bo/operators';
import { startGateway, type RunningGateway } from '../../src/gateway.ts';
import { loadGatewayConfig, type GatewayConfig } from '../../src/config.ts';

export const ADMIN_TOKEN = 'test-admin-token-0123456789';

export interface Harness {
  db: TestDatabase;
  prefix: string;
  gateways: RunningGateway[];
  /** The operators service the replicas ask (operators, keys, team, sessions, audit log). */
  operators: RunningService;
  config: GatewayConfig;
  startReplica(overrides?: Record<string, string>): Promise<RunningGateway>;
  admin(method: string, path: string, body?: unknown, gw?: RunningGateway): Promise<{ status: number; body: any; headers: Headers }>;
  createOperator(input?: {
    name?: string;
    rateLimitPerMinute?: number;
  }): Promise<CreatedOperator & { sandboxClient: OperatorClient; productionClient: OperatorClient }>;
  clientFor(creds: { key: string; secret: string }, gw?: RunningGateway): OperatorClient;
  /** The stored answers of the stand-in services (fake-service.ts), one store for all of them, in the schema `stand_ins`. */
  answers(): Promise<AnswerStore>;
  close(): Promise<void>;
}

/**
 * GET /me asks the players service for the operator's compliance profile: a stand-in answers what it
 * answers for an operator our team never set (the defaults), on `nc` until it closes.
 */
export function answerComplianceProfiles(nc: NatsConnection, prefix: string): void {
  nc.subscribe(rpcSubject(prefix, OPERATOR_COMPLIANCE_SUBJECT), {
    queue: queueGroup('players'),
    callback: (_err, msg) => {
      const { operatorId } = msg.json<{ body: { operatorId: string } }>().body;
      const body = { operatorId, ...COMPLIANCE_DEFAULTS, selfExclusionPlatformUrl: null, updatedAt: null, updatedBy: null };
      msg.respond(JSON.stringify({ ok: true, status: 200, body } satisfies OperationReply));
    },
  });
}

/** `now`: the gateway's clock of the key rules, for every replica (a test moves it past a key's end). */
export async function startHarness(env: Record<string, string> = {}, opts: { db?: TestDatabase; prefix?: string; now?: () => number } = {}): Promise<Harness> {
  const db = opts.db ?? (await createTestDatabase('gw'));
  const prefix = opts.prefix ?? testPrefix('gw');
  const baseEnv = {
    DATABASE_URL: db.url,
    NATS_URL: testNatsUrl(),
    NATS_PREFIX: prefix,
    PORT: '0',
    ADMIN_PORT: '0',
    ADMIN_TOKEN,
    // A deadline far above what a busy machine needs (a ceiling, not a pace): a test of a timeout
    // sets its own, short, for an answer that never comes.
    RPC_TIMEOUT_MS: '30000',
    LOG_LEVEL: 'warn',
    ...env,
  };
  const config = loadGatewayConfig(baseEnv);
  const operators = await startService(operatorsServiceWith({ now: opts.now }), loadOperatorsConfig(baseEnv));
  answerComplianceProfiles(operators.nc, prefix);
  const gateways: RunningGateway[] = [];
  let answers: Promise<AnswerStore> | undefined;
  const h: Harness = {
    db,
    prefix,
    gateways,
    operators,
    config,
    async startReplica(overrides = {}) {
      const gw = await startGateway(loadGatewayConfig({ ...baseEnv, ...overrides }), { now: opts.now });
      gateways.push(gw);
      return gw;
    },
    async admin(method, path, body, gw = gateways[0]) {
      const res = await fetch(`${gw!.adminUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        body: body !== undefined ? JSON.stringify(body) : undefined,
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
    },
    clientFor(creds, gw = gateways[0]) {
      return new OperatorClient({ baseUrl: `${gw!.publicUrl}/api/v1`, key: creds.key, secret: creds.secret });
    },
    async createOperator(input = {}) {
      const res = await h.admin('POST', '/admin/operators', {
        name: input.name ?? 'Acme Bets',
        ...(input.rateLimitPerMinute ? { rateLimitPerMinute: input.rateLimitPerMinute } : {}),
      });
      if (res.status !== 201) throw new Error(`operator creation failed: ${res.status} ${JSON.stringify(res.body)}`);
      const created = res.body as CreatedOperator;
      return { ...created, sandboxClient: h.clientFor(created.sandbox), productionClient: h.clientFor(created.production) };
    },
    answers() {
      answers ??= (async () => {
        await operators.sql.query('create schema if not exists stand_ins');
        for (const text of [processedRequestsTableSql, processedRequestsKeepTextSql, processedRequestsFingerprintSql, processedRequestsClaimsSql]) {
          await operators.sql.query(text('stand_ins'));
        }
        return new AnswerStore({
          sql: operators.sql,
          schema: 'stand_ins',
          ttlSeconds: config.IDEMPOTENCY_TTL_SECONDS,
          leaseSeconds: config.IDEMPOTENCY_LEASE_SECONDS,
          sealAdminAnswersWith: config.SECRETS_MASTER_KEY,
          onError: () => undefined,
        });
      })();
      return answers;
    },
    async close() {
      for (const gw of gateways) await gw.stop();
      await operators.stop();
      if (!opts.prefix) await cleanupNatsPrefix(prefix);
      if (!opts.db) await db.drop();
    },
  };
  await h.startReplica();
  return h;
}
