// The operators service over NATS, as the gateway asks it: an operator created through the admin
// operation is found by its key's hash (the secret sealed), suspending it broadcasts the change
// before the answer and shows in operators.status.get, each change is audited in its transaction,
// the gateway's messages are refused to any other caller, and a service token identifies its role.
import { createHash } from 'node:crypto';
import t from 'tap';
import { gatewayInvalidateSubject, operatorMessages, type CreatedOperator, type OperatorChanged } from '@bo/contracts';
import { openSecret, DEV_MASTER_KEY } from '@bo/service-kit';
import { adminScope, internalScope, ok, startStack } from '@bo/test-support';
import { operatorsService } from '../src/service.ts';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const gateway = internalScope('gateway');

t.test('operators service', async (t) => {
  const stack = await startStack(t, 'opsvc', [operatorsService]);
  const created = ok<CreatedOperator>(await stack.call('operators.admin.create', { scope: adminScope, body: { name: 'Nats Bets' } }));
  const operatorId = created.operator.id;

  t.test('a key is found by its hash, its secret sealed; an unknown one is null', async (t) => {
    const found = ok<any>(await stack.call(operatorMessages.credential.subject, { scope: gateway, body: { keyHash: sha256(created.sandbox.key) } }));
    t.match(found.credential, { operatorId, operatorStatus: 'active', environment: 'sandbox', brand: { id: created.sandbox.brandId }, expiresAt: null });
    t.notMatch(JSON.stringify(found), created.sandbox.secret, 'the secret never travels in clear');
    t.equal(openSecret(found.credential.secretSealed, DEV_MASTER_KEY), created.sandbox.secret, 'sealed under SECRETS_MASTER_KEY');
    const unknown = ok<any>(await stack.call(operatorMessages.credential.subject, { scope: gateway, body: { keyHash: sha256('bk_test_nope') } }));
    t.equal(unknown.credential, null);
  });

  t.test('brands by name, one environment, one operator; a brand by id for the services (issue #61)', async (t) => {
    const other = ok<CreatedOperator>(await stack.call('operators.admin.create', { scope: adminScope, body: { name: 'Prado Apostas' } }));
    const list = async (query: Record<string, unknown>) =>
      ok<{ data: Array<{ id: string; operatorName: string; environment: string }> }>(
        await stack.call('operators.admin.listBrands', { scope: adminScope, query }),
      ).data;
    t.same(
      (await list({ q: 'prado' })).map((b) => [b.operatorName, b.environment, b.id]),
      [
        ['Prado Apostas', 'production', other.production.brandId],
        ['Prado Apostas', 'sandbox', other.sandbox.brandId],
      ],
      'by a part of the name, any case: production first',
    );
    t.same(
      (await list({ environment: 'sandbox' })).map((b) => b.id).sort(),
      [created.sandbox.brandId, other.sandbox.brandId].sort(),
      "every operator's sandbox brand",
    );
    t.same((await list({ operatorId })).map((b) => b.id).sort(), [created.production.brandId, created.sandbox.brandId].sort(), 'one operator');
    t.same(await list({ q: '%' }), [], 'no wildcards');
    const get = (brandId: string, scope: typeof adminScope | ReturnType<typeof internalScope> = internalScope('compliance')) =>
      stack.call<any>('operators.brands.get', { scope, body: { brandId } });
    t.match(ok(await get(other.sandbox.brandId)), {
      brand: { id: other.sandbox.brandId, operatorId: other.operator.id, operatorName: 'Prado Apostas', environment: 'sandbox', currency: 'BRL' },
    });
    t.same(ok(await get('Demo Operator')), { brand: null }, 'a name typed by hand is no brand');
    t.match(await get(other.sandbox.brandId, adminScope), { ok: false, error: { code: 'UNAUTHORIZED' } }, 'internal only');
  });

  t.test("the gateway's messages are internal only", async (t) => {
    const asAdmin = await stack.call(operatorMessages.credential.subject, { scope: adminScope, body: { keyHash: sha256(created.sandbox.key) } });
    t.match(asAdmin, { ok: false, error: { code: 'UNAUTHORIZED' } });
    const badHash = await stack.call(operatorMessages.credential.subject, { scope: gateway, body: { keyHash: 'not-a-hash' } });
    t.match(badHash, { ok: false, error: { code: 'VALIDATION_ERROR' } });
  });

  t.test('a suspension is broadcast before the answer, and read by status', async (t) => {
    const seen: string[] = [];
    const sub = stack.nc.subscribe(gatewayInvalidateSubject(stack.prefix), {
      callback: (_e, m) => {
        seen.push(m.json<OperatorChanged>().operatorId);
      },
    });
    await stack.nc.flush();
    const suspended = ok<any>(await stack.call('operators.admin.suspend', { scope: adminScope, params: { id: operatorId } }));
    t.equal(suspended.status, 'suspended');
    t.same(seen, [operatorId], 'the broadcast arrived before the answer (same connection order)');
    sub.unsubscribe();
    const status = ok<any>(await stack.call(operatorMessages.status.subject, { scope: gateway, body: { operatorId } }));
    t.same(status, { status: 'suspended' });
    t.same(ok<any>(await stack.call(operatorMessages.status.subject, { scope: gateway, body: { operatorId: 'op_none' } })), { status: null });
  });

  t.test('each change is audited in its transaction with its actor and person, once under its key', async (t) => {
    const mine = ok<any>(await stack.call('operators.admin.listAudit', { scope: adminScope, query: { target: `operator:${operatorId}` } }));
    t.same(
      mine.data.map((r: any) => [r.action, r.actor]),
      [
        ['adminSuspendOperator', 'test-admin'],
        ['adminCreateOperator', 'test-admin'],
      ],
    );
    const ana = { kind: 'admin' as const, actor: 'user:ana@ourteam.example', personId: 'usr_ana' };
    const setRate = () =>
      stack.call('operators.admin.setRateLimit', { scope: ana, key: 'rate-limit-once', params: { id: operatorId }, body: { perMinute: 900 } });
    ok(await setRate());
    // Its answer lost (the service killed after the commit, before keeping it): the retry runs it again under the key.
    await stack.services.get('operators')!.sql.query(`delete from operators.processed_requests where idempotency_key = 'rate-limit-once'`);
    const again = await setRate();
    t.equal(again.ok && again.replayed, undefined, 'run again, not replayed');
    const rows = ok<any>(
      await stack.call('operators.admin.listAudit', { scope: adminScope, query: { target: `operator:${operatorId}`, action: 'adminSetRateLimit' } }),
    );
    t.match(rows.data, [{ actor: 'user:ana@ourteam.example', actorId: 'usr_ana', after: { rateLimitPerMinute: 900 } }], 'the row names the person');
    t.equal(rows.data.length, 1, 'one row for the request, however often it ran');
  });

  t.test('a service token identifies its role; a revoked one nothing', async (t) => {
    const token = ok<any>(await stack.call('operators.admin.createToken', { scope: adminScope, body: { name: 'ci-bot', role: 'support' } }));
    const who = ok<any>(await stack.call(operatorMessages.identifyToken.subject, { scope: gateway, body: { bearer: token.secret } }));
    t.same(who.identity, { actor: 'token:ci-bot', role: 'support', root: false });
    ok(await stack.call('operators.admin.revokeToken', { scope: adminScope, params: { id: token.token.id } }));
    const gone = ok<any>(await stack.call(operatorMessages.identifyToken.subject, { scope: gateway, body: { bearer: token.secret } }));
    t.equal(gone.identity, null);
  });
});
