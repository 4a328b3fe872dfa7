// The error envelope everywhere, body handling and the admin API's own rules.
import t from 'tap';
import { startHarness, ADMIN_TOKEN } from './support/harness.ts';
import { fakeService } from './support/fake-service.ts';

t.test('envelope, bodies, admin', async (t) => {
  const h = await startHarness();
  const fake = await fakeService(h, 'players.create');
  t.teardown(async () => {
    await fake.close();
    await h.close();
  });
  const op = await h.createOperator();
  const c = op.sandboxClient;
  const gw = h.gateways[0];

  t.test('unknown routes: 404 NOT_FOUND in the envelope with X-Request-Id', async (t) => {
    for (const path of ['/api/v1/nope', '/nothing-here']) {
      const res = await fetch(`${gw!.publicUrl}${path}`);
      const body = (await res.json()) as any;
      t.equal(res.status, 404);
      t.equal(body.error.code, 'NOT_FOUND');
      t.equal(body.error.requestId, res.headers.get('x-request-id'));
    }
  });

  t.test('body rules', async (t) => {
    const k = (n: number) => ({ 'idempotency-key': `body-rules-${n}` });
    const notJson = await c.post('/players', '{nope', k(1));
    t.equal(notJson.status, 422);
    t.same(notJson.body.error.details, { in: 'body', issues: [{ path: '/', message: 'The body is not valid JSON.' }] });
    const array = await c.post('/players', '[1,2]', k(2));
    t.equal(array.body.error.details.issues[0].message, 'The body must be a JSON object.');
    const noCoercion = await c.post('/players', { externalId: 1, name: 'Ana', email: 'ana@example.com', cpf: '52998224725', birthDate: '1990-01-01' }, k(3));
    t.equal(noCoercion.status, 422);
    t.same(
      noCoercion.body.error.details.issues.map((i: any) => i.path),
      ['/externalId'],
    );
    const everyField = await c.post('/players', { externalId: '', name: 'A', email: 'nope', cpf: '12345678900', phone: '123', birthDate: '2020-02-30' }, k(4));
    t.same(everyField.body.error.details.issues.map((i: any) => i.path).sort(), ['/birthDate', '/cpf', '/email', '/externalId', '/name', '/phone']);
    const missing = await c.post('/players', {}, k(5));
    t.same(missing.body.error.details.issues.map((i: any) => i.path).sort(), ['/birthDate', '/cpf', '/email', '/externalId', '/name']);
    const big = await c.post('/players', { pad: 'x'.repeat(110 * 1024) }, k(6));
    t.equal(big.status, 413);
    t.equal(big.body.error.code, 'PAYLOAD_TOO_LARGE');
    const unknownFieldsIgnored = await c.post(
      '/players',
      { externalId: 'e1', name: 'Ana Souza', email: 'ana@example.com', cpf: '52998224725', birthDate: '1990-01-01', extra: true },
      k(7),
    );
    t.equal(unknownFieldsIgnored.status, 201);
    t.equal(fake.calls.length, 1, 'only the valid request reached the service');
  });

  t.test('query validation reports details.in = query', async (t) => {
    const res = await c.get('/players');
    t.equal(res.status, 422);
    t.same(res.body.error.details, { in: 'query', issues: [{ path: '/externalId', message: 'Expected required property' }] });
  });

  t.test('a service that does not answer: 503 SERVICE_UNAVAILABLE with Retry-After', async (t) => {
    const res = await c.get('/games');
    t.equal(res.status, 503);
    t.equal(res.body.error.code, 'SERVICE_UNAVAILABLE');
    t.equal(res.headers.get('retry-after'), '1');
  });

  t.test('health and metrics', async (t) => {
    t.equal((await fetch(`${gw!.publicUrl}/healthz`)).status, 200);
    const ready = await fetch(`${gw!.publicUrl}/readyz`);
    t.equal(ready.status, 503, 'not ready while the domain services are down');
    const body = (await ready.json()) as any;
    t.equal(body.checks.postgres, undefined, 'the edge has no database to check');
    t.equal(body.checks.jetstream, true);
    t.equal(body.checks.nats, true);
    t.equal(body.checks.players, false);
    t.equal((await fetch(`${gw!.publicUrl}/metrics`)).status, 404, 'metrics are not on the public port');
    const withMetrics = await h.startReplica({ METRICS_PORT: '0' });
    await h.clientFor(op.sandbox, withMetrics).get('/me');
    // Its own body: the same signed bytes as an earlier request with another key would be SIGNATURE_REUSED.
    await h.clientFor(op.sandbox, withMetrics).post('/players', { probe: 'metrics' }, { 'idempotency-key': 'metrics-claim-1' });
    const metrics = await (await fetch(withMetrics.metricsUrl!)).text();
    t.match(metrics, /http_request_duration_seconds_bucket\{[^}]*route="\/api\/v1\/me"/, 'on the internal METRICS_PORT: request durations by route');
    t.match(metrics, /bo_idempotency_outcomes_total\{outcome="claimed"\} 1/, 'idempotency outcomes');
    t.match(metrics, /bo_rate_limit_refusals_total 0/, 'rate-limit refusals');
    // The probes k8s uses, beside the metrics: the gateway's own dependencies, not the services.
    const internal = new URL(withMetrics.metricsUrl!);
    t.equal((await fetch(new URL('/livez', internal))).status, 200, 'internal /livez');
    const internalReady = await fetch(new URL('/readyz', internal));
    t.same(
      { status: internalReady.status, body: await internalReady.json() },
      { status: 200, body: { status: 'ready', checks: { nats: 'ok', jetstream: 'ok' } } },
      'internal /readyz: ready with the services down (the public /readyz pings them)',
    );
  });

  t.test('admin API: bearer token, secrets once and sealed at rest, audit', async (t) => {
    const noToken = await fetch(`${gw!.adminUrl}/admin/operators`);
    t.equal(noToken.status, 401);
    t.equal(((await noToken.json()) as any).error.code, 'UNAUTHORIZED');
    const wrong = await fetch(`${gw!.adminUrl}/admin/operators`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}x` } });
    t.equal(wrong.status, 401);
    t.match(op.sandbox.key, /^bk_test_[A-Za-z0-9]{32}$/);
    t.match(op.production.key, /^bk_live_/);
    t.match(op.sandbox.secret, /^sk_/);
    t.match(op.sandbox.webhookSecret, /^whsec_/);
    t.equal(Buffer.from(op.sandbox.webhookSecret.slice(6), 'base64').length, 32);
    const got = await h.admin('GET', `/admin/operators/${op.operator.id}`);
    t.equal(got.status, 200);
    t.notMatch(JSON.stringify(got.body), /sk_|whsec_|bk_/, 'secrets and keys are not shown again');
    const dump =
      JSON.stringify(await h.operators.orm.em.fork().execute('select * from operators.credentials')) +
      JSON.stringify(await h.operators.orm.em.fork().execute('select * from operators.brands'));
    for (const secret of [op.sandbox.secret, op.production.secret, op.sandbox.webhookSecret, op.sandbox.key])
      t.notOk(dump.includes(secret), 'not stored in plain text');
    t.equal((await h.admin('PUT', `/admin/operators/${op.operator.id}/rate-limit`, { perMinute: 1200 })).body.rateLimitPerMinute, 1200);
    const bad = await h.admin('PUT', `/admin/operators/${op.operator.id}/rate-limit`, { perMinute: 0 });
    t.equal(bad.status, 422);
    t.equal((await h.admin('POST', '/admin/operators/op_missing/suspend')).body.error.code, 'OPERATOR_NOT_FOUND');
    const audit = await h.admin('GET', `/admin/audit?target=operator:${op.operator.id}`);
    const actions = audit.body.data.map((a: any) => a.action);
    t.same(actions, ['adminSetRateLimit', 'adminCreateOperator']);
    t.equal(audit.body.data[0].before.rateLimitPerMinute, 600);
    t.equal(audit.body.data[0].after.rateLimitPerMinute, 1200);
    t.equal(audit.body.data[0].actor, 'admin');
  });
});
