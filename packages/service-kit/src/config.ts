// Configuration: every process reads process.env once, here, validates it against its TypeBox
// schema (the kit's base settings plus its own) and fails fast with a clear message. Code reads
// settings from the typed config it is handed, never from the environment.
import { Type, type Static, type TObject } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { DEFAULT_NATS_PREFIX } from '@bo/contracts';
import { natsPassword, secretUrl } from './production-secrets.ts';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export const BaseConfigSchema = Type.Object({
  /** A secret (its password): production refuses one without a password (production-secrets.ts). */
  DATABASE_URL: secretUrl('postgres://postgres@127.0.0.1:5432/backoffice'),
  /** One server, or every node of a NATS cluster comma-separated: the connection moves to another when its node goes. */
  NATS_URL: Type.String({ default: 'nats://127.0.0.1:4222' }),
  NATS_PREFIX: Type.String({ default: DEFAULT_NATS_PREFIX, pattern: '^[A-Za-z0-9_-]+$' }),
  /**
   * This process's NATS identity: deploy/k8s gives each component its own user, allowed only the
   * subjects it serves and calls (deploy/k8s/nats-identities.ts). Unset: no authentication (`npm start`, tests).
   */
  NATS_USER: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]+$' })),
  /** NATS_USER's password: a secret, never logged; production refuses it unset, a placeholder or shorter than 32 characters. */
  NATS_PASSWORD: natsPassword(),
  /** TLS to NATS: the CA file that signed the servers' certificates (deploy/k8s: cert-manager's `ca.crt`). Set: the connection must be TLS. */
  NATS_TLS_CA_FILE: Type.Optional(Type.String({ minLength: 1 })),
  /** A client certificate and its key (PEM files), for servers that verify clients (mutual TLS): both or neither. */
  NATS_TLS_CERT_FILE: Type.Optional(Type.String({ minLength: 1 })),
  NATS_TLS_KEY_FILE: Type.Optional(Type.String({ minLength: 1 })),
  RPC_TIMEOUT_MS: Type.Integer({ default: 5000, minimum: 100 }),
  OUTBOX_POLL_MS: Type.Integer({ default: 250, minimum: 10 }),
  /**
   * The outbox relay's polls slow down to one per this while they find nothing (each commit's poke
   * still publishes at once): the longest an event no poke announced waits.
   */
  OUTBOX_IDLE_POLL_MS: Type.Integer({ default: 2000, minimum: 10 }),
  /** How long idempotency keys and their stored answers are kept (24 h, docs/decisions.md), at the gateway and in the services. */
  IDEMPOTENCY_TTL_SECONDS: Type.Integer({ default: 86400, minimum: 1 }),
  /** A key whose request is running is held for this long, renewed every third of it while it runs (idempotency/kit-kept.ts, AnswerStore). */
  IDEMPOTENCY_LEASE_SECONDS: Type.Integer({ default: 5, minimum: 1, maximum: 300 }),
  /** Published outbox rows are deleted once this old (the events live on in JetStream and the webhooks log). */
  OUTBOX_RETENTION_SECONDS: Type.Integer({ default: 86400, minimum: 1 }),
  /** How often expired keys and old published outbox rows are looked for and deleted (retention.ts; the gateway's too). */
  RETENTION_INTERVAL_MS: Type.Integer({ default: 60_000, minimum: 10 }),
  /** JetStream replicas of every stream, bucket and consumer we create: 1 on one server, 3 on a NATS cluster (raised to it when an existing one has fewer). */
  NATS_REPLICAS: Type.Integer({ default: 1, minimum: 1, maximum: 5 }),
  /** NATS messages written once per event-loop turn (nats.ts, `coalesceWrites`); false keeps nats.js' own flushing, for comparisons. */
  NATS_COALESCE_WRITES: Type.Boolean({ default: true }),
  /**
   * Group commit of the money path's one-statement writes (statement-group.ts, docs/money.md): at
   * most this many concurrent requests share one statement; 1 runs each alone (off).
   */
  GROUP_COMMIT_MAX: Type.Integer({ default: 8, minimum: 1, maximum: 64 }),
  /**
   * How long a write waits for others to share its statement when none of its group is running;
   * 0: never, a batch is what arrived while the last one ran. Keep it at 2 ms or less in
   * production (it is added to a lone request's time); tests set longer windows to make a batch certain.
   */
  GROUP_COMMIT_WINDOW_MS: Type.Integer({ default: 1, minimum: 0, maximum: 1000 }),
  /** Internal port of `GET /metrics` (Prometheus text); unset: no metrics server. */
  METRICS_PORT: Type.Optional(Type.Integer({ minimum: 0, maximum: 65535 })),
  METRICS_HOST: Type.String({ default: '127.0.0.1' }),
  /** pino level; logs are JSON on stderr. */
  LOG_LEVEL: Type.Union(
    LOG_LEVELS.map((l) => Type.Literal(l)),
    { default: 'info' },
  ),
  /** Share of the requests answered `ok` that get their info line (serve.ts); refused or failed ones always do. 1: every one. */
  LOG_REQUESTS_SAMPLE: Type.Number({ default: 1, minimum: 0, maximum: 1 }),
  /** Tests only: comma-separated crash points that kill the process (crash.ts). */
  CRASH_AT: Type.Optional(Type.String()),
  /** OpenTelemetry: traces are exported when either is set (the SDK reads its other OTEL_* settings itself). */
  OTEL_EXPORTER_OTLP_ENDPOINT: Type.Optional(Type.String()),
  OTEL_TRACES_EXPORTER: Type.Optional(Type.String()),
});
export type BaseConfig = Static<typeof BaseConfigSchema>;

function validated<T extends TObject>(schema: T, input: Record<string, unknown>): Static<T> {
  const value = Value.Convert(schema, Value.Default(schema, input));
  const errors = [...Value.Errors(schema, value)];
  if (errors.length > 0) {
    const lines = errors.map((e) => `  ${e.path.slice(1) || '(config)'}: ${e.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return value as Static<T>;
}

/** The process's settings from the environment (empty values count as unset). */
export function loadConfig<T extends TObject>(schema: T, env: Record<string, string | undefined> = process.env): Static<T> {
  const input: Record<string, unknown> = {};
  for (const key of Object.keys(schema.properties)) if (env[key] !== undefined && env[key] !== '') input[key] = env[key];
  return validated(schema, input);
}

/** Settings given in code (tests, in-process starts): the schema's defaults fill what is not given. */
export function configOf<T extends TObject>(schema: T, values: Partial<Static<T>>): Static<T> {
  const input: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(values)) if (v !== undefined) input[key] = v;
  return validated(schema, input);
}
