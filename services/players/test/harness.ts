// Test harness: the players service on its own database and NATS prefix, called through NATS
// exactly as the gateway calls it, with request contexts for several operators and brands.
import type { Test } from 'tap';
import { jetstream, jetstreamManager, DeliverPolicy } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { eventsStreamName, requestOperation, type DomainEvent, type OperationReply, type Scope, type OperatorScope } from '@bo/contracts';
import { startServiceWith, type RunningService, type ServiceDefinition } from '@bo/service-kit';
import { cleanupNatsPrefix, createTestDatabase, testNatsUrl, testPrefix, waitFor } from '@bo/service-kit/testing';
import { playersService } from '../src/service.ts';
import type { PlayersConfig } from '../src/config.ts';
import type { Eligibility } from '../src/impediments/index.ts';

/** Operator A has a sandbox and a production brand; operator B a sandbox brand in another currency. */
export const scopes = {
  aSandbox: { kind: 'operator', operatorId: 'op_A', brandId: 'brd_A_sandbox', environment: 'sandbox', currency: 'BRL' },
  aProduction: { kind: 'operator', operatorId: 'op_A', brandId: 'brd_A_production', environment: 'production', currency: 'BRL' },
  bSandbox: { kind: 'operator', operatorId: 'op_B', brandId: 'brd_B_sandbox', environment: 'sandbox', currency: 'USD' },
} as const satisfies Record<string, OperatorScope>;
export const admin: Scope = { kind: 'admin', actor: 'compliance@team' };
export const internal: Scope = { kind: 'internal', service: 'payments' };

export const validPlayer = {
  externalId: 'ext-1',
  name: 'Maria Silva',
  email: 'maria@example.com',
  cpf: '529.982.247-25',
  phone: '+5511987654321',
  birthDate: '1990-05-17',
};

/** The loss and time limits br-spa requires at registration (Portaria 1.231/2024 art. 31 as amended by 2.579/2025). */
export const REQUIRED_LIMITS = [
  { type: 'loss', period: 'day', value: '1000.00' },
  { type: 'time', period: 'day', value: 1440 },
];
/** The registration data br-spa requires beyond the limits (Portaria 1.231/2024 art. 31 as amended; issue #60). */
export const REGISTRATION_DATA = {
  phone: '+5511987654321',
  gender: 'feminino',
  signupIp: '198.51.100.7',
  address: { street: 'Rua Augusta', number: '1500', district: 'Consolação', city: 'São Paulo', state: 'SP', postalCode: '01304-001' },
};
/** A registration a br-spa operator accepts. */
export const brSpaPlayer = { ...validPlayer, ...REGISTRATION_DATA, limits: REQUIRED_LIMITS };

export interface CallOptions {
  params?: Record<string, string>;
  query?: Record<string, unknown>;
  body?: unknown;
  key?: string;
  /** The reply's deadline: a ceiling far above what a busy machine needs (a crash test shortens it for a reply that never comes). */
  timeoutMs?: number;
}

let keys = 0;
/** A fresh, valid Idempotency-Key. */
export function newKey(): string {
  keys += 1;
  return `key-${process.pid}-${Date.now()}-${keys}`;
}

export class PlayersHarness {
  readonly svc: RunningService;
  readonly prefix: string;
  readonly databaseUrl: string;

  constructor(svc: RunningService, prefix: string, databaseUrl: string) {
    this.svc = svc;
    this.prefix = prefix;
    this.databaseUrl = databaseUrl;
  }

  call<R = any>(subject: string, scope: Scope, opts: CallOptions = {}): Promise<OperationReply<R>> {
    return callPlayers<R>(this.svc.nc, this.prefix, subject, scope, opts);
  }

  /** Creates a player and returns it; fails the test when the reply is not 201. */
  async createPlayer(t: Test, scope: OperatorScope, overrides: Partial<typeof brSpaPlayer> = {}): Promise<any> {
    const reply = await this.call('players.create', scope, { body: { ...validPlayer, ...overrides }, key: newKey() });
    if (!reply.ok || reply.status !== 201) t.fail(`create failed: ${JSON.stringify(reply)}`);
    return reply.ok ? reply.body : undefined;
  }

  sql<T = any>(query: string, params: unknown[] = []): Promise<T[]> {
    return this.svc.sql.query(query, params) as Promise<T[]>;
  }

  /** The newest audit row a decision wrote into the outbox for `target` (service-kit audit-outbox.ts): its target, before and after. */
  async lastAudit(target: string): Promise<{ target: string; before: unknown; after: unknown } | undefined> {
    const rows = await this.sql<{ data: { target: string; before: unknown; after: unknown } }>(
      `select payload::jsonb -> 'data' as data from players.outbox where subject_type = 'audit.recorded' and payload::jsonb -> 'data' ->> 'target' = ? order by seq desc limit 1`,
      [target],
    );
    const d = rows[0]?.data;
    return d && { target: d.target, before: d.before, after: d.after };
  }

  async outboxDrained(): Promise<void> {
    await waitFor(async () => (await this.sql<{ c: string }>('select count(*) c from players.outbox where published_at is null'))[0]!.c === '0', {
      what: 'outbox drained',
    });
  }

  /** Every event in the stream, in stream order (after the outbox has drained). */
  async events(): Promise<Array<{ subject: string; brandId?: string; operatorId?: string; msgId?: string; event: DomainEvent }>> {
    await this.outboxDrained();
    return readEvents(this.svc.nc, this.prefix);
  }
}

export function callPlayers<R = any>(nc: NatsConnection, prefix: string, subject: string, scope: Scope, opts: CallOptions = {}): Promise<OperationReply<R>> {
  return requestOperation<R>(
    nc,
    subject,
    {
      ctx: { requestId: `req_test_${keys}`, scope, ...(opts.key ? { idempotencyKey: opts.key } : {}) },
      params: opts.params ?? {},
      query: opts.query ?? {},
      body: opts.body ?? {},
    },
    { prefix, timeoutMs: opts.timeoutMs ?? 30_000 },
  );
}

/** Consumes the whole events stream with an ordered consumer. */
export async function readEvents(
  nc: NatsConnection,
  prefix: string,
): Promise<Array<{ subject: string; brandId?: string; operatorId?: string; msgId?: string; event: DomainEvent }>> {
  const stream = eventsStreamName(prefix);
  const jsm = await jetstreamManager(nc);
  const total = (await jsm.streams.info(stream)).state.messages;
  if (total === 0) return [];
  const consumer = await jetstream(nc).consumers.get(stream, { deliver_policy: DeliverPolicy.All });
  const out: Array<{ subject: string; brandId?: string; operatorId?: string; msgId?: string; event: DomainEvent }> = [];
  while (out.length < total) {
    // A ceiling for a message the stream holds (it comes at once), not a pace.
    const m = await consumer.next({ expires: 30_000 });
    if (!m) throw new Error(`stream ${stream}: expected ${total} messages, read ${out.length}`);
    out.push({
      subject: m.subject,
      brandId: m.headers?.get('Bo-Brand-Id'),
      operatorId: m.headers?.get('Bo-Operator-Id'),
      msgId: m.headers?.get('Nats-Msg-Id'),
      event: m.json<DomainEvent>(),
    });
  }
  return out;
}

export async function startPlayers(
  t: Test,
  label = 'players',
  def: ServiceDefinition<typeof playersService.config, Eligibility> = playersService,
  settings: Partial<PlayersConfig> = {},
): Promise<PlayersHarness> {
  const db = await createTestDatabase(label);
  const prefix = testPrefix(label);
  const svc = await startServiceWith(def, {
    ...settings,
    DATABASE_URL: db.url,
    NATS_URL: testNatsUrl(),
    NATS_PREFIX: prefix,
    // A deadline far above what a busy machine needs: no test here waits on it.
    RPC_TIMEOUT_MS: 30_000,
    OUTBOX_POLL_MS: 50,
  });
  t.teardown(async () => {
    await svc.stop();
    await cleanupNatsPrefix(prefix);
    await db.drop();
  });
  return new PlayersHarness(svc, prefix, db.url);
}

/** Narrows a reply to success (failing the test otherwise). */
export function okBody<R>(t: Test, reply: OperationReply<R>, status: number): R {
  t.equal(reply.ok && reply.status, status, `status ${status}${reply.ok ? '' : `, got ${JSON.stringify(reply)}`}`);
  return (reply.ok ? reply.body : undefined) as R;
}
/** Asserts an error reply with the code. */
export function errorCode(t: Test, reply: OperationReply, code: string, message?: string): void {
  t.equal(reply.ok ? `ok ${reply.status}` : reply.error.code, code, message ?? `error ${code}`);
}

/** Two people of our team (four eyes tells them apart): turning br-spa off is requested by one and confirmed by the other (issue #56). */
const requester: Scope = { kind: 'admin', actor: 'user:req@ourteam.example', personId: 'usr_requester' };
const confirmer: Scope = { kind: 'admin', actor: 'user:conf@ourteam.example', personId: 'usr_confirmer' };

/** Sets an operator's profile with a reason; where that turns the br-spa rules off, as two people. The last reply. */
export async function setComplianceProfile(h: PlayersHarness, operatorId: string, profile: 'off' | 'br-spa', settings: Record<string, unknown> = {}) {
  const body = { profile, ...settings, reason: `the test sets ${profile}` };
  const set = await h.call('players.admin.setCompliance', requester, { params: { id: operatorId }, body });
  if (set.ok || set.error.code !== 'FOUR_EYES_REQUIRED') return set;
  const requested = await h.call('players.admin.requestComplianceChange', requester, { params: { id: operatorId }, body });
  if (!requested.ok) return requested;
  return h.call('players.admin.confirmComplianceChange', confirmer, {
    params: { id: operatorId, changeId: requested.body.id },
    body: { reason: 'a second person confirms' },
  });
}
