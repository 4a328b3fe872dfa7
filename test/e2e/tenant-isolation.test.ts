// A sandbox key never sees production data, and one operator never sees another's: through the
// gateway, against the real services.
import t from 'tap';
import { playerInput, startStack } from './support/stack.ts';

t.test('tenant isolation', async (t) => {
  const stack = await startStack();
  t.teardown(() => stack.close());
  const a = await stack.createOperator('Operator A');
  const b = await stack.createOperator('Operator B');

  const created = await a.sandboxClient.post('/players', playerInput('shared-ext'), { 'idempotency-key': 'iso-create-a1' });
  t.equal(created.status, 201);
  const id = created.body.id;
  t.equal(created.body.cpf, '52998224725');

  const others = [
    ['the same operator in production', a.productionClient],
    ['another operator (sandbox)', b.sandboxClient],
    ['another operator (production)', b.productionClient],
  ] as const;
  for (const [who, client] of others) {
    const find = await client.get('/players?externalId=shared-ext');
    t.same(find.body, { data: [] }, `${who}: find by externalId is empty`);
    const byId = await client.get(`/players/${id}`);
    t.same([byId.status, byId.body.error?.code], [404, 'PLAYER_NOT_FOUND'], `${who}: the player by id is 404`);
    const kyc = await client.get(`/players/${id}/kyc`);
    t.equal(kyc.status, 404, `${who}: KYC of the player is 404`);
    t.equal(kyc.body.error.code, 'PLAYER_NOT_FOUND');
    const submit = await client.post(
      `/players/${id}/kyc/submissions`,
      { documentType: 'rg', reference: 'doc-1' },
      { 'idempotency-key': `iso-kyc-${Math.random().toString(36).slice(2)}` },
    );
    t.equal(submit.status, 404, `${who}: cannot submit KYC for the player`);
    const wallet = await client.get(`/players/${id}/wallet`);
    t.equal(wallet.status, 404, `${who}: wallet is 404`);
    const deposit = await client.post(
      `/players/${id}/deposits`,
      { amount: '10.00', currency: 'BRL', method: 'pix', externalReference: `iso-${Math.random()}` },
      { 'idempotency-key': `iso-dep-${Math.random().toString(36).slice(2)}` },
    );
    t.equal(deposit.status, 404, `${who}: cannot deposit for the player`);
    // The same externalId is free in every other brand.
    const own = await client.post('/players', playerInput('shared-ext'), { 'idempotency-key': `iso-own-${Math.random().toString(36).slice(2)}` });
    t.equal(own.status, 201, `${who}: the same externalId is free in its own brand`);
  }
  const sandboxSees = await a.sandboxClient.get('/players?externalId=shared-ext');
  t.equal(sandboxSees.body.data.length, 1);
  t.equal(sandboxSees.body.data[0].id, id, 'the owner still sees exactly its own player');
  t.equal((await a.sandboxClient.get(`/players/${id}`)).body.id, id, 'and reads it by id');

  // The same Idempotency-Key used by another operator is its own scope, not a replay of A's.
  const bSameKey = await b.sandboxClient.post('/players', playerInput('b-other'), { 'idempotency-key': 'iso-create-a1' });
  t.equal(bSameKey.status, 201);
  t.equal(bSameKey.headers.get('idempotent-replayed'), null);
  t.not(bSameKey.body.id, id);
});
