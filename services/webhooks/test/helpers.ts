// Test helpers: a webhooks service on a fresh database and NATS prefix, real HTTP receivers on
// 127.0.0.1, events published to JetStream the way every service's outbox relay does.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHmac, randomBytes } from 'node:crypto';
import { headers as natsHeaders, type NatsConnection } from '@nats-io/transport-node';
import { jetstream } from '@nats-io/jetstream';
import {
  EVENT_HEADERS,
  WEBHOOK_SUBJECTS,
  eventSubject,
  newId,
  requestOperation,
  type DomainEvent,
  type Environment,
  type EventDataByType,
  type EventType,
  type OperationReply,
  type Scope,
  type UpsertEndpoint,
} from '@bo/contracts';
import pg from 'pg';
import { configOf, sqlOnPool, startService, type Logger, type RunningService, type Sql } from '@bo/service-kit';
import { cleanupNatsPrefix, createTestDatabase, testNatsUrl, testPrefix, waitFor } from '@bo/service-kit/testing';
import { WebhooksConfigSchema, webhooksService, type WebhooksConfig } from '../src/index.ts';
import type { EventToStore } from '../src/store/delivery-queue.ts';

export interface Stack {
  svc: RunningService;
  prefix: string;
  dbUrl: string;
  config: WebhooksConfig;
}

type Teardown = { teardown(fn: () => Promise<void> | void): void };

/** A started webhooks service with its own database and prefix, removed at teardown. */
export async function startStack(t: Teardown, overrides: Partial<WebhooksConfig> = {}, label = 'wh', opts: { log?: Logger } = {}): Promise<Stack> {
  const db = await createTestDatabase(label);
  const prefix = testPrefix(label);
  const config = configOf(WebhooksConfigSchema, {
    DATABASE_URL: db.url,
    NATS_URL: testNatsUrl(),
    NATS_PREFIX: prefix,
    WEBHOOK_RETRY_SCHEDULE_MS: '30,30,30,30,30,30,30',
    // A receiver's answer is waited for far longer than a busy machine needs (a normal answer cut at
    // the deadline would be an extra attempt); a test of a hanging receiver sets its own, short.
    WEBHOOK_TIMEOUT_MS: 30_000,
    WEBHOOK_POLL_MS: 50,
    WEBHOOK_LEASE_GRACE_MS: 500,
    ...overrides,
  });
  const svc = await startService(webhooksService, config, opts);
  t.teardown(async () => {
    await svc.stop();
    await cleanupNatsPrefix(prefix);
    await db.drop();
  });
  return { svc, prefix, dbUrl: db.url, config };
}

/** A confirmed deposit as a `deposit.confirmed` event carries it. */
export const depositData = (id: string) => ({
  id,
  playerId: 'plr_1',
  amount: '100.00',
  currency: 'BRL',
  method: 'pix',
  externalReference: `ref-${id}`,
  status: 'confirmed' as const,
  createdAt: '2026-11-21T10:00:00.000Z',
  updatedAt: '2026-11-21T10:00:01.000Z',
  confirmedAt: '2026-11-21T10:00:01.000Z',
  failedAt: null,
  failureReason: null,
});

export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

export const gatewayScope: Scope = { kind: 'internal', service: 'gateway' };
export const adminScope: Scope = { kind: 'admin', actor: 'ops@example.test' };
export function operatorScope(operatorId: string, environment: Environment, brandId = `brd_${operatorId}`): Scope {
  return { kind: 'operator', operatorId, brandId, environment, currency: 'BRL' };
}

export function call<R = unknown>(
  nc: NatsConnection,
  prefix: string,
  subject: string,
  scope: Scope,
  input: { body?: unknown; params?: Record<string, string>; query?: Record<string, unknown> } = {},
): Promise<OperationReply<R>> {
  return requestOperation<R>(
    nc,
    subject,
    {
      ctx: { requestId: newId('request'), scope },
      params: input.params ?? {},
      query: input.query ?? {},
      body: input.body ?? {},
    },
    { prefix, timeoutMs: 20_000 },
  );
}

export async function upsertEndpoint(stack: { svc: { nc: NatsConnection }; prefix: string }, body: UpsertEndpoint): Promise<OperationReply> {
  return call(stack.svc.nc, stack.prefix, WEBHOOK_SUBJECTS.upsertEndpoint, gatewayScope, { body });
}

/** Publishes an event exactly as the outbox relay does (body = webhook body, msgID = event id). */
export async function publishEvent<T extends EventType>(
  nc: NatsConnection,
  prefix: string,
  routing: { operatorId: string; brandId?: string; environment: Environment },
  type: T,
  data: EventDataByType[T],
  opts: { id?: string; msgId?: string } = {},
): Promise<{ event: DomainEvent<T>; raw: string }> {
  const event: DomainEvent<T> = { id: opts.id ?? newId('event'), type, createdAt: new Date().toISOString(), environment: routing.environment, data };
  const raw = JSON.stringify(event);
  const h = natsHeaders();
  h.set(EVENT_HEADERS.operatorId, routing.operatorId);
  h.set(EVENT_HEADERS.brandId, routing.brandId ?? `brd_${routing.operatorId}`);
  await jetstream(nc).publish(eventSubject(prefix, routing.environment, type), raw, { msgID: opts.msgId ?? event.id, headers: h });
  return { event, raw };
}

export interface ReceivedRequest {
  n: number;
  headers: http.IncomingHttpHeaders;
  raw: Buffer;
  webhookId: string;
  /** Verified independently of the service's code. */
  contractSignatureOk: boolean;
  standardSignatureOk: boolean;
}

export type Reply = number | { status: number; headers?: Record<string, string> } | 'hang';

export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  /** Requests whose response has not been sent yet (held by `hang`). */
  held(): number;
  maxConcurrent(): number;
  releaseAll(status?: number): void;
  waitForRequests(n: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

export function verifyContractSignature(secret: string, headers: http.IncomingHttpHeaders, raw: Buffer): boolean {
  const ts = String(headers['x-webhook-timestamp'] ?? '');
  const expected = createHmac('sha256', Buffer.from(secret, 'utf8'))
    .update(Buffer.concat([Buffer.from(`${ts}.`), raw]))
    .digest('hex');
  return /^\d+$/.test(ts) && headers['x-webhook-signature'] === expected;
}

export function verifyStandardSignature(secret: string, headers: http.IncomingHttpHeaders, raw: Buffer): boolean {
  const id = String(headers['webhook-id'] ?? '');
  const ts = String(headers['webhook-timestamp'] ?? '');
  const key = Buffer.from(secret.split('_')[1]!, 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${ts}.`).update(raw).digest('base64');
  const sigs = String(headers['webhook-signature'] ?? '').split(' ');
  return sigs.includes(`v1,${expected}`);
}

/** A real HTTP server that records every request and answers as `reply` says. */
export async function startReceiver(secret: string, reply: (n: number, req: ReceivedRequest) => Reply = () => 200): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const heldResponses = new Set<http.ServerResponse>();
  let open = 0;
  let maxOpen = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    open++;
    maxOpen = Math.max(maxOpen, open);
    res.on('close', () => {
      open--;
      heldResponses.delete(res);
    });
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const r: ReceivedRequest = {
        n: requests.length + 1,
        headers: req.headers,
        raw,
        webhookId: String(req.headers['x-webhook-id'] ?? ''),
        contractSignatureOk: verifyContractSignature(secret, req.headers, raw),
        standardSignatureOk: verifyStandardSignature(secret, req.headers, raw),
      };
      requests.push(r);
      const answer = reply(r.n, r);
      if (answer === 'hang') {
        heldResponses.add(res);
        return;
      }
      const { status, headers } = typeof answer === 'number' ? { status: answer, headers: {} } : answer;
      res.writeHead(status, { 'content-type': 'text/plain', ...headers }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    requests,
    held: () => heldResponses.size,
    maxConcurrent: () => maxOpen,
    releaseAll(status = 200) {
      for (const res of heldResponses) res.writeHead(status).end('released');
      heldResponses.clear();
    },
    waitForRequests: (n, timeoutMs = 60_000) => waitFor(async () => requests.length >= n && requests, { timeoutMs, what: `${n} webhook requests` }),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Sets an operator's sandbox endpoint (URL and secret) through the service's own message. */
export async function configure(stack: Stack, operatorId: string, url: string, secret: string): Promise<void> {
  const r = await upsertEndpoint(stack, { operatorId, environment: 'sandbox', brandId: `brd_${operatorId}`, secret, url });
  if (!r.ok) throw new Error(`endpoint setup failed: ${JSON.stringify(r)}`);
}

/** A `deposit.confirmed` event of the operator's sandbox brand, as the intake stores it. */
export function eventFor(operatorId: string): EventToStore {
  const id = newId('event');
  return {
    id,
    type: 'deposit.confirmed',
    environment: 'sandbox',
    operatorId,
    brandId: `brd_${operatorId}`,
    body: Buffer.from(JSON.stringify({ id, type: 'deposit.confirmed' })),
    createdAt: new Date().toISOString(),
    source: 'stream',
  };
}

/** A pool of its own, so statements really run concurrently on several connections. */
export function ownSql(t: Teardown, stack: Stack): Sql {
  const pool = new pg.Pool({ connectionString: stack.dbUrl, max: 12 });
  // The stack's teardown drops the database with its connections: an idle client of this pool
  // that is still open then (its end() is under way) is told so by an error, which is expected.
  pool.on('error', () => undefined);
  t.teardown(() => pool.end());
  return sqlOnPool(pool);
}

/** The single count a `select count(*) n …` returns. */
export async function count(stack: Stack, query: string, params: unknown[] = []): Promise<number> {
  const [r] = await stack.svc.sql.query<{ n: string }>(query, params);
  return Number(r!.n);
}
