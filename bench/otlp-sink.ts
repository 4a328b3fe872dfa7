// A local OTLP/HTTP collector for the tracing runs (BENCH_TRACING): it takes every export the
// processes send (protobuf, the exporter's default) and drops it, counting requests and bytes,
// so that what is measured is what tracing costs the processes, not a collector's work.
import http from 'node:http';

export interface SinkStats {
  type: 'stats';
  exports: number;
  bytes: number;
}

const stats: SinkStats = { type: 'stats', exports: 0, bytes: 0 };
const server = http.createServer((req, res) => {
  req.on('data', (c: Buffer) => {
    stats.bytes += c.length;
  });
  req.on('end', () => {
    if (req.url === '/v1/traces') stats.exports++;
    // An empty ExportTraceServiceResponse: everything accepted.
    res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
  });
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  process.send!({ type: 'ready', url: `http://127.0.0.1:${port}` });
});
process.on('message', (msg: { type?: string }) => {
  if (msg?.type === 'stats') process.send!(stats);
  if (msg?.type === 'stop') server.close(() => process.exit(0));
});
process.on('disconnect', () => process.exit(0));
