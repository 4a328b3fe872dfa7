// One gateway (startGateway, ephemeral ports) in a process of its own, so that its memory can be
// read on its own and the load generator does not share its event loop. Config comes from env
// exactly as in production (tracing too, started first as main.ts does: BENCH_TRACING); bench/run.ts
// drives it over IPC.
import { startTracing } from '@bo/service-kit/tracing';

await startTracing('gateway');
const { startGateway } = await import('../services/gateway/src/gateway.ts');
const { loadGatewayConfig } = await import('../services/gateway/src/config.ts');

export interface GatewayReady {
  type: 'ready';
  publicUrl: string;
  adminUrl: string;
  pid: number;
}
export interface MemoryReport {
  type: 'memory';
  rss: number;
  heapUsed: number;
  external: number;
  cpuMicros: number;
}

const gw = await startGateway(loadGatewayConfig());

function memory(gc: boolean): MemoryReport {
  // --expose-gc is passed by run.ts. heapUsed after gc() is only a coarse figure: it varied by tens
  // of MB between runs while heap snapshots showed no retained growth (docs/benchmarks.md).
  if (gc) (globalThis as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  const cpu = process.cpuUsage();
  return { type: 'memory', rss: m.rss, heapUsed: m.heapUsed, external: m.external, cpuMicros: cpu.user + cpu.system };
}

process.on('message', (msg: { type?: string; gc?: boolean }) => {
  if (msg?.type === 'memory') process.send!(memory(msg.gc === true));
  if (msg?.type === 'stop') void gw.stop().finally(() => process.exit(0));
});
// The parent going away must not leave a gateway behind.
process.on('disconnect', () => void gw.stop().finally(() => process.exit(0)));
process.send!({ type: 'ready', publicUrl: gw.publicUrl, adminUrl: gw.adminUrl, pid: process.pid } satisfies GatewayReady);
