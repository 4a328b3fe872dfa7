// Serves request-reply operations on `<prefix>.rpc.<subject>` in a queue group, so every replica
// of a service shares the load. Handlers return a reply or throw AppError; a dependency that is
// unavailable (the database restarting, NATS) is answered as SERVICE_UNAVAILABLE (unavailable.ts),
// anything else is logged and answered as INTERNAL_ERROR; neither with internals.
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import type { Static, TSchema } from '@sinclair/typebox';
import {
  AppError,
  compilePart,
  isAppError,
  isErrorCode,
  pingMessage,
  recordRefusalMessage,
  type ErrorDetails,
  queueGroup,
  rpcSubject,
  type OperationReply,
  type OperationRequest,
  type MessagePart,
} from '@bo/contracts';
import { SpanKind, SpanStatusCode, type Span } from '@opentelemetry/api';
import { withLogContext, type Logger } from './log.ts';
import { natsRequestAttributes, withSpanFrom } from './telemetry.ts';
import { tracingOn } from './tracing.ts';
import { withAnswersDeclared, type AnswersWay } from './idempotency/declared.ts';
import type { AnswerStore } from './idempotency/kit-kept.ts';
import { ReplayedRefusal } from './idempotency/replay.ts';
import { dependencyUnavailable, isDependencyUnavailable } from '@bo/contracts';
import type { HandlerResult } from './handler-result.ts';

export type { HandlerResult } from './handler-result.ts';

/** What handlers are given by the serve loop: the service's stored answers (idempotency/). */
export interface HandlerEnv {
  answers?: AnswerStore;
}
// biome-ignore lint/suspicious/noExplicitAny: the table holds every operation's handler
export type Handler = (req: OperationRequest<any, any, any>, env?: HandlerEnv) => Promise<HandlerResult>;

/** An operation of the contract's tables, or an internal message: a subject and the schemas of its parts. */
export interface Routed {
  subject?: string;
  /** An admin operation's HTTP method: a change (anything but GET) is refused to a read-only scope. */
  method?: string;
  params?: TSchema;
  query?: TSchema;
  body?: TSchema;
}

/**
 * Who keeps the answer to a request with an Idempotency-Key (idempotency/declared.ts, `AnswersWay`): the
 * kit (the default), the effect (`runOnce`, `storeResponse`: money paths, a uniqueness the domain
 * must see in the same transaction), or none (the kit's own messages). A handler that stores its
 * answer without being declared `effect` is refused at its first call (a programming error).
 */
export interface HandleOptions {
  answers?: AnswersWay;
}
type PartOf<S> = S extends TSchema ? Static<S> : Record<string, never>;
/** The request of one operation or message, its parts typed by their schemas (and checked against them). */
export type RequestOf<M extends Routed> = OperationRequest<PartOf<M['body']>, PartOf<M['params']>, PartOf<M['query']>>;
export type HandlerOf<M extends Routed> = (req: RequestOf<M>) => Promise<HandlerResult>;

const PARTS: Array<[key: 'params' | 'query' | 'body', part: MessagePart]> = [
  ['params', 'path'],
  ['query', 'query'],
  ['body', 'body'],
];

/**
 * The handler of one operation or message: path, query and body are checked against their
 * schemas, in that order (a 422 comes before anything else, as the contract's check order says),
 * then `fn` runs on the checked values. One place checks every message, internal ones included.
 * A request with an Idempotency-Key (only the gateway sends one) gets its one answer per key
 * (HandleOptions), every refusal included (a 422 of these checks too).
 */
export function handle<M extends Routed & { subject: string }>(m: M, fn: HandlerOf<M>, opts: HandleOptions = {}): Record<string, Handler> {
  const checks = PARTS.filter(([key]) => m[key] !== undefined).map(([key, part]) => [key, compilePart(m[key]!, part)] as const);
  const answers = opts.answers ?? 'kit';
  const changes = m.method !== undefined && m.method !== 'GET';
  const run = async (req: OperationRequest<unknown, unknown, unknown>): Promise<HandlerResult> => {
    // A read-only role (the regulator, issue #69) changes nothing, here too: not only at the gateway.
    if (changes && req.ctx?.scope?.kind === 'admin' && req.ctx.scope.readOnly) throw new AppError('READ_ONLY_ROLE');
    const checked: Record<string, unknown> = { ...req };
    for (const [key, check] of checks) {
      const r = check(req[key]);
      if ('error' in r) throw r.error;
      checked[key] = r.value;
    }
    return withAnswersDeclared(m.subject, answers, req.ctx, () => fn(checked as unknown as RequestOf<M>));
  };
  if (answers === 'none') return { [m.subject]: run };
  return {
    [m.subject]: async (req, env) => {
      const store = env?.answers;
      if (!store || !req.ctx?.idempotencyKey) return run(req);
      if (answers === 'kit') return store.once(req.ctx, m.subject, () => run(req));
      try {
        return await run(req);
      } catch (e) {
        return store.keepRefusal(req.ctx, m.subject, e);
      }
    },
  };
}

export interface ServeOptions {
  nc: NatsConnection;
  prefix: string;
  service: string;
  handlers: Record<string, Handler>;
  /** The service's stored answers (idempotency/); with them it also keeps the refusals the gateway made (`<word>.idempotency.record`). */
  answers?: AnswerStore;
  log: Logger;
  /** Latency and outcome of every answered request, per subject. */
  observe?: (subject: string, outcome: string, seconds: number) => void;
  /** The share of `ok` answers logged at info (LOG_REQUESTS_SAMPLE; default 1: every one). */
  logSample?: number;
}

export interface Server {
  stop(): Promise<void>;
  inFlight(): number;
}

/**
 * `<word>.idempotency.record` for the first word of each subject served: a refusal the gateway made
 * itself for one of these operations (415, 422 of the body), kept like the service's own.
 */
export function refusalRecorders(answers: AnswerStore, subjects: string[]): Record<string, Handler> {
  const handlers: Record<string, Handler> = {};
  for (const word of new Set(subjects.map((subject) => subject.split('.')[0]!))) {
    Object.assign(
      handlers,
      handle(
        recordRefusalMessage(word),
        async (req) => {
          const { code, message, details } = req.body.error;
          if (!isErrorCode(code)) throw new AppError('VALIDATION_ERROR', `Unknown error code ${code}.`);
          return answers.keepRefusal(req.ctx, req.body.operation, new AppError(code, message, details as ErrorDetails | undefined));
        },
        { answers: 'none' },
      ),
    );
  }
  return handlers;
}

/** The message a request is answered with: the handler's result, or its refusal, never internals. */
/** The handler's reply, or the error it threw as one (logged when it is not a refusal). */
async function answerOf(handler: Handler, req: OperationRequest, env: HandlerEnv, log: Logger, subject: string, span: Span): Promise<OperationReply> {
  try {
    const result = await handler(req, env);
    return {
      ok: true,
      status: result.status ?? 200,
      body: result.body,
      ...(result.replayed ? { replayed: true as const } : {}),
    };
  } catch (e) {
    if (e instanceof ReplayedRefusal) return { ok: false, error: e.toBody(), replayed: true, ...(e.requestId ? { requestId: e.requestId } : {}) };
    if (isAppError(e)) return { ok: false, error: e.toBody() };
    span.setStatus({ code: SpanStatusCode.ERROR });
    if (isDependencyUnavailable(e)) {
      // Retryable, and nothing was stored under the key (a 5xx never is): the caller's retry
      // with the same key finds the effect's stored answer if the commit got through.
      log.warn({ err: e, subject }, 'dependency unavailable');
      return { ok: false, error: dependencyUnavailable().toBody() };
    }
    log.error({ err: e, subject }, 'handler failed');
    return { ok: false, error: new AppError('INTERNAL_ERROR').toBody() };
  }
}

/**
 * One request message answered: read, run in its log context (every line names the request) and
 * its span when tracing is on, and turned into the reply. `logSample` (undefined: no lines): the
 * share of `ok` answers that get one info line (its requestId and traceId from the context, subject,
 * outcome, durationMs); a refused or failed one always gets it. So a requestId finds its line in
 * every process that served it.
 */
export async function replyTo(
  handler: Handler,
  msg: { json<T>(): T; headers?: Iterable<[string, string[]]>; subject?: string },
  env: HandlerEnv,
  log: Logger,
  subject: string,
  logSample?: number,
): Promise<OperationReply> {
  const started = logSample === undefined ? 0 : performance.now();
  let request: OperationRequest;
  try {
    request = msg.json<OperationRequest>();
  } catch (e) {
    log.error({ err: e, subject }, 'unreadable request');
    return { ok: false, error: new AppError('INTERNAL_ERROR').toBody() };
  }
  const carrier: Record<string, string> = {};
  for (const [k, v] of msg.headers ?? []) if (v[0] !== undefined) carrier[k] = v[0];
  return withLogContext({ requestId: request.ctx?.requestId }, () =>
    // A consumer span by the messaging conventions (`process <subject>`), the caller's producer span its parent.
    withSpanFrom(
      `process ${msg.subject ?? subject}`,
      SpanKind.CONSUMER,
      carrier,
      async (span) => {
        span.setAttribute('bo.request_id', request.ctx?.requestId ?? '');
        const answered = await answerOf(handler, request, env, log, subject, span);
        if (logSample !== undefined && (!answered.ok || logSample >= 1 || Math.random() < logSample)) {
          const durationMs = Math.round((performance.now() - started) * 100) / 100;
          log.info({ subject, outcome: answered.ok ? 'ok' : answered.error.code, durationMs }, 'request answered');
        }
        return answered;
      },
      // Made only for a span that records (tracing off: the API's no-ops, nothing allocated for them).
      tracingOn() ? natsRequestAttributes(msg.subject ?? subject, 'process') : undefined,
    ),
  );
}

export function serveOperations(opts: ServeOptions): Server {
  const subs: Subscription[] = [];
  const running = new Set<Promise<void>>();
  // Every service answers `<service>.ping`, so the gateway's /readyz can see it is up.
  const handlers: Record<string, Handler> = {
    ...handle(pingMessage(opts.service), async () => ({ body: { ok: true } }), { answers: 'none' }),
    ...opts.handlers,
  };
  const answers = opts.answers;
  if (answers) Object.assign(handlers, refusalRecorders(answers, Object.keys(opts.handlers)));
  const env: HandlerEnv = answers ? { answers } : {};
  // A line per answered request at info (below it, not even the line's fields are made); the
  // gateway's readiness pings, which carry no request, make none.
  const logSample = opts.log.isLevelEnabled('info') ? (opts.logSample ?? 1) : undefined;
  const ping = pingMessage(opts.service).subject;
  for (const [subject, handler] of Object.entries(handlers)) {
    const sub = opts.nc.subscribe(rpcSubject(opts.prefix, subject), {
      queue: queueGroup(opts.service),
      callback: (err, msg) => {
        if (err) {
          opts.log.error({ err, subject }, 'subscription error');
          return;
        }
        const work = (async () => {
          const started = process.hrtime.bigint();
          const reply = await replyTo(handler, msg, env, opts.log, subject, subject === ping ? undefined : logSample);
          if (msg.reply) msg.respond(JSON.stringify(reply));
          opts.observe?.(subject, reply.ok ? 'ok' : reply.error.code, Number(process.hrtime.bigint() - started) / 1e9);
        })();
        running.add(work);
        void work.finally(() => running.delete(work));
      },
    });
    subs.push(sub);
  }
  return {
    inFlight: () => running.size,
    async stop() {
      // Stop taking new requests, then let the ones under way finish.
      await Promise.all(subs.map((s) => s.drain()));
      await Promise.allSettled([...running]);
    },
  };
}
