// Each service reads process.env once, validates it, and fails fast with a clear message.
import { Type, type Static, type TObject } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { DEFAULT_NATS_PREFIX } from '@bo/contracts';

export const BaseConfigSchema = Type.Object({
  DATABASE_URL: Type.String({ default: 'postgres://postgres@127.0.0.1:5432/backoffice' }),
  NATS_URL: Type.String({ default: 'nats://127.0.0.1:4222' }),
  NATS_PREFIX: Type.String({ default: DEFAULT_NATS_PREFIX, pattern: '^[A-Za-z0-9_-]+$' }),
  RPC_TIMEOUT_MS: Type.Integer({ default: 5000, minimum: 100 }),
  OUTBOX_POLL_MS: Type.Integer({ default: 250, minimum: 10 }),
  /** JetStream replicas of the streams and buckets we create (read through natsReplicas()). */
  NATS_REPLICAS: Type.Optional(Type.Integer({ default: 1, minimum: 1, maximum: 5 })),
  /** Internal port of `GET /metrics` (Prometheus text); unset: no metrics server. */
  METRICS_PORT: Type.Optional(Type.Integer({ minimum: 0, maximum: 65535 })),
  METRICS_HOST: Type.Optional(Type.String({ default: '127.0.0.1' })),
});
export type BaseConfig = Static<typeof BaseConfigSchema>;

export function loadConfig<T extends TObject>(schema: T, env: Record<string, string | undefined> = process.env): Static<T> {
  const input: Record<string, unknown> = {};
  for (const key of Object.keys(schema.properties)) if (env[key] !== undefined && env[key] !== '') input[key] = env[key];
  const value = Value.Convert(schema, Value.Default(schema, input));
  const errors = [...Value.Errors(schema, value)];
  if (errors.length > 0) {
    const lines = errors.map((e) => `  ${e.path.slice(1) || '(config)'}: ${e.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return value as Static<T>;
}
