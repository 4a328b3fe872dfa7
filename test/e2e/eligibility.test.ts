// br-spa eligibility through the gateway's public and admin APIs, against the real services with
// the simulated SPA registry (docs/eligibility.md): the profile switched on by our team, the sandbox
// impediment routes, registration refused neutrally, one player per CPF, logins, the payer on
// confirm, allowed methods, and the registry down (503 with Retry-After).
import t from 'tap';
import { playerInput, startStack, uniq } from './support/stack.ts';

t.test('br-spa eligibility through the gateway', async (t) => {
  const stack = await startStack();
  t.teardown(() => stack.close());
  const op = await stack.createOperator('Eligibility Operator');
  const api = op.sandboxClient;
  const set = await stack.admin(
    'PUT',
    `/admin/operators/${op.operator.id}/compliance`,
    { profile: 'br-spa', reason: 'the operator is licensed in Brazil' },
    'compliance',
  );
  t.equal(set.status, 200);
  t.equal(set.body.profile, 'br-spa');

  const impeded = '111.444.777-35';
  const added = await api.post('/sandbox/impediments', { cpf: impeded, reason: 'social_program' });
  t.same([added.status, added.body], [201, { cpf: '11144477735', reason: 'social_program' }]);
  const notHere = await op.productionClient.post('/sandbox/impediments', { cpf: impeded, reason: 'social_program' });
  t.equal(notHere.body.error.code, 'SANDBOX_ONLY', 'test keys only');

  // br-spa registrations carry the player's loss and time limits (422 otherwise, before the registry is asked).
  const limits = [
    { type: 'loss', period: 'day', value: '1000.00' },
    { type: 'time', period: 'day', value: 600 },
  ];
  const refused = await api.post('/players', { ...playerInput(uniq('imp')), cpf: impeded, limits }, { 'idempotency-key': uniq('k') });
  t.same([refused.status, refused.body.error.code, refused.body.error.message], [403, 'PLAYER_IMPEDED', 'This person cannot bet with this operator.']);
  t.equal(refused.body.error.details, undefined, 'nothing says which list matched');

  const removed = await api.request('DELETE', '/sandbox/impediments/111.444.777-35');
  t.same([removed.status, removed.body], [200, { cpf: '11144477735', removed: true }]);
  const player = await api.post('/players', { ...playerInput(uniq('ok')), cpf: impeded, limits }, { 'idempotency-key': uniq('k') });
  t.equal(player.status, 201);
  const twice = await api.post('/players', { ...playerInput(uniq('dup')), cpf: impeded, limits }, { 'idempotency-key': uniq('k') });
  t.same([twice.status, twice.body.error.code, twice.body.error.details], [409, 'PLAYER_CPF_EXISTS', { playerId: player.body.id }]);

  const login = await api.post(`/players/${player.body.id}/logins`);
  t.same([login.status, login.body], [200, { allowed: true }]);

  const boleto = await api.post(
    `/players/${player.body.id}/deposits`,
    { amount: '10.00', currency: 'BRL', method: 'boleto', externalReference: uniq('ref') },
    { 'idempotency-key': uniq('k') },
  );
  t.same([boleto.status, boleto.body.error.code], [422, 'METHOD_NOT_ALLOWED']);
  const dep = await api.post(
    `/players/${player.body.id}/deposits`,
    { amount: '10.00', currency: 'BRL', method: 'pix', externalReference: uniq('ref') },
    { 'idempotency-key': uniq('k') },
  );
  t.equal(dep.status, 201);
  const noPayer = await api.post(`/deposits/${dep.body.id}/confirm`, {}, { 'idempotency-key': uniq('k') });
  t.same([noPayer.status, noPayer.body.error.code], [422, 'PAYER_REQUIRED']);
  const confirmed = await api.post(`/deposits/${dep.body.id}/confirm`, { payer: { cpf: impeded, name: 'Ana Souza' } }, { 'idempotency-key': uniq('k') });
  t.same([confirmed.status, confirmed.body.status], [200, 'confirmed']);

  // The registry down: a registration is refused with 503 and Retry-After.
  await stack.kill('players', 'SIGTERM');
  await stack.start('players', { IMPEDIMENT_SIMULATOR_DOWN: 'true' });
  await stack.waitReady();
  const down = await api.post('/players', { ...playerInput(uniq('down')), cpf: '390.533.447-05', limits }, { 'idempotency-key': uniq('k') });
  t.same([down.status, down.body.error.code, down.headers.get('retry-after')], [503, 'IMPEDIMENT_CHECK_UNAVAILABLE', '30']);
});
