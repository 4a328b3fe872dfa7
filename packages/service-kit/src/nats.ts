import { connect, type NatsConnection } from '@nats-io/transport-node';

/** `coalesce`: the config's NATS_COALESCE_WRITES (false keeps nats.js' own flushing, for side-by-side measurements). */
export async function connectNats(url: string, name: string, coalesce = true): Promise<NatsConnection> {
  const nc = await connect({
    servers: url.split(','),
    name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 250,
    // nats.js creates an Error per request (and per timer) to keep the caller's stack for a
    // timeout: a stack capture on every RPC, several percent of each process's CPU. Our RPC
    // errors carry the subject, which is what a timeout needs to be understood.
    noAsyncTraces: true,
  });
  if (coalesce) coalesceWrites(nc);
  return nc;
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
