// One access-log line per request at info level, findable by the X-Request-Id an operator quotes.
import t from 'tap';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { startServiceWith } from '@bo/service-kit';
import { createTestDatabase, testNatsUrl, testPrefix, cleanupNatsPrefix } from '@bo/service-kit/testing';
import { operatorsService } from '@bo/operators';
import { OperatorClient } from '@bo/contracts';
import { startGateway } from '../src/gateway.ts';
import { loadGatewayConfig } from '../src/config.ts';
import { ADMIN_TOKEN, answerComplianceProfiles } from './support/harness.ts';

t.test('access log', async (t) => {
  const db = await createTestDatabase('gwlog');
  const prefix = testPrefix('gwlog');
  const lines: any[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const l of chunk.toString().split('\n')) if (l) lines.push(JSON.parse(l));
      done();
    },
  });
  const log = pino({ name: 'gateway', level: 'info' }, sink);
  const operators = await startServiceWith(operatorsService, { DATABASE_URL: db.url, NATS_URL: testNatsUrl(), NATS_PREFIX: prefix, LOG_LEVEL: 'warn' });
  answerComplianceProfiles(operators.nc, prefix);
  const gw = await startGateway(
    loadGatewayConfig({
      NATS_URL: testNatsUrl(),
      NATS_PREFIX: prefix,
      PORT: '0',
      ADMIN_PORT: '0',
      ADMIN_TOKEN,
      LOG_LEVEL: 'info',
    }),
    { log },
  );
  t.teardown(async () => {
    await gw.stop();
    await operators.stop();
    await cleanupNatsPrefix(prefix);
    await db.drop();
  });

  const created = await fetch(`${gw.adminUrl}/admin/operators`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Logged' }),
  }).then((r) => r.json() as Promise<any>);
  const client = new OperatorClient({ baseUrl: `${gw.publicUrl}/api/v1`, key: created.sandbox.key, secret: created.sandbox.secret });
  const me = await client.get('/me');
  const missing = await client.get('/players/plr_nope/wallet');
  const requestId = me.headers.get('x-request-id');
  const line = lines.find((l) => l.msg === 'request' && l.requestId === requestId);
  t.match(line, { level: 30, requestId, operatorId: created.operator.id, environment: 'sandbox', method: 'GET', route: '/api/v1/me', status: 200 });
  t.type(line.durationMs, 'number');
  const failed = lines.find((l) => l.msg === 'request' && l.requestId === missing.headers.get('x-request-id'));
  t.match(failed, { route: '/api/v1/players/:playerId/wallet', status: 503 }, 'failures too (no wallet service runs here)');
  t.notMatch(JSON.stringify(lines), created.sandbox.secret, 'no secret is ever logged');
});
