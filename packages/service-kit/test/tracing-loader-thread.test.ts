// Where Node's in-thread module hooks cannot carry import-in-the-middle (Node before 24.11.1 and
// 22.22.3), tracing.ts registers its hooks on the loader thread instead: the same packages are
// patched, so Postgres statements, HTTP requests and log lines are traced all the same.
import t from 'tap';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import { trace } from '@opentelemetry/api';
import { startTracing, stopTracing } from '../src/tracing.ts';

const exporter = new InMemorySpanExporter();
const processor = new SimpleSpanProcessor({ exporter });
await startTracing('loader-thread-test', { spanProcessors: [processor], loaderThread: true });
t.teardown(() => stopTracing());
const { default: http } = await import('node:http');
const { default: pg } = await import('pg');
const { createLogger } = await import('../src/log.ts');
const { serverDatabaseUrl } = await import('../src/testing.ts');

t.test('pg, node:http and pino are instrumented through the loader thread', async (t) => {
  const lines: string[] = [];
  const log = createLogger('loader-thread-test', 'info', { write: (line: string) => lines.push(line) } as never);
  const server = http.createServer((_req, res) => {
    log.info('answered');
    res.end('ok');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(() => new Promise<void>((r) => server.close(() => r())));
  const pool = new pg.Pool({ connectionString: serverDatabaseUrl(), max: 1 });
  t.teardown(() => pool.end());
  const traceId = await trace.getTracer('test').startActiveSpan('caller', async (span) => {
    await new Promise<void>((resolve, reject) =>
      http.get(`http://127.0.0.1:${(server.address() as { port: number }).port}/x`, (res) => res.resume().on('end', resolve)).on('error', reject),
    );
    await pool.query('select count(*) from pg_class where relname = $1', ['x']);
    span.end();
    return span.spanContext().traceId;
  });
  // An ended span reaches the exporter once the resource's detected attributes have settled, which
  // may be after the test's last await: wait for the processor's pending exports first.
  await processor.forceFlush();
  const spans = exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId);
  t.same(
    spans.map((s) => `${s.instrumentationScope.name}: ${s.name}`).sort(),
    [
      '@opentelemetry/instrumentation-http: GET',
      '@opentelemetry/instrumentation-http: GET',
      '@opentelemetry/instrumentation-pg: SELECT pg_class',
      'test: caller',
    ],
    'the HTTP client and server spans and the statement, by their instrumentations',
  );
  t.equal(JSON.parse(lines[0]!).traceId, traceId, "the log line carries the trace's id");
});
