// Webhook secrets are issued by the gateway and pushed to the webhooks service. An operator created
// while that service is down still works, and its endpoints reach the service once it answers.
import t from 'tap';
import { startHarness } from './support/harness.ts';
import { fakeService } from './support/fake-service.ts';

t.test('webhook endpoints are pushed again until the webhooks service has them', async (t) => {
  const h = await startHarness({ RPC_TIMEOUT_MS: '300' });
  t.teardown(() => h.close());
  const gw = h.gateways[0];

  const op = await h.createOperator({ name: 'Early Bird' });
  t.equal((await op.sandboxClient.get('/me')).status, 200, 'the operator works without the webhooks service');
  const pending = await gw.orm.em.fork().execute<{ n: string }[]>(`select count(*) n from gateway.brands where operator_id = ? and webhook_synced_at is null`, [op.operator.id]);
  t.equal(pending[0].n, '2', 'both environments wait to be pushed');

  const webhooks = await fakeService(h.prefix, 'webhooks.endpoints.upsert', 'webhooks');
  t.teardown(() => webhooks.close());
  webhooks.respond = async (req) => ({ ok: true, status: 200, body: req.body });
  t.equal(await gw.operators.syncWebhookEndpoints(), 2);
  const pushed = webhooks.calls.map((c) => c.body as { operatorId: string; environment: string; brandId: string; secret: string; url: string | null });
  t.same(pushed.map((p) => p.environment).sort(), ['production', 'sandbox']);
  const sandbox = pushed.find((p) => p.environment === 'sandbox')!;
  t.equal(sandbox.secret, op.sandbox.webhookSecret, 'the secret shown once at creation is the one pushed');
  t.equal(sandbox.brandId, op.sandbox.brandId);
  t.equal(sandbox.url, null);
  t.equal(webhooks.calls[0].ctx.scope.kind, 'internal');
  t.equal(await gw.operators.syncWebhookEndpoints(), 0, 'nothing left to push');

  // Setting a URL is validated by the webhooks service first; its refusal reaches the admin.
  webhooks.respond = async () => ({ ok: false, error: { code: 'VALIDATION_ERROR', message: 'bad url', details: { in: 'body', issues: [{ path: '/url', message: 'must be https' }] } } });
  const refused = await h.admin('PUT', `/admin/operators/${op.operator.id}/webhooks/production`, { url: 'http://example.com/hook' });
  t.equal(refused.status, 422);
  t.same(refused.body.error.details.issues, [{ path: '/url', message: 'must be https' }]);
  t.equal((await h.admin('GET', `/admin/operators/${op.operator.id}`)).body.webhookUrls.production, null, 'a refused URL is not recorded');
  webhooks.respond = async (req) => ({ ok: true, status: 200, body: req.body });
  const set = await h.admin('PUT', `/admin/operators/${op.operator.id}/webhooks/production`, { url: 'https://example.com/hook' });
  t.equal(set.status, 200);
  t.equal(set.body.webhookUrls.production, 'https://example.com/hook');
  await webhooks.close();
  const down = await h.admin('PUT', `/admin/operators/${op.operator.id}/webhooks/sandbox`, { url: 'https://example.com/s' });
  t.equal(down.status, 503, 'without the webhooks service a URL cannot be validated, so it is not set');
});
