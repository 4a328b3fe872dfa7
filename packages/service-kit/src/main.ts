// Process entry helper: start, then on SIGINT/SIGTERM stop gracefully (drain NATS, finish
// in-flight work, close the pool) and exit.
import { createLogger } from './log.ts';
import { startTelemetry } from './telemetry.ts';

export async function runMain(name: string, start: () => Promise<{ stop(): Promise<void> }>): Promise<void> {
  const log = createLogger(name);
  const telemetry = startTelemetry(name);
  let running: { stop(): Promise<void> };
  try {
    running = await start();
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
    try { await running.stop(); } catch (err) { log.error({ err }, 'error while stopping'); }
    await telemetry.shutdown().catch(() => undefined);
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}
