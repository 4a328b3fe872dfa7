// The bare reference of the money benchmarks: the shortest path our architecture allows for one
// request, with nothing of ours on it. BARE_ROLE=gateway: Fastify, `GET /select` and
// `POST /update` forwarded by a NATS request; BARE_ROLE=service: a NATS responder (queue group)
// running one Postgres statement per request on a pg pool and replying with the row as JSON.
// Same machine, same servers, same process split as the real gateway → service path.
// BENCH_BARE_COALESCE=1 gives the bare processes the kit's `coalesceWrites` too (the reference
// with the one client setting our services use; by default it keeps nats.js as it comes).
import Fastify from 'fastify';
import pg from 'pg';
import { connect } from '@nats-io/transport-node';
import { coalesceWrites } from '@bo/service-kit';
import type { MemoryReport } from './gateway-process.ts';

const role = process.env.BARE_ROLE;
const prefix = process.env.BARE_PREFIX ?? 'bare';
const nc = await connect({ servers: process.env.NATS_URL ?? 'nats://127.0.0.1:4222' });
if (process.env.BENCH_BARE_COALESCE === '1') coalesceWrites(nc);
export const BARE_ROWS = 200;
let stop: () => Promise<void>;
let url = '';

if (role === 'service') {
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
  await pool.query(
    `create schema if not exists bare; create table if not exists bare.accounts (id int primary key, balance numeric(20,2) not null default 0, updated_at timestamptz not null default now())`,
  );
  await pool.query(`insert into bare.accounts (id) select g from generate_series(1, ${BARE_ROWS}) g on conflict do nothing`);
  const serve = (subject: string, sql: string) =>
    nc.subscribe(`${prefix}.${subject}`, {
      queue: 'bare',
      callback: (_err, msg) => {
        const { id } = msg.json<{ id: number }>();
        pool.query(sql, [id]).then(
          (r) => msg.respond(JSON.stringify(r.rows[0] ?? null)),
          (e: Error) => msg.respond(JSON.stringify({ error: e.message })),
        );
      },
    });
  serve('select', 'select id, balance, updated_at from bare.accounts where id = $1');
  serve('update', 'update bare.accounts set balance = balance + 1, updated_at = now() where id = $1 returning id, balance, updated_at');
  await nc.flush();
  stop = async () => {
    await nc.drain();
    await pool.end();
  };
} else {
  const app = Fastify({ logger: false });
  const forward = async (subject: string, id: number) => (await nc.request(`${prefix}.${subject}`, JSON.stringify({ id }), { timeout: 5000 })).json();
  let n = 0;
  app.get('/select', async () => forward('select', (n++ % BARE_ROWS) + 1));
  app.post('/update', async () => forward('update', (n++ % BARE_ROWS) + 1));
  url = await app.listen({ port: 0, host: '127.0.0.1' });
  stop = async () => {
    await app.close();
    await nc.drain();
  };
}

function memory(): MemoryReport {
  const m = process.memoryUsage();
  const cpu = process.cpuUsage();
  return { type: 'memory', rss: m.rss, heapUsed: m.heapUsed, external: m.external, cpuMicros: cpu.user + cpu.system };
}
process.on('message', (msg: { type?: string }) => {
  if (msg?.type === 'memory') process.send!(memory());
  if (msg?.type === 'stop') void stop().finally(() => process.exit(0));
});
process.on('disconnect', () => void stop().finally(() => process.exit(0)));
process.send!({ type: 'ready', url, pid: process.pid });
