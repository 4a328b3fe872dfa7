// Webhook secrets are issued by the gateway, which owns operators; every endpoint change is written
// to the gateway's outbox in the same transaction and reaches the webhooks service as an internal
// event. An operator created while that service is down still works, and its endpoints arrive
// once the service starts. URL changes are validated by the service first and refused without it.
import t from 'tap';
import { openSecret, startServiceWith, type RunningService } from '@bo/service-kit';
import { testNatsUrl, waitFor } from '@bo/service-kit/testing';
import { webhooksService } from '@bo/webhooks';
import { startHarness } from './support/harness.ts';

interface EndpointRow {
  environment: string;
  brand_id: string;
  url: string | null;
  secret_sealed: string | null;
  version: number;
}

t.test('endpoint changes reach the webhooks service as events, also when it starts late', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const operatorsDb = h.operators.orm.em.fork();

  const op = await h.createOperator({ name: 'Early Bird' });
  t.equal((await op.sandboxClient.get('/me')).status, 200, 'the operator works without the webhooks service');
  const written = await operatorsDb.execute<{ n: string }[]>(
    `select count(*) n from operators.outbox where subject_type = 'webhook.endpoint_changed' and operator_id = ?`,
    [op.operator.id],
  );
  t.equal(written[0]!.n, '2', 'one endpoint event per environment, written with the operator');
  const down = await h.admin('PUT', `/admin/operators/${op.operator.id}/webhooks/sandbox`, { url: 'https://93.184.216.34/s' });
  t.equal(down.status, 503, 'without the webhooks service a URL cannot be validated, so it is not set');

  const webhooks: RunningService = await startServiceWith(webhooksService, {
    DATABASE_URL: h.db.url,
    NATS_URL: testNatsUrl(),
    NATS_PREFIX: h.prefix,
    LOG_LEVEL: 'warn',
  });
  t.teardown(() => webhooks.stop());
  const endpoints = async () =>
    operatorsDb.execute<EndpointRow[]>(
      `select environment, brand_id, url, secret_sealed, version from webhooks.endpoints where operator_id = ? order by environment`,
      [op.operator.id],
    );
  const until = (what: string, done: (rows: EndpointRow[]) => boolean): Promise<EndpointRow[]> =>
    waitFor(
      async () => {
        const rows = await endpoints();
        return done(rows) && rows;
      },
      { what },
    );
  const arrived = await until('both endpoints', (rows) => rows.length === 2);
  t.same(
    arrived.map((r) => r.environment),
    ['production', 'sandbox'],
  );
  const sandbox = arrived.find((r) => r.environment === 'sandbox')!;
  t.equal(
    openSecret(sandbox.secret_sealed!, h.config.SECRETS_MASTER_KEY),
    op.sandbox.webhookSecret,
    'the secret shown once at creation is the one the service signs with',
  );
  t.equal(sandbox.brand_id, op.sandbox.brandId);
  t.equal(sandbox.url, null);
  t.same(
    arrived.map((r) => r.version),
    [1, 1],
  );

  // The service validates a URL before the gateway records it; its refusal reaches the admin.
  const refused = await h.admin('PUT', `/admin/operators/${op.operator.id}/webhooks/production`, { url: 'http://93.184.216.34/hook' });
  t.equal(refused.status, 422);
  t.match(refused.body.error.details.issues, [{ path: '/url', message: /https/ }]);
  t.equal((await h.admin('GET', `/admin/operators/${op.operator.id}`)).body.webhookUrls.production, null, 'a refused URL is not recorded');

  const set = await h.admin('PUT', `/admin/operators/${op.operator.id}/webhooks/production`, { url: 'https://93.184.216.34/hook' });
  t.equal(set.status, 200, JSON.stringify(set.body));
  t.equal(set.body.webhookUrls.production, 'https://93.184.216.34/hook');
  const after = await until('the production URL', (rows) => rows.find((r) => r.environment === 'production')?.url === 'https://93.184.216.34/hook');
  t.equal(after.find((r) => r.environment === 'production')!.version, 2, 'the change carries the gateway version');
  const brands = await operatorsDb.execute<{ environment: string; webhook_version: number }[]>(
    `select environment, webhook_version from operators.brands where operator_id = ? order by environment`,
    [op.operator.id],
  );
  t.same(
    brands.map((b) => b.webhook_version),
    after.map((r) => r.version),
    'both sides agree on each endpoint version',
  );
});
