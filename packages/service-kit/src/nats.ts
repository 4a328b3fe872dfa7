import { jetstreamManager } from '@nats-io/jetstream';
import { accessSync, constants } from 'node:fs';
import { connect, type ConnectionOptions, type NatsConnection } from '@nats-io/transport-node';
import { RequestError, RequestOne } from '@nats-io/nats-core/internal';
import type { Logger } from './log.ts';

/** The base settings that say who this process is to NATS and how it reaches it (config.ts). */
export interface NatsIdentitySettings {
  NATS_USER?: string | undefined;
  NATS_PASSWORD?: string | undefined;
  NATS_TLS_CA_FILE?: string | undefined;
  NATS_TLS_CERT_FILE?: string | undefined;
  NATS_TLS_KEY_FILE?: string | undefined;
}

/**
 * The connection options of an identity: user and password, TLS with our CA (and a client
 * certificate when given), and an inbox prefix of the user's own (`_INBOX_<user>`), so that its
 * permissions let it read only its own replies (deploy/k8s/nats-identities.ts). Throws, naming the
 * setting, when the settings do not go together or a file cannot be read; never shows the password.
 */
export function natsIdentityOptions(s: NatsIdentitySettings): Partial<ConnectionOptions> {
  if ((s.NATS_USER === undefined) !== (s.NATS_PASSWORD === undefined)) {
    throw new Error(`Invalid configuration: NATS_USER and NATS_PASSWORD go together (${s.NATS_USER === undefined ? 'NATS_USER' : 'NATS_PASSWORD'} is not set)`);
  }
  if ((s.NATS_TLS_CERT_FILE === undefined) !== (s.NATS_TLS_KEY_FILE === undefined)) {
    throw new Error('Invalid configuration: NATS_TLS_CERT_FILE and NATS_TLS_KEY_FILE go together');
  }
  for (const name of ['NATS_TLS_CA_FILE', 'NATS_TLS_CERT_FILE', 'NATS_TLS_KEY_FILE'] as const) {
    const file = s[name];
    if (file === undefined) continue;
    try {
      accessSync(file, constants.R_OK);
    } catch {
      throw new Error(`Invalid configuration: ${name} ${file} cannot be read`);
    }
  }
  const tls =
    s.NATS_TLS_CA_FILE || s.NATS_TLS_CERT_FILE
      ? {
          ...(s.NATS_TLS_CA_FILE ? { caFile: s.NATS_TLS_CA_FILE } : {}),
          ...(s.NATS_TLS_CERT_FILE ? { certFile: s.NATS_TLS_CERT_FILE, keyFile: s.NATS_TLS_KEY_FILE } : {}),
        }
      : undefined;
  return {
    ...(s.NATS_USER !== undefined ? { user: s.NATS_USER, pass: s.NATS_PASSWORD, inboxPrefix: natsInboxPrefix(s.NATS_USER) } : {}),
    ...(tls ? { tls } : {}),
  };
}

/** The inbox prefix of a NATS user: its replies (request-reply, JetStream API, pulled messages) arrive under it. */
export function natsInboxPrefix(user: string): string {
  return `_INBOX_${user}`;
}

/**
 * `coalesce`: the config's NATS_COALESCE_WRITES (false keeps nats.js' own flushing, for side-by-side
 * measurements); `identity`: the NATS_USER / NATS_PASSWORD / NATS_TLS_* settings (none: no
 * authentication, plain TCP, as `npm start` and the tests run).
 */
export async function connectNats(url: string, name: string, coalesce = true, identity: NatsIdentitySettings = {}): Promise<NatsConnection> {
  const nc = await connect({
    servers: url.split(','),
    name,
    ...natsIdentityOptions(identity),
    maxReconnectAttempts: -1,
    reconnectTimeWait: 250,
    // nats.js creates an Error per request (and per timer) to keep the caller's stack for a
    // timeout: a stack capture on every RPC, several percent of each process's CPU. Our RPC
    // errors carry the subject, which is what a timeout needs to be understood.
    noAsyncTraces: true,
  });
  if (coalesce) coalesceWrites(nc);
  settledRequestsEndQuietly();
  return nc;
}

/**
 * Logs what happens to a connection that a service should hear of: lost and back, the server's
 * errors (a permission refused), pings unanswered, the server going away (lame duck). Without it a
 * process cut from NATS for a while said nothing of it: a publish or an ack written while it
 * reconnects waits in the client's buffer, and one that never leaves it is found only by what went
 * missing. (A server that finds a client too slow cuts it: that is a disconnect here.)
 */
export function logConnectionEvents(nc: NatsConnection, log: Pick<Logger, 'warn' | 'error'>): void {
  void (async () => {
    for await (const s of nc.status()) {
      if (s.type === 'disconnect') log.warn({ server: s.server }, 'NATS connection lost; reconnecting');
      else if (s.type === 'reconnect') log.warn({ server: s.server }, 'NATS connection back');
      else if (s.type === 'error') log.error({ err: s.error }, 'NATS server error');
      else if (s.type === 'staleConnection') log.warn('NATS connection stale (pings unanswered); reconnecting');
      else if (s.type === 'ldm') log.warn({ server: s.server }, 'NATS server going away (lame duck mode)');
    }
  })().catch(() => undefined);
}

/** The parts of nats.js' single-reply request (v3, internal) that `settledRequestsEndQuietly` relies on. */
interface RequestOneInternals {
  resolver(err: Error | null, msg: unknown): void;
  cancel(err?: Error): void;
}

const SETTLED = Symbol('settled');
let requestsPatched: boolean | undefined;

/**
 * An answered request no longer builds an Error that nobody sees.
 *
 * nats.js (3.4) ends every answered request with `cancel()`, which rejects the request's promise
 * (already resolved, so the rejection does nothing) with a new `RequestError('cancelled')`: a
 * stack capture on every request and JetStream publish, 2–5% of the gateway's and the services'
 * CPU in the deposit bench's profiles (noAsyncTraces does not cover it). Once the answer has
 * settled the promise, that cancel passes one shared error instead; a request cancelled before
 * its answer (a timeout, a closed connection) gets its own error as before.
 *
 * Once per process; returns false, changing nothing, when the internals are not the shape this
 * relies on (a future nats.js).
 */
export function settledRequestsEndQuietly(): boolean {
  if (requestsPatched !== undefined) return requestsPatched;
  const proto = (RequestOne as unknown as { prototype: Partial<RequestOneInternals> }).prototype;
  if (typeof proto.resolver !== 'function' || typeof proto.cancel !== 'function') {
    requestsPatched = false;
    return false;
  }
  const resolver = proto.resolver;
  const cancel = proto.cancel;
  const settledError = new RequestError('cancelled');
  proto.resolver = function (this: RequestOneInternals & { [SETTLED]?: boolean }, err, msg) {
    this[SETTLED] = true;
    resolver.call(this, err, msg);
  };
  proto.cancel = function (this: RequestOneInternals & { [SETTLED]?: boolean }, err) {
    cancel.call(this, err ?? (this[SETTLED] ? settledError : undefined));
  };
  requestsPatched = true;
  return true;
}

/** The parts of nats.js' protocol handler (v3, internal) that `coalesceWrites` relies on. */
interface ProtocolInternals {
  flushPending(): void;
  close(err?: Error): Promise<void>;
  outbound: { size(): number };
  pendingLimit: number;
}

/**
 * Writes what a connection publishes once per turn of the event loop, not once per callback.
 *
 * nats.js flushes its outbound buffer in a microtask, which runs after every I/O callback: a
 * service answering requests whose Postgres results arrive in the same turn writes one socket
 * message per answer. Each write on loopback also runs the peer's network stack, and these writes
 * were half of every process's CPU under load (docs/benchmarks.md). Deferred to `setImmediate`
 * (after the turn's I/O callbacks), the answers of one turn leave in one write, and nats-server
 * reads and answers fewer, larger messages. A message waits at most until the end of the turn.
 * A buffer past the client's own limit is still written at once, and closing writes what is
 * queued first (a publish just before `close()` is not lost).
 *
 * Returns false, changing nothing, when the client's internals are not the shape this relies on
 * (a future nats.js): the connection then flushes as the library does.
 */
export function coalesceWrites(nc: NatsConnection): boolean {
  const proto = (nc as unknown as { protocol?: Partial<ProtocolInternals> }).protocol;
  if (
    !proto ||
    typeof proto.flushPending !== 'function' ||
    typeof proto.close !== 'function' ||
    typeof proto.outbound?.size !== 'function' ||
    typeof proto.pendingLimit !== 'number'
  ) {
    return false;
  }
  const p = proto as ProtocolInternals;
  const flushNow = p.flushPending.bind(p);
  const close = p.close.bind(p);
  p.close = (err) => {
    flushNow();
    return close(err);
  };
  let queued = false;
  p.flushPending = () => {
    if (p.outbound.size() >= p.pendingLimit) return flushNow();
    if (queued) return;
    queued = true;
    setImmediate(() => {
      queued = false;
      flushNow();
    });
  };
  return true;
}

/**
 * A stream (a KV bucket's is `KV_<bucket>`) created when NATS_REPLICAS was lower, a single server
 * since grown into a cluster, is raised to it: JetStream copies its messages to the new replicas.
 * Never lowered here: that is an operator's decision.
 */
export async function ensureStreamReplicas(nc: NatsConnection, name: string, replicas: number): Promise<void> {
  const jsm = await jetstreamManager(nc);
  const { config } = await jsm.streams.info(name);
  if (config.num_replicas < replicas) await jsm.streams.update(name, { ...config, num_replicas: replicas });
}
