// Every public operation has a typed method, and each sends the request the contract describes:
// method, path (with /api/v1), signature the gateway's own code accepts, Idempotency-Key exactly
// on the idempotent operations, JSON body.
import t from 'tap';
import { BackOffice, OPERATIONS, type OperationId } from '../src/index.ts';
import { KEY, SECRET, fakeTime, startFakeApi } from './support/fake-api.ts';

// `satisfies Record<OperationId, ...>`: a new contract operation fails the typecheck until it has a method here.
const callEveryOperation = {
  getMe: (s) => s.me.get(),
  createPlayer: (s) => s.players.create({ externalId: 'ext-1', name: 'Ana Souza', email: 'ana@example.com', cpf: '52998224725', birthDate: '1990-05-17' }),
  findPlayers: (s) => s.players.find({ externalId: 'ext 1/ç' }),
  getPlayer: (s) => s.players.get('plr_1'),
  reportLogin: (s) => s.players.reportLogin('plr_1'),
  updatePlayer: (s) => s.players.update('plr_1', { gender: 'feminino' }),
  setMarketingConsent: (s) => s.players.setMarketingConsent('plr_1', { consent: false }),
  listMarketingSuppressions: (s) => s.marketing.suppressions({ date: '2026-11-21' }),
  sandboxAddImpediment: (s) => s.sandbox.addImpediment({ cpf: '52998224725', reason: 'social_program' }),
  sandboxRemoveImpediment: (s) => s.sandbox.removeImpediment('52998224725'),
  sandboxCheckImpediments: (s) => s.sandbox.checkImpediments('plr_1'),
  sandboxNextDay: (s) => s.sandbox.nextDay('plr_1'),
  sandboxSetHarmMarkers: (s) => s.sandbox.setHarmMarkers('plr_1', ['chasing']),
  sandboxAddScreeningEntry: (s) => s.sandbox.addScreeningEntry({ list: 'pep', cpf: '52998224725' }),
  sandboxRemoveScreeningEntry: (s) => s.sandbox.removeScreeningEntry('scr_1'),
  sandboxAddPixKey: (s) => s.sandbox.addPixKey({ key: 'ana@example.com', ownerCpf: '52998224725' }),
  sandboxRemovePixKey: (s) => s.sandbox.removePixKey('ana@example.com'),
  getKyc: (s) => s.kyc.get('plr_1'),
  submitKyc: (s) => s.kyc.submit('plr_1', { documentType: 'rg', reference: 's3://docs/1' }),
  sandboxKycDecision: (s) => s.sandbox.decideKyc('plr_1', { status: 'aprovado' }),
  getWallet: (s) => s.wallet.get('plr_1'),
  listTransactions: (s) => s.wallet.transactions('plr_1', { limit: 2, cursor: 'abc+/=' }),
  createDeposit: (s) => s.deposits.create('plr_1', { amount: '10.00', currency: 'BRL', method: 'pix', externalReference: 'psp-1' }),
  confirmDeposit: (s) => s.deposits.confirm('dep_1'),
  failDeposit: (s) => s.deposits.fail('dep_1', { reason: 'declined' }),
  createWithdrawal: (s) => s.withdrawals.create('plr_1', { amount: '5.00', currency: 'BRL', method: 'pix', destination: 'ana@pix' }),
  getWithdrawal: (s) => s.withdrawals.get('wd_1'),
  cancelWithdrawal: (s) => s.withdrawals.cancel('wd_1'),
  sandboxWithdrawalDecision: (s) => s.sandbox.decideWithdrawal('wd_1', { decision: 'approve' }),
  listGames: (s) => s.games.list(),
  createGameSession: (s) => s.games.createSession('plr_1', { gameId: 'gm_aviator_demo' }),
  endGameSession: (s) => s.games.endSession('plr_1', 'gs_1'),
  endPlayerGameSessions: (s) => s.games.endSessions('plr_1'),
  listPlayerRounds: (s) => s.games.rounds('plr_1', { limit: 2 }),
  getResponsibleGaming: (s) => s.responsibleGaming.get('plr_1'),
  setLimit: (s) => s.responsibleGaming.setLimit('plr_1', 'loss', 'day', { value: '50.00' }),
  removeLimit: (s) => s.responsibleGaming.removeLimit('plr_1', 'wager', 'week'),
  pausePlayer: (s) => s.responsibleGaming.pause('plr_1', { until: '2026-12-01T00:00:00.000Z' }),
  selfExclude: (s) => s.responsibleGaming.selfExclude('plr_1', { months: 3 }),
  testWebhook: (s) => s.webhooks.test(),
  listWebhookEvents: (s) => s.webhooks.events({ limit: 5, deliveryStatus: 'failed' }),
  listWebhookEventAttempts: (s) => s.webhooks.attempts('evt_1'),
  redeliverWebhookEvent: (s) => s.webhooks.redeliver('evt_1'),
  publishTermsVersion: (s) => s.terms.publish({ version: '2026-11', url: 'https://example.com/terms/2026-11' }),
  listTermsVersions: (s) => s.terms.list(),
  acceptTerms: (s) => s.terms.accept('plr_1', { version: '2026-11', ip: '203.0.113.7' }),
  listTermsAcceptances: (s) => s.terms.acceptances('plr_1'),
  recordCommunication: (s) =>
    s.players.recordCommunication('plr_1', { channel: 'email', kind: 'impediment_notice', sentAt: '2026-11-21T10:00:00.000Z', summary: 'Blocked.' }),
  listCommunications: (s) => s.players.communications('plr_1', { limit: 10 }),
  fileDataRequest: (s) => s.dataRequests.file('plr_1', { type: 'access' }),
  listDataRequests: (s) => s.dataRequests.list('plr_1'),
  getDataRequest: (s) => s.dataRequests.get('plr_1', 'dsr_1'),
  getDataRequestFile: (s) => s.dataRequests.download('plr_1', 'dsr_1'),
  getPlayerHarmLevel: (s) => s.responsibleGaming.harmLevel('plr_1'),
} satisfies Record<OperationId, (s: BackOffice) => Promise<unknown>>;

const expected: Record<OperationId, { method: string; target: string; body: unknown }> = {
  getMe: { method: 'GET', target: '/api/v1/me', body: '' },
  createPlayer: {
    method: 'POST',
    target: '/api/v1/players',
    body: { externalId: 'ext-1', name: 'Ana Souza', email: 'ana@example.com', cpf: '52998224725', birthDate: '1990-05-17' },
  },
  findPlayers: { method: 'GET', target: '/api/v1/players?externalId=ext+1%2F%C3%A7', body: '' },
  getPlayer: { method: 'GET', target: '/api/v1/players/plr_1', body: '' },
  reportLogin: { method: 'POST', target: '/api/v1/players/plr_1/logins', body: '' },
  updatePlayer: { method: 'PATCH', target: '/api/v1/players/plr_1', body: { gender: 'feminino' } },
  setMarketingConsent: { method: 'PUT', target: '/api/v1/players/plr_1/marketing-consent', body: { consent: false } },
  listMarketingSuppressions: { method: 'GET', target: '/api/v1/marketing/suppressions?date=2026-11-21', body: '' },
  sandboxAddImpediment: { method: 'POST', target: '/api/v1/sandbox/impediments', body: { cpf: '52998224725', reason: 'social_program' } },
  sandboxRemoveImpediment: { method: 'DELETE', target: '/api/v1/sandbox/impediments/52998224725', body: '' },
  sandboxCheckImpediments: { method: 'POST', target: '/api/v1/sandbox/players/plr_1/impediment-check', body: '' },
  sandboxNextDay: { method: 'POST', target: '/api/v1/sandbox/players/plr_1/next-day', body: '' },
  sandboxSetHarmMarkers: { method: 'PUT', target: '/api/v1/sandbox/players/plr_1/harm-markers', body: { markers: ['chasing'] } },
  sandboxAddScreeningEntry: { method: 'POST', target: '/api/v1/sandbox/screening-entries', body: { list: 'pep', cpf: '52998224725' } },
  sandboxRemoveScreeningEntry: { method: 'DELETE', target: '/api/v1/sandbox/screening-entries/scr_1', body: '' },
  sandboxAddPixKey: { method: 'POST', target: '/api/v1/sandbox/pix-keys', body: { key: 'ana@example.com', ownerCpf: '52998224725' } },
  sandboxRemovePixKey: { method: 'DELETE', target: '/api/v1/sandbox/pix-keys/ana%40example.com', body: '' },
  getKyc: { method: 'GET', target: '/api/v1/players/plr_1/kyc', body: '' },
  submitKyc: { method: 'POST', target: '/api/v1/players/plr_1/kyc/submissions', body: { documentType: 'rg', reference: 's3://docs/1' } },
  sandboxKycDecision: { method: 'POST', target: '/api/v1/sandbox/players/plr_1/kyc/decision', body: { status: 'aprovado' } },
  getWallet: { method: 'GET', target: '/api/v1/players/plr_1/wallet', body: '' },
  listTransactions: { method: 'GET', target: '/api/v1/players/plr_1/transactions?limit=2&cursor=abc%2B%2F%3D', body: '' },
  createDeposit: {
    method: 'POST',
    target: '/api/v1/players/plr_1/deposits',
    body: { amount: '10.00', currency: 'BRL', method: 'pix', externalReference: 'psp-1' },
  },
  confirmDeposit: { method: 'POST', target: '/api/v1/deposits/dep_1/confirm', body: {} },
  failDeposit: { method: 'POST', target: '/api/v1/deposits/dep_1/fail', body: { reason: 'declined' } },
  createWithdrawal: {
    method: 'POST',
    target: '/api/v1/players/plr_1/withdrawals',
    body: { amount: '5.00', currency: 'BRL', method: 'pix', destination: 'ana@pix' },
  },
  getWithdrawal: { method: 'GET', target: '/api/v1/withdrawals/wd_1', body: '' },
  cancelWithdrawal: { method: 'POST', target: '/api/v1/withdrawals/wd_1/cancel', body: {} },
  sandboxWithdrawalDecision: { method: 'POST', target: '/api/v1/sandbox/withdrawals/wd_1/decision', body: { decision: 'approve' } },
  listGames: { method: 'GET', target: '/api/v1/games', body: '' },
  createGameSession: { method: 'POST', target: '/api/v1/players/plr_1/game-sessions', body: { gameId: 'gm_aviator_demo' } },
  endGameSession: { method: 'POST', target: '/api/v1/players/plr_1/game-sessions/gs_1/end', body: {} },
  endPlayerGameSessions: { method: 'POST', target: '/api/v1/players/plr_1/game-sessions/end', body: {} },
  listPlayerRounds: { method: 'GET', target: '/api/v1/players/plr_1/rounds?limit=2', body: '' },
  getResponsibleGaming: { method: 'GET', target: '/api/v1/players/plr_1/responsible-gaming', body: '' },
  setLimit: { method: 'PUT', target: '/api/v1/players/plr_1/limits/loss/day', body: { value: '50.00' } },
  removeLimit: { method: 'DELETE', target: '/api/v1/players/plr_1/limits/wager/week', body: '' },
  pausePlayer: { method: 'POST', target: '/api/v1/players/plr_1/pause', body: { until: '2026-12-01T00:00:00.000Z' } },
  selfExclude: { method: 'POST', target: '/api/v1/players/plr_1/self-exclusion', body: { months: 3 } },
  testWebhook: { method: 'POST', target: '/api/v1/webhooks/test', body: '' },
  listWebhookEvents: { method: 'GET', target: '/api/v1/webhooks/events?limit=5&deliveryStatus=failed', body: '' },
  listWebhookEventAttempts: { method: 'GET', target: '/api/v1/webhooks/events/evt_1/attempts', body: '' },
  redeliverWebhookEvent: { method: 'POST', target: '/api/v1/webhooks/events/evt_1/redeliver', body: '' },
  publishTermsVersion: { method: 'POST', target: '/api/v1/terms-versions', body: { version: '2026-11', url: 'https://example.com/terms/2026-11' } },
  listTermsVersions: { method: 'GET', target: '/api/v1/terms-versions', body: '' },
  acceptTerms: { method: 'POST', target: '/api/v1/players/plr_1/terms-acceptances', body: { version: '2026-11', ip: '203.0.113.7' } },
  listTermsAcceptances: { method: 'GET', target: '/api/v1/players/plr_1/terms-acceptances', body: '' },
  recordCommunication: {
    method: 'POST',
    target: '/api/v1/players/plr_1/communications',
    body: { channel: 'email', kind: 'impediment_notice', sentAt: '2026-11-21T10:00:00.000Z', summary: 'Blocked.' },
  },
  listCommunications: { method: 'GET', target: '/api/v1/players/plr_1/communications?limit=10', body: '' },
  fileDataRequest: { method: 'POST', target: '/api/v1/players/plr_1/data-requests', body: { type: 'access' } },
  listDataRequests: { method: 'GET', target: '/api/v1/players/plr_1/data-requests', body: '' },
  getDataRequest: { method: 'GET', target: '/api/v1/players/plr_1/data-requests/dsr_1', body: '' },
  getDataRequestFile: { method: 'GET', target: '/api/v1/players/plr_1/data-requests/dsr_1/file', body: '' },
  getPlayerHarmLevel: { method: 'GET', target: '/api/v1/players/plr_1/harm-level', body: '' },
};

t.test('every operation sends the contract request, signed', async (t) => {
  const api = await startFakeApi();
  t.teardown(() => api.close());
  const time = fakeTime();
  const sdk = new BackOffice({ baseUrl: api.baseUrl, key: KEY, secret: SECRET, now: time.now, sleep: time.sleep });
  t.same(Object.keys(callEveryOperation).sort(), Object.keys(OPERATIONS).sort(), 'a method for each of the operations');
  for (const id of Object.keys(OPERATIONS) as OperationId[]) {
    api.fallback = { status: 200, body: { op: id } };
    const result = await callEveryOperation[id](sdk);
    const req = api.requests.at(-1)!;
    const idempotent = OPERATIONS[id].idempotent;
    t.same(
      {
        result,
        method: req.method,
        target: req.target,
        body: req.body.length ? JSON.parse(req.body.toString()) : '',
        signatureValid: req.signatureValid,
        key: req.headers['x-operator-key'],
        timestamp: req.headers['x-timestamp'],
        contentType: req.headers['content-type'],
        hasIdempotencyKey: typeof req.headers['idempotency-key'] === 'string',
      },
      {
        result: { op: id },
        ...expected[id],
        signatureValid: true,
        key: KEY,
        timestamp: String(time.now() / 1000),
        contentType: expected[id].body === '' ? undefined : 'application/json',
        hasIdempotencyKey: idempotent,
      },
      id,
    );
  }
  t.equal(api.requests.length, Object.keys(OPERATIONS).length, 'one request each, nothing retried');
});

t.test('request() gives the status, ids and the replay flag', async (t) => {
  const api = await startFakeApi();
  t.teardown(() => api.close());
  const sdk = new BackOffice({ baseUrl: api.baseUrl, key: KEY, secret: SECRET, newIdempotencyKey: () => 'sdk-key-00000001' });
  api.script.push({ status: 200, body: { id: 'dep_1', status: 'confirmed' }, headers: { 'idempotent-replayed': 'true' } });
  const res = await sdk.request('confirmDeposit', { params: { depositId: 'dep_1' }, body: {} });
  t.match(res, { status: 200, body: { id: 'dep_1' }, requestId: 'req_1', idempotencyKey: 'sdk-key-00000001', replayed: true, attempts: 1 });
  const mine = await sdk.request('confirmDeposit', { params: { depositId: 'dep_1' }, body: {} }, { idempotencyKey: 'confirm:dep_1' });
  t.equal(mine.idempotencyKey, 'confirm:dep_1');
  t.same(
    api.requests.map((r) => r.headers['idempotency-key']),
    ['sdk-key-00000001', 'confirm:dep_1'],
    'the caller key is sent as given',
  );
});

t.test('base URL, path parameters and the listing helper', async (t) => {
  const api = await startFakeApi();
  t.teardown(() => api.close());
  const fromOrigin = new BackOffice({ baseUrl: api.origin, key: KEY, secret: SECRET });
  await fromOrigin.me.get();
  const trailingSlash = new BackOffice({ baseUrl: `${api.baseUrl}/`, key: KEY, secret: SECRET });
  await trailingSlash.wallet.get('plr/1 ?#');
  t.same(
    api.requests.map((r) => [r.target, r.signatureValid]),
    [
      ['/api/v1/me', true],
      ['/api/v1/players/plr%2F1%20%3F%23/wallet', true],
    ],
    'an origin gets /api/v1; ids are percent-encoded and the signature covers the encoded path',
  );
  await t.rejects(trailingSlash.wallet.get('..'), TypeError, 'a dot segment is refused before sending');
  await t.rejects(trailingSlash.kyc.get(''), TypeError, 'an empty id is refused');
  t.equal(api.requests.length, 2, 'neither was sent');

  api.script.push(
    { status: 200, body: { data: [{ id: 'le_3' }, { id: 'le_2' }], nextCursor: 'c1' } },
    { status: 200, body: { data: [{ id: 'le_1' }], nextCursor: null } },
  );
  const ids: string[] = [];
  for await (const item of trailingSlash.wallet.allTransactions('plr_1', { limit: 2 })) ids.push(item.id);
  t.same(ids, ['le_3', 'le_2', 'le_1']);
  t.same(
    api.requests.slice(2).map((r) => r.target),
    ['/api/v1/players/plr_1/transactions?limit=2', '/api/v1/players/plr_1/transactions?limit=2&cursor=c1'],
  );
});
