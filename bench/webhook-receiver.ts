// A local webhook receiver for the lag figure: answers 204 at once and records, per event id, the
// time from the event's `createdAt` (set when the change committed its outbox row) to receipt.
// A process of its own so that its work is not counted to anything measured.
import { createServer } from 'node:http';

interface Stats {
  type: 'stats';
  received: number;
  /** TCP connections the webhooks service opened to this receiver (keep-alive reuse: few). */
  connections: number;
  unique: number;
  byType: Record<string, number>;
  lagMs: { p50: number; p99: number; max: number } | null;
}

let lags: number[] = [];
let seen = new Set<string>();
let received = 0;
let connections = 0;
let byType: Record<string, number> = {};

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const at = Date.now();
    res.writeHead(204).end();
    try {
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string; type: string; createdAt: string };
      received++;
      if (seen.has(event.id)) return;
      seen.add(event.id);
      byType[event.type] = (byType[event.type] ?? 0) + 1;
      lags.push(at - Date.parse(event.createdAt));
    } catch {
      /* not an event: ignored */
    }
  });
});
server.keepAliveTimeout = 60_000;
server.on('connection', () => connections++);
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.address() as { port: number };

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
function stats(): Stats {
  const sorted = [...lags].sort((a, b) => a - b);
  return {
    type: 'stats',
    received,
    connections,
    unique: seen.size,
    byType: { ...byType },
    lagMs: sorted.length ? { p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99), max: sorted.at(-1)! } : null,
  };
}

process.on('message', (msg: { type?: string }) => {
  if (msg?.type === 'stats') process.send!(stats());
  if (msg?.type === 'reset') {
    lags = [];
    seen = new Set();
    received = 0;
    connections = 0;
    byType = {};
    process.send!({ type: 'reset' });
  }
  if (msg?.type === 'stop') server.close(() => process.exit(0));
});
process.on('disconnect', () => process.exit(0));
process.send!({ type: 'ready', url: `http://127.0.0.1:${port}/hooks`, pid: process.pid });
export type { Stats as ReceiverStats };
