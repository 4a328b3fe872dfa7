// JSON logs on stderr. Every line written while a request or a message is being handled names it:
// `requestId` (the log context below, set where the handling starts) and, when tracing is on, the
// active span's `traceId`/`spanId` (added by pino's instrumentation, tracing.ts), so a log line leads to its trace and an operator's
// X-Request-Id to every line of every process that served it.
import { AsyncLocalStorage } from 'node:async_hooks';
import { pino, type Logger } from 'pino';
export type { Logger };

/** What the lines of one request's or message's handling carry. Mutable: the gateway learns the id after the request started. */
export interface LogContext {
  requestId?: string;
}

const current = new AsyncLocalStorage<LogContext>();

/** Runs `fn` (and everything it starts) with `ctx` on every log line. */
export function withLogContext<T>(ctx: LogContext, fn: () => T): T {
  return current.run(ctx, fn);
}

/** The log context of the handling under way, if any. */
export function logContext(): LogContext | undefined {
  return current.getStore();
}

function correlation(): Record<string, string> {
  const requestId = current.getStore()?.requestId;
  return requestId ? { requestId } : {};
}

/** JSON logs on stderr (or `destination`: tests read the lines); secrets are redacted wherever they might appear. */
export function createLogger(service: string, level = 'info', destination: pino.DestinationStream = pino.destination(2)): Logger {
  return pino(
    {
      name: service,
      level,
      mixin: correlation,
      redact: {
        paths: ['*.secret', '*.webhookSecret', '*.secretEnc', 'secret', 'webhookSecret', 'headers.authorization', 'req.headers.authorization'],
        censor: '[redacted]',
      },
    },
    destination,
  );
}
