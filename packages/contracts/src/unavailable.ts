// One answer to "is this failure an outage of something we depend on?", for every process: the
// kit's serve loop and the edge's error mapping (packages/http-kit) ask it before they call a
// failure an internal error. In contracts, so the HTTP packages need no service-kit for it. An outage is 503 SERVICE_UNAVAILABLE with Retry-After (the caller retries with the same
// Idempotency-Key, and the stored answers dedupe), logged at warn; anything else stays a 500.
import { AppError } from './errors.ts';
import { isUnavailable as isNatsUnavailable } from './rpc.ts';

// Postgres SQLSTATEs of a server that cannot be reached or is going away: class 08 (connection
// exception) is matched by prefix; admin_shutdown, crash_shutdown, cannot_connect_now (starting
// up or shutting down), too_many_connections.
const SERVER_UNAVAILABLE = new Set(['57P01', '57P02', '57P03', '53300']);
// Socket errors of the connection to a dependency.
const SOCKET_UNAVAILABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
// node-postgres (pg, pg-pool) says so only in words: its connection errors carry no code.
const DRIVER_UNAVAILABLE =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error and is not queryable|Client was closed and is not queryable|Query read timeout|timeout expired)/;

/**
 * Whether `err` (or an error in its `cause` chain) says a dependency is unavailable: the database
 * (Postgres codes, socket errors, pg's connection and pool errors, and MikroORM's wrappers of
 * them, which copy the driver error's code and message) or NATS (no responders, no answer in
 * time, no connection).
 */
export function isDependencyUnavailable(err: unknown): boolean {
  if (isNatsUnavailable(err)) return true;
  // A bounded walk: a cause chain is short, and a cycle must not loop.
  for (let e = err, depth = 0; typeof e === 'object' && e !== null && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message, name } = e as { code?: unknown; message?: unknown; name?: unknown };
    if (typeof code === 'string' && (code.startsWith('08') || SERVER_UNAVAILABLE.has(code) || SOCKET_UNAVAILABLE.has(code))) return true;
    if (typeof message === 'string' && DRIVER_UNAVAILABLE.test(message)) return true;
    // MikroORM's class for connection failures (its Postgres converter maps none to it today).
    if (name === 'ConnectionException') return true;
  }
  return false;
}

/** The answer to a request that met an unavailable dependency; nothing of the cause leaves the process. */
export function dependencyUnavailable(): AppError {
  return new AppError('SERVICE_UNAVAILABLE', 'The service is temporarily unavailable; retry shortly.');
}
