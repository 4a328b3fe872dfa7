// Process entry helper (tracing, which must start before the service's modules load, is started
// by each main.ts: tracing.ts): refuse development secrets in production, read and validate the
// configuration, start, then on SIGINT/SIGTERM stop gracefully (drain NATS, finish in-flight
// work, close the pool) and exit.
import type { Static, TObject } from '@sinclair/typebox';
import { loadConfig, type BaseConfig } from './config.ts';
import { createLogger } from './log.ts';
import { natsIdentityOptions } from './nats.ts';
import { productionRefusal } from './production-secrets.ts';
import { stopTracing } from './tracing.ts';

export async function runMain<S extends TObject>(name: string, schema: S, start: (config: Static<S>) => Promise<{ stop(): Promise<void> }>): Promise<void> {
  // One line, before anything connects: a public development secret must never sign or seal anything.
  const refusal = productionRefusal(schema, process.env);
  if (refusal) {
    process.stderr.write(`${name}: refusing to start in production: ${refusal}\n`);
    process.exit(1);
  }
  let config: Static<S>;
  try {
    config = loadConfig(schema);
    // The NATS identity's settings go together and its files are readable, before anything connects.
    natsIdentityOptions(config as unknown as BaseConfig);
  } catch (err) {
    process.stderr.write(`${name} failed to start: ${(err as Error).message}\n`);
    process.exit(1);
  }
  const base = config as unknown as BaseConfig;
  const log = createLogger(name, base.LOG_LEVEL);
  let running: { stop(): Promise<void> };
  try {
    running = await start(config);
  } catch (err) {
    log.fatal({ err }, `${name} failed to start`);
    process.exit(1);
  }
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, `${name} stopping`);
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    try {
      await running.stop();
    } catch (err) {
      log.error({ err }, 'error while stopping');
    }
    await stopTracing().catch(() => undefined);
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}
