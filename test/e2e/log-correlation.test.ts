// The log lines of one request, in every process that handled it, name the request and its trace:
// real processes (tracing on, exported to a local OTLP receiver), the gateway's and the players
// service's log output captured, one operator request and one admin request followed through them.
import t from 'tap';
import { waitFor } from '@bo/service-kit/testing';
import { startStack, playerInput, uniq } from './support/stack.ts';
import { startOtlpReceiver, tracingEnv } from './support/otlp-receiver.ts';

type Line = Record<string, unknown>;
const parsed = (lines: string[]): Line[] =>
  lines.flatMap((l) => {
    try {
      return [JSON.parse(l) as Line];
    } catch {
      return [];
    }
  });

t.test('every log line of a request carries its requestId, traceId and spanId; admin lines name the actor', async (t) => {
  const otlp = await startOtlpReceiver();
  t.teardown(() => otlp.close());
  const stack = await startStack({ ...tracingEnv(otlp.endpoint), LOG_LEVEL: 'debug' });
  t.teardown(() => stack.close());
  const op = await stack.createOperator('Logs Bets');

  const created = await op.sandboxClient.post('/players', playerInput(uniq('log')), { 'idempotency-key': uniq('k') });
  t.equal(created.status, 201);
  const requestId = created.headers.get('x-request-id')!;
  t.match(requestId, /^req_/, 'the request has an id');

  const linesOf = (c: 'gateway' | 'players') => parsed(stack.logs.get(c) ?? []).filter((l) => l.requestId === requestId);
  // The access line is written as the response ends; the service's as it answers.
  await waitFor(async () => linesOf('gateway').some((l) => l.msg === 'request') && linesOf('players').length > 0, {
    timeoutMs: 30_000,
    intervalMs: 50,
    what: "the request's log lines",
  });
  const gateway = linesOf('gateway');
  const players = linesOf('players');
  const access = gateway.find((l) => l.msg === 'request')!;
  t.match(access, { requestId, status: 201, route: '/api/v1/players' }, 'the access line');
  t.match(access.traceId, /^[0-9a-f]{32}$/, 'the access line names the trace');
  t.match(access.spanId, /^[0-9a-f]{16}$/, 'and the span');
  t.ok(
    players.some((l) => l.msg === 'request answered' && l.subject === 'players.create'),
    "the players service's lines of the request carry its requestId",
  );
  t.same([...new Set(players.map((l) => l.traceId))], [access.traceId], "the service's lines are in the gateway's trace");
  t.ok(
    players.every((l) => typeof l.spanId === 'string' && l.spanId !== access.spanId),
    "with the service's own span",
  );
  // Every line the players service wrote while answering an operation names its request and
  // trace (the gateway's readiness pings carry no request).
  const answered = parsed(stack.logs.get('players') ?? []).filter((l) => l.msg === 'request answered' && !String(l.subject).endsWith('.ping'));
  t.ok(
    answered.every((l) => typeof l.requestId === 'string' && typeof l.traceId === 'string'),
    'no line of a request handling is without its request and trace',
  );

  // The admin API's access line names who acted.
  const listed = await stack.admin('GET', '/admin/operators', undefined, 'ana.souza');
  t.equal(listed.status, 200);
  await waitFor(async () => parsed(stack.logs.get('gateway') ?? []).some((l) => l.msg === 'request' && l.method === 'GET' && l.route === '/admin/operators'), {
    timeoutMs: 30_000,
    intervalMs: 50,
    what: "the admin request's access line",
  });
  const adminLine = parsed(stack.logs.get('gateway') ?? []).find((l) => l.msg === 'request' && l.method === 'GET' && l.route === '/admin/operators')!;
  t.match(adminLine.actor, /^stand-in:ana\.souza$/, 'the admin access line names the actor');
  t.match(adminLine.requestId, /^req_/);
});
