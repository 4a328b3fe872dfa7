// Registration under Portaria SPA/MF 2.579/2025 and the operator's terms versions, through the
// gateway against the real services (issue 46, docs/players.md): a br-spa registration without its
// loss and time limits is 422 naming them; gender, sign-up IP and the terms accepted are kept; a new
// terms version refuses the next deposit and game session with 403 TERMS_NOT_ACCEPTED until the
// player accepts it (payments and the wallet learn it through players.state and its broadcast).
import t from 'tap';
import { generateCpf } from '@bo/contracts';
import { playerInput, startStack, uniq } from './support/stack.ts';

t.test('br-spa registration data and terms versions through the gateway', async (t) => {
  const stack = await startStack();
  t.teardown(() => stack.close());
  const op = await stack.createOperator('Terms Operator');
  const api = op.sandboxClient;
  t.equal(
    (
      await stack.admin(
        'PUT',
        `/admin/operators/${op.operator.id}/compliance`,
        { profile: 'br-spa', reason: 'the operator is licensed in Brazil' },
        'compliance',
      )
    ).status,
    200,
  );
  const key = () => ({ 'idempotency-key': uniq('k') });

  const noLimits = await api.post('/players', { ...playerInput(uniq('nolim')), cpf: generateCpf() }, key());
  t.same([noLimits.status, noLimits.body.error.code, noLimits.body.error.details.missing], [422, 'VALIDATION_ERROR', ['loss', 'time']]);

  const v1 = await api.post('/terms-versions', { version: '2026-01', url: 'https://acme.example/terms/2026-01' }, key());
  t.same([v1.status, v1.body.status], [201, 'in_force']);
  const cpf = generateCpf();
  const limits = [
    { type: 'loss', period: 'day', value: '1000.00' },
    { type: 'time', period: 'day', value: 600 },
  ];
  const player = await api.post(
    '/players',
    { ...playerInput(uniq('terms')), cpf, limits, gender: 'masculino', signupIp: '198.51.100.23', termsAccepted: { version: '2026-01', ip: '198.51.100.23' } },
    key(),
  );
  t.same([player.status, player.body.gender, player.body.signupIp], [201, 'masculino', '198.51.100.23']);
  const id = player.body.id;
  t.equal((await api.post(`/sandbox/players/${id}/kyc/decision`, { status: 'aprovado' })).status, 200);

  const deposit = () => api.post(`/players/${id}/deposits`, { amount: '10.00', currency: 'BRL', method: 'pix', externalReference: uniq('ref') }, key());
  const session = () => api.post(`/players/${id}/game-sessions`, { gameId: 'gm_aviator_demo' });
  t.equal((await deposit()).status, 201, 'the accepted version in force: deposits go through');
  t.equal((await session()).status, 201, 'and game sessions');

  const v2 = await api.post('/terms-versions', { version: '2026-02' }, key());
  t.equal(v2.status, 201);
  const refusedDeposit = await deposit();
  t.same(
    [refusedDeposit.status, refusedDeposit.body.error.code, refusedDeposit.body.error.details.version],
    [403, 'TERMS_NOT_ACCEPTED', '2026-02'],
    'a new version: the next deposit is refused',
  );
  const refusedSession = await session();
  t.same([refusedSession.status, refusedSession.body.error.code], [403, 'TERMS_NOT_ACCEPTED'], 'and the next game session');

  const accepted = await api.post(`/players/${id}/terms-acceptances`, { version: '2026-02', ip: '198.51.100.24' }, key());
  t.same([accepted.status, accepted.body.version, accepted.body.ip], [201, '2026-02', '198.51.100.24']);
  t.equal((await deposit()).status, 201, 'accepted: deposits again, at once');
  t.equal((await session()).status, 201, 'and game sessions');

  const listed = await api.get(`/players/${id}/terms-acceptances`);
  t.same(
    listed.body.data.map((a: { version: string }) => a.version),
    ['2026-02', '2026-01'],
  );
  const versions = await api.get('/terms-versions');
  t.same(
    versions.body.data.map((v: { version: string; status: string }) => [v.version, v.status]),
    [
      ['2026-02', 'in_force'],
      ['2026-01', 'superseded'],
    ],
  );
  // Another body than the first publication's: the same signed request within a second would be a replay (401 SIGNATURE_REUSED).
  const again = await api.post('/terms-versions', { version: '2026-02', url: 'https://acme.example/terms/again' }, key());
  t.same([again.status, again.body.error.code], [409, 'TERMS_VERSION_EXISTS']);
});
