// A Postman v2.1 collection that runs the operator's whole journey as a flow (newman or the
// Postman app), given only baseUrl, operatorKey and operatorSecret (a sandbox credential).
// Requests come from the contracts' operation table; the flow adds example bodies with unique
// values, chains ids between requests through collection variables and tests every response.
import { openApiPath, type Operation } from '@bo/contracts';

/**
 * Collection-level pre-request script. It resolves every variable of the body and the URL ONCE
 * (dynamic variables such as {{$guid}} give a new value per resolution) and writes the resolved
 * bytes back, so what is hashed is what is sent; it signs the real path (path variables and
 * query resolved, with the base URL's path prefix); it sends a fresh Idempotency-Key on every POST.
 */
export const PRE_REQUEST = `// Signs the request as the API requires: X-Operator-Key, X-Timestamp and
// X-Signature = hex HMAC-SHA256(secret, METHOD \\n PATH?QUERY \\n TIMESTAMP \\n sha256hex(body)).
const cryptoJs = require('crypto-js');
const uuid = require('uuid');
const url = pm.request.url;
// {{newCpf}} in a body: a fresh valid CPF (random, check digits computed), kept as {{cpf}} for the
// requests that follow (the payer, the PIX CPF key); a CPF registers once per brand under br-spa, so
// every run registers its own.
function newCpf() {
  let d = [];
  do { d = []; for (let i = 0; i < 9; i++) d.push(Math.floor(Math.random() * 10)); } while (d.every((x) => x === d[0]));
  for (const n of [9, 10]) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += d[i] * (n + 1 - i);
    const r = sum % 11;
    d.push(r < 2 ? 0 : 11 - r);
  }
  return d.join('');
}
if (pm.request.body && pm.request.body.mode === 'raw' && String(pm.request.body.raw).indexOf('{{newCpf}}') !== -1) {
  pm.collectionVariables.set('cpf', newCpf());
  pm.request.body.update({ mode: 'raw', raw: String(pm.request.body.raw).split('{{newCpf}}').join('{{cpf}}'), options: { raw: { language: 'json' } } });
}
// Public documents need no signature.
const isPublic = /\\/(openapi\\.json|changelog|postman\\.json|signing-snippets\\.json|test-vectors\\.json|sdk|docs)$/.test(url.getPath());
function sign() {
const key = pm.variables.get('operatorKey');
const secret = pm.variables.get('operatorSecret');
if (!key || !secret || String(secret).indexOf('...') !== -1) throw new Error('Set operatorKey and operatorSecret (a bk_test_ key and its sk_ secret) first.');
// Resolve dynamic variables once and send exactly the bytes that are signed.
let body = '';
if (pm.request.body && pm.request.body.mode === 'raw' && pm.request.body.raw) {
  body = pm.variables.replaceIn(pm.request.body.raw);
  pm.request.body.update({ mode: 'raw', raw: body, options: { raw: { language: 'json' } } });
}
url.variables.each((v) => { v.value = pm.variables.replaceIn(String(v.value)); });
url.query.each((q) => { q.value = pm.variables.replaceIn(String(q.value)); });
// The path as sent: base URL prefix (/api/v1) + resolved path + query string.
const resolved = pm.variables.replaceIn(url.toString());
const path = resolved.replace(/^[a-z][a-z0-9+.-]*:\\/\\/[^/?#]*/i, '').replace(/#.*$/, '') || '/';
const method = pm.request.method.toUpperCase();
const ts = Math.floor(Date.now() / 1000).toString();
const digest = cryptoJs.SHA256(cryptoJs.enc.Utf8.parse(body)).toString(cryptoJs.enc.Hex);
const signature = cryptoJs.HmacSHA256([method, path, ts, digest].join('\\n'), secret).toString(cryptoJs.enc.Hex);
pm.request.headers.upsert({ key: 'X-Operator-Key', value: key });
pm.request.headers.upsert({ key: 'X-Timestamp', value: ts });
pm.request.headers.upsert({ key: 'X-Signature', value: signature });
// A fresh key per request; required on idempotent operations, accepted on every other POST, PUT and DELETE.
if (method === 'POST' || method === 'PUT' || method === 'PATCH' || method === 'DELETE') pm.request.headers.upsert({ key: 'Idempotency-Key', value: 'pm-' + uuid.v4() });
}
if (!isPublic) sign();`;

/** Tests run after every request: the envelope rules that hold for any answer. */
const COLLECTION_TEST = `pm.test('carries X-Request-Id', () => pm.expect(pm.response.headers.get('X-Request-Id')).to.match(/^req_/));`;

interface FlowStep {
  op: string;
  name: string;
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: Record<string, unknown>;
  /** Statements of the test script; `body` is the parsed JSON response. */
  tests: string[];
  status?: number;
}

const ok = (status: number) => `pm.test('status ${status}', () => pm.response.to.have.status(${status}));`;
const json = 'const body = pm.response.json();';

/** The journey, in order. Unique values use {{$guid}} (resolved once by the pre-request script). */
const FLOW: FlowStep[] = [
  {
    op: 'getMe',
    name: 'Who am I (sandbox credential)',
    tests: [
      json,
      `pm.test('sandbox environment', () => pm.expect(body.operator.environment).to.eql('sandbox'));`,
      `pm.collectionVariables.set('currency', body.brand.currency);`,
      `pm.collectionVariables.set('pauseUntil', new Date(Date.now() + 2 * 86400000).toISOString());`,
    ],
  },
  {
    op: 'publishTermsVersion',
    name: 'Publish a version of your terms (in force now)',
    body: { version: 'postman-{{$guid}}', url: 'https://example.com/terms' },
    status: 201,
    tests: [json, `pm.test('in force', () => pm.expect(body.status).to.eql('in_force'));`, `pm.collectionVariables.set('termsVersion', body.version);`],
  },
  {
    op: 'listTermsVersions',
    name: 'List your terms versions',
    tests: [
      json,
      `pm.test('the new version first, in force', () => pm.expect(body.data[0]).to.include({ version: pm.collectionVariables.get('termsVersion'), status: 'in_force' }));`,
    ],
  },
  {
    op: 'createPlayer',
    name: 'Register a player (br-spa: phone, gender, sign-up IP, address, a loss and a time limit; the terms accepted)',
    body: {
      externalId: 'postman-{{$guid}}',
      name: 'Ana Souza',
      email: 'ana@example.com',
      cpf: '{{newCpf}}',
      phone: '+5511987654321',
      birthDate: '1990-05-17',
      limits: [
        { type: 'loss', period: 'week', value: '1000.00' },
        { type: 'time', period: 'week', value: 600 },
      ],
      gender: 'feminino',
      signupIp: '203.0.113.7',
      address: { street: 'Av. Paulista', number: '1000', district: 'Bela Vista', city: 'São Paulo', state: 'SP', postalCode: '01310-100' },
      termsAccepted: { version: '{{termsVersion}}', ip: '203.0.113.7' },
    },
    tests: [
      json,
      `pm.test('new player is ativo, KYC nao_iniciado, with its CPF', () => { pm.expect(body.status).to.eql('ativo'); pm.expect(body.kycStatus).to.eql('nao_iniciado'); pm.expect(body.cpf).to.eql(pm.collectionVariables.get('cpf')); });`,
      `pm.test('gender and sign-up IP kept', () => { pm.expect(body.gender).to.eql('feminino'); pm.expect(body.signupIp).to.eql('203.0.113.7'); });`,
      `pm.collectionVariables.set('playerId', body.id);`,
      `pm.collectionVariables.set('externalId', body.externalId);`,
    ],
  },
  {
    op: 'acceptTerms',
    name: 'Record an acceptance of the terms (as after a new version)',
    params: { playerId: '{{playerId}}' },
    body: { version: '{{termsVersion}}', ip: '203.0.113.8' },
    status: 201,
    tests: [json, `pm.test('recorded', () => pm.expect(body).to.include({ version: pm.collectionVariables.get('termsVersion'), ip: '203.0.113.8' }));`],
  },
  {
    op: 'listTermsAcceptances',
    name: "The player's acceptances of the terms",
    params: { playerId: '{{playerId}}' },
    tests: [json, `pm.test('at registration and after', () => pm.expect(body.data).to.have.lengthOf(2));`],
  },
  {
    op: 'recordCommunication',
    name: 'Record a message sent to the player',
    params: { playerId: '{{playerId}}' },
    body: { channel: 'email', kind: 'other', sentAt: '2026-01-05T12:00:00.000Z', summary: 'Welcome e-mail with the responsible-gaming tools.' },
    status: 201,
    tests: [
      json,
      `pm.test('recorded, kept five years', () => { pm.expect(body).to.include({ channel: 'email', kind: 'other' }); pm.expect(body.retainUntil).to.be.a('string'); });`,
    ],
  },
  {
    op: 'listCommunications',
    name: "The player's communications log",
    params: { playerId: '{{playerId}}' },
    tests: [json, `pm.test('the message is listed', () => pm.expect(body.data).to.have.lengthOf(1));`],
  },
  {
    op: 'findPlayers',
    name: 'Find the player by externalId',
    query: { externalId: '{{externalId}}' },
    tests: [
      json,
      `pm.test('finds exactly the registered player', () => { pm.expect(body.data).to.have.lengthOf(1); pm.expect(body.data[0].id).to.eql(pm.collectionVariables.get('playerId')); });`,
    ],
  },
  {
    op: 'getPlayer',
    name: 'Get the player by id',
    params: { playerId: '{{playerId}}' },
    tests: [
      json,
      `pm.test('the registered player', () => { pm.expect(body.id).to.eql(pm.collectionVariables.get('playerId')); pm.expect(body.status).to.eql('ativo'); });`,
    ],
  },
  {
    op: 'updatePlayer',
    name: "Correct the player's registration data (never the CPF nor the birth date)",
    params: { playerId: '{{playerId}}' },
    body: { email: 'ana.souza@example.com' },
    tests: [
      json,
      `pm.test('corrected, the CPF unchanged', () => { pm.expect(body.email).to.eql('ana.souza@example.com'); pm.expect(body.cpf).to.eql(pm.collectionVariables.get('cpf')); });`,
    ],
  },
  {
    op: 'setMarketingConsent',
    name: "Record the player's marketing consent",
    params: { playerId: '{{playerId}}' },
    body: { consent: true },
    tests: [json, `pm.test('consent given, marketing allowed', () => pm.expect(body).to.include({ consent: true, allowed: true }));`],
  },
  {
    op: 'listMarketingSuppressions',
    name: 'Who must not be sent marketing on a day',
    query: { date: '2026-01-05' },
    tests: [json, `pm.test('a list for the day', () => { pm.expect(body.date).to.eql('2026-01-05'); pm.expect(body.data).to.be.an('array'); });`],
  },
  {
    op: 'fileDataRequest',
    name: "File the player's access request under the LGPD",
    params: { playerId: '{{playerId}}' },
    body: { type: 'access', reference: 'ticket-42' },
    status: 201,
    tests: [
      json,
      `pm.test('answered with its file', () => { pm.expect(body).to.include({ type: 'access', status: 'answered', reference: 'ticket-42' }); pm.expect(body.answer.file.sha256).to.have.lengthOf(64); });`,
      "pm.collectionVariables.set('dataRequestId', body.id);",
    ],
  },
  {
    op: 'listDataRequests',
    name: "The player's data requests",
    params: { playerId: '{{playerId}}' },
    tests: [json, `pm.test('the request is listed', () => pm.expect(body.data.map((r) => r.id)).to.include(pm.collectionVariables.get('dataRequestId')));`],
  },
  {
    op: 'getDataRequest',
    name: 'One data request with its answer',
    params: { playerId: '{{playerId}}', requestId: '{{dataRequestId}}' },
    tests: [
      json,
      `pm.test('answered within the 15 days', () => { pm.expect(body.status).to.eql('answered'); pm.expect(body.dueAt > body.answeredAt).to.eql(true); });`,
    ],
  },
  {
    op: 'getDataRequestFile',
    name: "The access request's file: every personal datum by category",
    params: { playerId: '{{playerId}}', requestId: '{{dataRequestId}}' },
    tests: [
      json,
      `pm.test("the player's registration in it", () => { pm.expect(body.format).to.eql('bo.personal-data/1'); pm.expect(body.categories.find((c) => c.category === 'identity').tables[0].rows[0].id).to.eql(pm.collectionVariables.get('playerId')); });`,
    ],
  },
  {
    op: 'reportLogin',
    name: "Report a login (under br-spa: the day's impediment check)",
    params: { playerId: '{{playerId}}' },
    tests: [json, `pm.test('allowed', () => pm.expect(body.allowed).to.eql(true));`],
  },
  {
    op: 'sandboxAddImpediment',
    name: 'Sandbox: put a CPF on the simulated SPA impediment registry',
    body: { cpf: '111.444.777-35', reason: 'central_self_exclusion' },
    status: 201,
    tests: [json, `pm.test('CPF as digits', () => pm.expect(body.cpf).to.eql('11144477735'));`],
  },
  {
    op: 'sandboxRemoveImpediment',
    name: 'Sandbox: take it off again',
    params: { cpf: '11144477735' },
    tests: [json, `pm.test('removed', () => pm.expect(body.removed).to.eql(true));`],
  },
  {
    op: 'sandboxCheckImpediments',
    name: "Sandbox: run the player's impediment check now, as the next day's first login would",
    params: { playerId: '{{playerId}}' },
    tests: [
      json,
      `pm.test('not impeded (br-spa), or nobody asked (off); still ativo', () => { pm.expect(['not_impeded', 'not_required']).to.include(body.outcome); pm.expect(body.status).to.eql('ativo'); });`,
    ],
  },
  {
    op: 'sandboxNextDay',
    name: "Sandbox: move the player's day forward (the day's check, windows, cooling-offs and game usage a day older)",
    params: { playerId: '{{playerId}}' },
    tests: [
      json,
      `pm.test('the player, still ativo', () => { pm.expect(body.playerId).to.eql(pm.collectionVariables.get('playerId')); pm.expect(body.status).to.eql('ativo'); });`,
    ],
  },
  {
    op: 'sandboxAddScreeningEntry',
    name: 'Sandbox: put a CPF on the simulated PEP list',
    body: { list: 'pep', cpf: '111.444.777-35' },
    status: 201,
    tests: [
      json,
      `pm.collectionVariables.set('screeningEntryId', body.id);`,
      `pm.test('the entry, CPF as digits', () => { pm.expect(body.list).to.eql('pep'); pm.expect(body.cpf).to.eql('11144477735'); });`,
    ],
  },
  {
    op: 'sandboxRemoveScreeningEntry',
    name: 'Sandbox: take the entry off again',
    params: { id: '{{screeningEntryId}}' },
    tests: [json, `pm.test('removed', () => pm.expect(body.removed).to.eql(true));`],
  },
  {
    op: 'submitKyc',
    name: 'Submit a KYC document',
    params: { playerId: '{{playerId}}' },
    body: { documentType: 'rg', reference: 's3://kyc-docs/{{$guid}}/rg-front.jpg' },
    tests: [json, `pm.test('KYC is em_analise', () => pm.expect(body.kycStatus).to.eql('em_analise'));`],
  },
  {
    op: 'getKyc',
    name: 'Read KYC status',
    params: { playerId: '{{playerId}}' },
    tests: [
      json,
      `pm.test('one submission, em_analise', () => { pm.expect(body.status).to.eql('em_analise'); pm.expect(body.submissions).to.have.lengthOf(1); });`,
    ],
  },
  {
    op: 'sandboxKycDecision',
    name: 'Sandbox: approve KYC',
    params: { playerId: '{{playerId}}' },
    body: { status: 'aprovado' },
    tests: [json, `pm.test('KYC aprovado', () => pm.expect(body.status).to.eql('aprovado'));`],
  },
  {
    op: 'setLimit',
    name: 'Responsible gaming: a daily loss limit the player chose',
    params: { playerId: '{{playerId}}', type: 'loss', period: 'day' },
    body: { value: '500.00' },
    tests: [json, `pm.test('in force at once', () => pm.expect(body.limits.find((l) => l.type === 'loss')).to.include({ value: '500.00', pending: null }));`],
  },
  {
    op: 'setLimit',
    name: 'Responsible gaming: a daily time limit (minutes)',
    params: { playerId: '{{playerId}}', type: 'time', period: 'day' },
    body: { value: 120 },
    tests: [json, `pm.test('120 minutes', () => pm.expect(body.limits.find((l) => l.type === 'time').value).to.eql(120));`],
  },
  {
    op: 'setLimit',
    name: 'Responsible gaming: a weekly deposit limit',
    params: { playerId: '{{playerId}}', type: 'deposit', period: 'week' },
    body: { value: '1000.00' },
    tests: [
      json,
      `pm.test('in force at once', () => pm.expect(body.limits.find((l) => l.type === 'deposit')).to.include({ value: '1000.00', pending: null }));`,
    ],
  },
  {
    op: 'removeLimit',
    name: 'Responsible gaming: remove the deposit limit (waits for the cooling-off; loss and time limits stay, br-spa requires them)',
    params: { playerId: '{{playerId}}', type: 'deposit', period: 'week' },
    tests: [json, `pm.test('removal pending', () => pm.expect(body.limits.find((l) => l.type === 'deposit').pending.value).to.eql(null));`],
  },
  {
    op: 'getResponsibleGaming',
    name: "Responsible gaming: the player's limits and usage",
    params: { playerId: '{{playerId}}' },
    tests: [
      json,
      `pm.test('limits with usage and resetsAt', () => body.limits.forEach((l) => { pm.expect(l).to.have.property('used'); pm.expect(l).to.have.property('resetsAt'); }));`,
    ],
  },
  {
    op: 'sandboxSetHarmMarkers',
    name: 'Sandbox: make the player show two harm markers (chasing losses, night play), assessed at once',
    params: { playerId: '{{playerId}}' },
    body: { markers: ['chasing', 'night_play'] },
    tests: [
      json,
      `pm.test('medium, with exactly those markers', () => { pm.expect(body.level).to.eql('medium'); pm.expect(body.markers.map((m) => m.marker)).to.eql(['chasing', 'night_play']); });`,
    ],
  },
  {
    op: 'getPlayerHarmLevel',
    name: "Responsible gaming: the player's level of risk of gambling harm, with the markers behind it",
    params: { playerId: '{{playerId}}' },
    tests: [
      json,
      `pm.test('a level with its markers', () => { pm.expect(['none', 'low', 'medium', 'high']).to.include(body.level); pm.expect(body.markers).to.be.an('array'); });`,
    ],
  },
  {
    op: 'createDeposit',
    name: 'Create a deposit',
    params: { playerId: '{{playerId}}' },
    body: {
      amount: '100.00',
      currency: '{{currency}}',
      method: 'pix',
      externalReference: 'psp-{{$guid}}',
    },
    tests: [
      json,
      `pm.test('deposit pending', () => { pm.expect(body.status).to.eql('pending'); pm.expect(body.amount).to.eql('100.00'); });`,
      `pm.collectionVariables.set('depositId', body.id);`,
    ],
  },
  {
    op: 'confirmDeposit',
    name: 'Confirm the deposit (the payer: the player, as br-spa requires)',
    params: { depositId: '{{depositId}}' },
    body: { payer: { cpf: '{{cpf}}' } },
    tests: [
      json,
      `pm.test('deposit confirmed', () => { pm.expect(body.status).to.eql('confirmed'); pm.expect(body.id).to.eql(pm.collectionVariables.get('depositId')); });`,
    ],
  },
  {
    op: 'createDeposit',
    name: 'Create a second deposit (to fail it)',
    params: { playerId: '{{playerId}}' },
    body: {
      amount: '25.00',
      currency: '{{currency}}',
      method: 'pix',
      externalReference: 'psp-{{$guid}}',
    },
    tests: [json, `pm.collectionVariables.set('failedDepositId', body.id);`],
  },
  {
    op: 'failDeposit',
    name: 'Fail the second deposit',
    params: { depositId: '{{failedDepositId}}' },
    body: { reason: 'Payment expired at the PSP' },
    tests: [json, `pm.test('deposit failed', () => pm.expect(body.status).to.eql('failed'));`],
  },
  {
    op: 'getWallet',
    name: 'Read the wallet',
    params: { playerId: '{{playerId}}' },
    tests: [
      json,
      `pm.test('credited by the confirmed deposit only', () => { pm.expect(body.available).to.eql('100.00'); pm.expect(body.withdrawable).to.eql('100.00'); });`,
    ],
  },
  {
    op: 'listTransactions',
    name: 'List the ledger',
    params: { playerId: '{{playerId}}' },
    query: { limit: '10' },
    tests: [
      json,
      `pm.test('one DEPOSIT entry', () => { pm.expect(body.data).to.have.lengthOf(1); pm.expect(body.data[0].type).to.eql('DEPOSIT'); pm.expect(body.data[0].referenceId).to.eql(pm.collectionVariables.get('depositId')); pm.expect(body.nextCursor).to.eql(null); });`,
    ],
  },
  {
    op: 'createWithdrawal',
    name: "Request a withdrawal (to the player's own PIX key: their CPF)",
    params: { playerId: '{{playerId}}' },
    body: {
      amount: '30.00',
      currency: '{{currency}}',
      method: 'pix',
      destination: '{{cpf}}',
    },
    tests: [
      json,
      `pm.test('withdrawal under_review', () => pm.expect(body.status).to.eql('under_review'));`,
      `pm.collectionVariables.set('withdrawalId', body.id);`,
    ],
  },
  {
    op: 'getWithdrawal',
    name: 'Read the withdrawal',
    params: { withdrawalId: '{{withdrawalId}}' },
    tests: [
      json,
      `pm.test('same withdrawal, under_review', () => { pm.expect(body.id).to.eql(pm.collectionVariables.get('withdrawalId')); pm.expect(body.status).to.eql('under_review'); });`,
    ],
  },
  {
    op: 'sandboxAddPixKey',
    name: "Sandbox: register a PIX key and its owner's CPF (the player's: a withdrawal to it is to their own account)",
    body: { key: 'ana-{{$guid}}@example.com', ownerCpf: '{{cpf}}' },
    status: 201,
    tests: [
      json,
      `pm.test('owned by the player', () => pm.expect(body.ownerCpf).to.eql(pm.collectionVariables.get('cpf')));`,
      `pm.collectionVariables.set('pixKey', body.key);`,
    ],
  },
  {
    op: 'sandboxRemovePixKey',
    name: 'Sandbox: remove the PIX key',
    params: { key: '{{pixKey}}' },
    tests: [json, `pm.test('removed', () => pm.expect(body.removed).to.eql(true));`],
  },
  {
    op: 'sandboxWithdrawalDecision',
    name: 'Sandbox: approve the withdrawal',
    params: { withdrawalId: '{{withdrawalId}}' },
    body: { decision: 'approve' },
    tests: [json, `pm.test('approved', () => pm.expect(body.status).to.eql('approved'));`],
  },
  {
    op: 'sandboxWithdrawalDecision',
    name: 'Sandbox: pay the withdrawal',
    params: { withdrawalId: '{{withdrawalId}}' },
    body: { decision: 'pay' },
    tests: [json, `pm.test('paid', () => pm.expect(body.status).to.eql('paid'));`],
  },
  {
    op: 'createWithdrawal',
    name: 'Request a second withdrawal (to cancel it)',
    params: { playerId: '{{playerId}}' },
    body: {
      amount: '10.00',
      currency: '{{currency}}',
      method: 'pix',
      destination: '{{cpf}}',
    },
    tests: [json, `pm.collectionVariables.set('cancelWithdrawalId', body.id);`],
  },
  {
    op: 'cancelWithdrawal',
    name: 'Cancel the second withdrawal',
    params: { withdrawalId: '{{cancelWithdrawalId}}' },
    body: {},
    tests: [json, `pm.test('cancelled', () => pm.expect(body.status).to.eql('cancelled'));`],
  },
  {
    op: 'getWallet',
    name: 'Read the wallet after the payout',
    params: { playerId: '{{playerId}}' },
    tests: [
      json,
      `pm.test('debited by the paid withdrawal', () => { pm.expect(body.available).to.eql('70.00'); pm.expect(body.withdrawable).to.eql('70.00'); });`,
    ],
  },
  {
    op: 'listGames',
    name: 'List games',
    tests: [
      json,
      `pm.test('a non-empty catalogue', () => pm.expect(body.data.length).to.be.above(0));`,
      `pm.collectionVariables.set('gameId', body.data[0].id);`,
    ],
  },
  {
    op: 'createGameSession',
    name: 'Open a game session',
    params: { playerId: '{{playerId}}' },
    body: { gameId: '{{gameId}}' },
    tests: [
      json,
      `pm.test('a demo session with a gameUrl', () => { pm.expect(body.mode).to.eql('demo'); pm.expect(body.gameUrl).to.match(/^https?:\\/\\//); });`,
      `pm.collectionVariables.set('gameSessionId', body.id);`,
    ],
  },
  {
    op: 'endGameSession',
    name: 'End the game session (the player logged out)',
    params: { playerId: '{{playerId}}', sessionId: '{{gameSessionId}}' },
    body: {},
    tests: [
      json,
      `pm.test('ended', () => { pm.expect(body.id).to.eql(pm.collectionVariables.get('gameSessionId')); pm.expect(body.endedAt).to.be.a('string'); });`,
    ],
  },
  {
    op: 'endPlayerGameSessions',
    name: "End the player's open game sessions",
    params: { playerId: '{{playerId}}' },
    body: {},
    tests: [json, `pm.test('none left open', () => pm.expect(body.data).to.eql([]));`],
  },
  {
    op: 'listPlayerRounds',
    name: "List the player's provider rounds and sports bets",
    params: { playerId: '{{playerId}}' },
    query: { limit: '10' },
    tests: [json, `pm.test('a page of rounds', () => { pm.expect(body.data).to.be.an('array'); pm.expect(body).to.have.property('nextCursor'); });`],
  },
  {
    op: 'testWebhook',
    name: 'Send a test webhook',
    status: 0,
    tests: [
      json,
      `pm.test('delivered, or no webhook URL configured yet', () => {
  if (pm.response.code === 409) return pm.expect(body.error.code).to.eql('WEBHOOK_NOT_CONFIGURED');
  pm.expect(pm.response.code).to.eql(200);
  pm.expect(body.delivered, 'the configured URL answered 2xx: ' + JSON.stringify(body)).to.eql(true);
});`,
    ],
  },
  {
    op: 'listWebhookEvents',
    name: 'List the test webhook events',
    query: { limit: '20', type: 'webhook.test' },
    tests: [
      json,
      `pm.test('a page of events with their delivery state', () => {
  pm.expect(body.data).to.be.an('array');
  pm.expect(body).to.have.property('nextCursor');
  body.data.forEach((e) => pm.expect(['pending', 'delivered', 'failed', 'no_endpoint']).to.include(e.deliveryStatus));
});`,
      `pm.collectionVariables.set('eventId', body.data.length ? body.data[0].id : 'evt_none');`,
    ],
  },
  {
    op: 'listWebhookEventAttempts',
    name: 'List the attempts of the newest test event',
    params: { eventId: '{{eventId}}' },
    status: 0,
    tests: [
      json,
      `pm.test('the attempts, or no event yet', () => {
  if (pm.collectionVariables.get('eventId') === 'evt_none') return pm.expect(body.error.code).to.eql('WEBHOOK_EVENT_NOT_FOUND');
  pm.expect(pm.response.code).to.eql(200);
  pm.expect(body.data).to.be.an('array');
});`,
    ],
  },
  {
    op: 'redeliverWebhookEvent',
    name: 'Redeliver the newest test event',
    params: { eventId: '{{eventId}}' },
    status: 0,
    tests: [
      json,
      `pm.test('scheduled, or nothing to deliver to', () => {
  if (pm.collectionVariables.get('eventId') === 'evt_none') return pm.expect(body.error.code).to.eql('WEBHOOK_EVENT_NOT_FOUND');
  if (pm.response.code === 409) return pm.expect(body.error.code).to.eql('WEBHOOK_NOT_CONFIGURED');
  pm.expect(pm.response.code).to.eql(202);
  pm.expect(body.deliveryStatus).to.eql('pending');
});`,
    ],
  },
  {
    op: 'pausePlayer',
    name: 'Responsible gaming: the player pauses for two days (last: no play after it)',
    params: { playerId: '{{playerId}}' },
    body: { until: '{{pauseUntil}}' },
    tests: [json, `pm.test('paused', () => pm.expect(body.pause.until).to.be.a('string'));`],
  },
  {
    op: 'selfExclude',
    name: 'Responsible gaming: the player self-excludes for a month',
    params: { playerId: '{{playerId}}' },
    body: { months: 1 },
    tests: [json, `pm.test('self-excluded', () => pm.expect(body.selfExclusion.since).to.be.a('string'));`],
  },
];

const PUBLIC_DOCUMENTS = [
  { path: 'openapi.json', name: 'OpenAPI document', type: 'application/json' },
  { path: 'changelog', name: 'Changelog', type: 'text/markdown' },
  { path: 'postman.json', name: 'This Postman collection', type: 'application/json' },
  { path: 'signing-snippets.json', name: 'Signing snippets', type: 'application/json' },
  { path: 'test-vectors.json', name: 'Signing test vectors', type: 'application/json' },
  { path: 'sdk', name: 'SDK README', type: 'text/markdown' },
  { path: 'docs', name: 'API reference (HTML)', type: 'text/html' },
];

const script = (listen: 'prerequest' | 'test', lines: string[]) => ({ listen, script: { type: 'text/javascript', exec: lines.join('\n').split('\n') } });

function requestItem(op: Operation, step: FlowStep) {
  const segments = openApiPath(op.path)
    .split('/')
    .filter(Boolean)
    .map((s) => s.replace(/^\{(.+)\}$/, ':$1'));
  const query = Object.entries(step.query ?? {}).map(([key, value]) => ({ key, value }));
  const variable = segments.filter((s) => s.startsWith(':')).map((s) => ({ key: s.slice(1), value: step.params?.[s.slice(1)] ?? '' }));
  const qs = query.length ? `?${query.map((q) => `${q.key}=${q.value}`).join('&')}` : '';
  const hasBody = step.body !== undefined;
  return {
    name: step.name,
    event: [script('test', [...(step.status === 0 ? [] : [ok(step.status ?? op.status)]), ...step.tests])],
    request: {
      method: op.method,
      header: hasBody ? [{ key: 'Content-Type', value: 'application/json' }] : [],
      url: {
        raw: `{{baseUrl}}/${segments.join('/')}${qs}`,
        host: ['{{baseUrl}}'],
        path: segments,
        ...(query.length ? { query } : {}),
        ...(variable.length ? { variable } : {}),
      },
      ...(hasBody ? { body: { mode: 'raw', raw: JSON.stringify(step.body, null, 2), options: { raw: { language: 'json' } } } } : {}),
      description: `${op.summary}. \`${op.method} ${openApiPath(op.path)}\` (operationId \`${op.id}\`)${op.idempotent ? '. Idempotent: the pre-request script sends a fresh Idempotency-Key' : ''}${op.sandboxOnly ? '. Sandbox only' : ''}.`,
    },
  };
}

export function buildPostmanCollection(operations: Record<string, Operation>, serverUrl: string) {
  const flow = FLOW.map((step) => {
    const op = operations[step.op];
    if (!op) throw new Error(`Postman flow step ${step.name}: unknown operation ${step.op}`);
    return requestItem(op, step);
  });
  // Every public operation is in the flow; a new one must be added to FLOW (checked by a test too).
  const missing = Object.keys(operations).filter((id) => !FLOW.some((s) => s.op === id));
  if (missing.length) throw new Error(`Postman flow misses operations: ${missing.join(', ')}`);
  const documents = PUBLIC_DOCUMENTS.map((d) => ({
    name: d.name,
    event: [script('test', [ok(200), `pm.test('${d.type}', () => pm.expect(pm.response.headers.get('Content-Type')).to.include('${d.type}'));`])],
    request: {
      method: 'GET',
      header: [],
      url: { raw: `{{baseUrl}}/${d.path}`, host: ['{{baseUrl}}'], path: [d.path] },
      description: `Public, no signature: GET /${d.path}.`,
    },
  }));
  return {
    info: {
      name: 'Operator Gaming Back-Office API',
      description:
        "Set baseUrl, operatorKey and operatorSecret (a sandbox bk_test_ key and its sk_ secret), then run the collection, as often as you like: it registers a player with a fresh valid CPF (made by the pre-request script) and its loss and time limits, submits and approves KYC, deposits by pix and confirms with the player as payer, reads the wallet and ledger, withdraws to the player's own PIX key (their CPF; approve, pay, cancel), opens a game session and ends it, and sends a test webhook, chaining ids through collection variables. It passes under the compliance profiles br-spa (the demo operator `npm start` creates) and off.",
      schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json',
    },
    event: [script('prerequest', [PRE_REQUEST]), script('test', [COLLECTION_TEST])],
    variable: [
      { key: 'baseUrl', value: serverUrl },
      { key: 'operatorKey', value: 'bk_test_...' },
      { key: 'operatorSecret', value: 'sk_test_...' },
      ...[
        'currency',
        'cpf',
        'pixKey',
        'playerId',
        'externalId',
        'depositId',
        'failedDepositId',
        'withdrawalId',
        'cancelWithdrawalId',
        'gameId',
        'gameSessionId',
      ].map((key) => ({
        key,
        value: '',
      })),
    ],
    item: [
      { name: 'Operator journey (sandbox)', item: flow },
      { name: 'Public documents', item: documents },
    ],
  };
}
