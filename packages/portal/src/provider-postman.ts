// A Postman v2.1 collection for the provider wallet API (`GET /provider/v1/postman.json`): given
// baseUrl, providerKey, providerSecret (a pk_test_ key and its psk_ secret), a session token we gave
// at launch and a game code, it runs every operation as a provider would, with the exactly-once
// cases (a replay, a conflict, a rollback of a bet never received and that bet arriving later, a
// second rollback, a rollback of a settled bet, a correction), testing every answer. Balances are
// checked relative to the first one read, in integer cents (never floats).
import { openApiPath, providerOperations, type Operation } from '@bo/contracts';

/** Collection-level pre-request script: resolves the body once (each {{$guid}} once) and signs exactly those bytes. */
export const PROVIDER_PRE_REQUEST = `// Signs the request as the provider API requires: X-Provider-Key, X-Timestamp and
// X-Signature = hex HMAC-SHA256(secret, METHOD \\n PATH?QUERY \\n TIMESTAMP \\n sha256hex(body)).
const cryptoJs = require('crypto-js');
const url = pm.request.url;
const isPublic = /\\/(openapi\\.json|postman\\.json|signing-snippets\\.json|test-vectors\\.json|docs)$/.test(url.getPath());
function sign() {
const key = pm.variables.get('providerKey');
const secret = pm.variables.get('providerSecret');
if (!key || !secret || String(secret).indexOf('...') !== -1) throw new Error('Set providerKey and providerSecret (a pk_test_ key and its psk_ secret) first.');
let body = '';
if (pm.request.body && pm.request.body.mode === 'raw' && pm.request.body.raw) {
  body = pm.variables.replaceIn(pm.request.body.raw);
  pm.request.body.update({ mode: 'raw', raw: body, options: { raw: { language: 'json' } } });
}
const resolved = pm.variables.replaceIn(url.toString());
const path = resolved.replace(/^[a-z][a-z0-9+.-]*:\\/\\/[^/?#]*/i, '').replace(/#.*$/, '') || '/';
const method = pm.request.method.toUpperCase();
const ts = Math.floor(Date.now() / 1000).toString();
const digest = cryptoJs.SHA256(cryptoJs.enc.Utf8.parse(body)).toString(cryptoJs.enc.Hex);
const signature = cryptoJs.HmacSHA256([method, path, ts, digest].join('\\n'), secret).toString(cryptoJs.enc.Hex);
pm.request.headers.upsert({ key: 'X-Provider-Key', value: key });
pm.request.headers.upsert({ key: 'X-Timestamp', value: ts });
pm.request.headers.upsert({ key: 'X-Signature', value: signature });
}
if (!isPublic) sign();`;

const COLLECTION_TEST = `pm.test('carries X-Request-Id', () => pm.expect(pm.response.headers.get('X-Request-Id')).to.match(/^req_/));`;

interface Step {
  op: keyof typeof providerOperations;
  name: string;
  body: Record<string, unknown>;
  status?: number;
  tests: string[];
  /** A GET's path after baseUrl, with its variables and query (the operation's own path otherwise). */
  url?: string;
}

const json = 'const body = pm.response.json();';
/** Money strings ("-10.00") as integer cents. */
const cents = "const cents = (s) => Number(String(s).replace('.', ''));";
const v = (name: string) => `pm.collectionVariables.get('${name}')`;
const refused = (code: string, extra = '') => `pm.test('${code}', () => { pm.expect(body.error.code).to.eql('${code}');${extra ? ` ${extra}` : ''} });`;
const result = (kind: string, moved: string, replayed: boolean) =>
  `pm.test('${kind}: moved ${moved}, replayed ${replayed}', () => { pm.expect(body.kind).to.eql('${kind}'); pm.expect(body.moved).to.eql('${moved}'); pm.expect(body.replayed).to.eql(${replayed}); });`;
const balanceIs = (deltaCents: number, what: string) =>
  `pm.test('balance: ${what}', () => pm.expect(cents(body.balance)).to.eql(cents(${v('startBalance')}) + (${deltaCents})));`;

const FLOW: Step[] = [
  {
    op: 'providerAuthenticate',
    name: 'Authenticate the session token',
    body: { token: '{{sessionToken}}' },
    tests: [
      json,
      `pm.test('the player, currency and balance', () => { pm.expect(body.playerId).to.match(/^plr_/); pm.expect(body.balance).to.match(/^[0-9]+\\.[0-9]{2}$/); });`,
      `pm.collectionVariables.set('playerId', body.playerId);`,
      `pm.collectionVariables.set('currency', body.currency);`,
      `pm.collectionVariables.set('startBalance', body.balance);`,
    ],
  },
  {
    op: 'providerBalance',
    name: 'Read the balance',
    body: { token: '{{sessionToken}}' },
    tests: [json, `pm.test('the same balance', () => pm.expect(body.balance).to.eql(${v('startBalance')}));`],
  },
  {
    op: 'providerRefreshSession',
    name: 'Refresh the session (a keep-alive)',
    body: { token: '{{sessionToken}}' },
    tests: [
      json,
      `pm.test('the session goes on, with its reality check', () => { pm.expect(body.playerId).to.eql(${v('playerId')}); pm.expect(Date.parse(body.expiresAt)).to.be.above(Date.now()); pm.expect(body.netResult).to.match(/^-?[0-9]+\\.[0-9]{2}$/); });`,
    ],
  },
  {
    op: 'providerBet',
    name: 'Bet 1.00',
    body: {
      transactionId: 'pm-bet-{{$guid}}',
      token: '{{sessionToken}}',
      roundId: 'pm-round-{{$guid}}',
      gameCode: '{{gameCode}}',
      amount: '1.00',
      currency: '{{currency}}',
    },
    tests: [
      json,
      cents,
      result('bet', '-1.00', false),
      balanceIs(-100, 'debited'),
      `pm.collectionVariables.set('betTx', body.transactionId);`,
      `pm.collectionVariables.set('roundId', body.roundId);`,
    ],
  },
  {
    op: 'providerBet',
    name: 'The same bet again (a retry): the first answer, replayed',
    body: { transactionId: '{{betTx}}', token: '{{sessionToken}}', roundId: '{{roundId}}', gameCode: '{{gameCode}}', amount: '1.00', currency: '{{currency}}' },
    tests: [json, cents, result('bet', '-1.00', true), balanceIs(-100, 'the first answer, debited once')],
  },
  {
    op: 'providerBet',
    name: 'The same transactionId with another amount: a conflict',
    body: { transactionId: '{{betTx}}', token: '{{sessionToken}}', roundId: '{{roundId}}', gameCode: '{{gameCode}}', amount: '2.00', currency: '{{currency}}' },
    status: 409,
    tests: [json, refused('TRANSACTION_CONFLICT', "pm.expect(body.error.details.differs).to.include('amount');")],
  },
  {
    op: 'providerWin',
    name: 'Win 2.50, closing the round',
    body: { transactionId: 'pm-win-{{$guid}}', playerId: '{{playerId}}', roundId: '{{roundId}}', amount: '2.50', currency: '{{currency}}', roundClosed: true },
    tests: [json, cents, result('win', '2.50', false), balanceIs(150, 'credited')],
  },
  {
    op: 'providerRollback',
    name: 'Roll back the settled bet: refused',
    body: { transactionId: 'pm-rb-{{$guid}}', playerId: '{{playerId}}', betTransactionId: '{{betTx}}', roundId: '{{roundId}}' },
    status: 409,
    tests: [json, refused('BET_ALREADY_SETTLED')],
  },
  {
    op: 'providerCorrection',
    name: 'Correct the settled round: a debit of 0.50',
    body: {
      transactionId: 'pm-cor-{{$guid}}',
      playerId: '{{playerId}}',
      roundId: '{{roundId}}',
      amount: '-0.50',
      currency: '{{currency}}',
      reason: 'Postman: a resettlement',
    },
    tests: [
      json,
      cents,
      result('correction', '-0.50', false),
      balanceIs(100, 'debited'),
      // The ids of a bet the next request rolls back before it is ever sent.
      `const unique = Date.now() + '-' + Math.floor(Math.random() * 1e9);`,
      `pm.collectionVariables.set('lostBetTx', 'pm-lost-' + unique);`,
      `pm.collectionVariables.set('lostRoundId', 'pm-lost-round-' + unique);`,
    ],
  },
  {
    op: 'providerRollback',
    name: 'Roll back a bet never received: recorded, 0.00 moved',
    body: { transactionId: 'pm-rb-{{$guid}}', playerId: '{{playerId}}', betTransactionId: '{{lostBetTx}}', roundId: '{{lostRoundId}}' },
    tests: [json, cents, result('rollback', '0.00', false), balanceIs(100, 'unchanged')],
  },
  {
    op: 'providerBet',
    name: 'That bet arrives after its rollback: refused',
    body: {
      transactionId: '{{lostBetTx}}',
      token: '{{sessionToken}}',
      roundId: '{{lostRoundId}}',
      gameCode: '{{gameCode}}',
      amount: '1.00',
      currency: '{{currency}}',
    },
    status: 409,
    tests: [json, refused('BET_ROLLED_BACK')],
  },
  {
    op: 'providerBet',
    name: 'Bet 1.00 in a new round',
    body: {
      transactionId: 'pm-bet-{{$guid}}',
      token: '{{sessionToken}}',
      roundId: 'pm-round-{{$guid}}',
      gameCode: '{{gameCode}}',
      amount: '1.00',
      currency: '{{currency}}',
    },
    tests: [
      json,
      cents,
      result('bet', '-1.00', false),
      balanceIs(0, 'debited'),
      `pm.collectionVariables.set('bet2Tx', body.transactionId);`,
      `pm.collectionVariables.set('round2Id', body.roundId);`,
    ],
  },
  {
    op: 'providerRollback',
    name: 'Roll it back: refunded',
    body: { transactionId: 'pm-rb-{{$guid}}', playerId: '{{playerId}}', betTransactionId: '{{bet2Tx}}', roundId: '{{round2Id}}' },
    tests: [json, cents, result('rollback', '1.00', false), balanceIs(100, 'refunded')],
  },
  {
    op: 'providerRollback',
    name: 'Roll it back again with another rollback id: 0.00 moved',
    body: { transactionId: 'pm-rb-{{$guid}}', playerId: '{{playerId}}', betTransactionId: '{{bet2Tx}}', roundId: '{{round2Id}}' },
    tests: [json, cents, result('rollback', '0.00', false), balanceIs(100, 'refunded once')],
  },
  // Issue #59: what a provider funds, and its reads of its transactions (reconciliation).
  {
    op: 'providerFreeBet',
    name: 'A free round you fund, 1.00: nothing taken from the player',
    body: {
      transactionId: 'pm-free-{{$guid}}',
      token: '{{sessionToken}}',
      roundId: 'pm-freeround-{{$guid}}',
      gameCode: '{{gameCode}}',
      amount: '1.00',
      currency: '{{currency}}',
      rewardId: 'pm-reward',
    },
    tests: [json, cents, result('free_bet', '0.00', false), balanceIs(100, 'unchanged'), `pm.collectionVariables.set('freeRoundId', body.roundId);`],
  },
  {
    op: 'providerWin',
    name: 'Its win, 2.00: credited (FREE_BET_WIN)',
    body: {
      transactionId: 'pm-win-{{$guid}}',
      playerId: '{{playerId}}',
      roundId: '{{freeRoundId}}',
      amount: '2.00',
      currency: '{{currency}}',
      roundClosed: true,
    },
    tests: [json, cents, result('win', '2.00', false), balanceIs(300, '+2.00')],
  },
  {
    op: 'providerPromoCredit',
    name: 'A tournament prize, 0.50 (PROMO_CREDIT)',
    body: {
      transactionId: 'pm-promo-{{$guid}}',
      playerId: '{{playerId}}',
      amount: '0.50',
      currency: '{{currency}}',
      promotionType: 'tournament_prize',
      promotionId: 'pm-tournament',
    },
    tests: [json, cents, result('promo_credit', '0.50', false), balanceIs(350, '+0.50')],
  },
  {
    op: 'providerJackpotWin',
    name: 'A jackpot win, 0.25 (JACKPOT_WIN)',
    body: { transactionId: 'pm-jp-{{$guid}}', playerId: '{{playerId}}', jackpotId: 'pm-mega', amount: '0.25', currency: '{{currency}}' },
    tests: [
      json,
      cents,
      result('jackpot_win', '0.25', false),
      balanceIs(375, '+0.25'),
      // The time range the list below reads (set here: the collection's signing runs before a request's own script).
      `pm.collectionVariables.set('fromTime', encodeURIComponent(new Date(Date.now() - 3600000).toISOString()));`,
      `pm.collectionVariables.set('toTime', encodeURIComponent(new Date(Date.now() + 60000).toISOString()));`,
    ],
  },
  {
    op: 'providerGetTransaction',
    name: 'Read a transaction by its id: the bet rolled back',
    body: {},
    url: 'transactions/{{bet2Tx}}',
    tests: [json, `pm.test('rolled back', () => { pm.expect(body.transactionId).to.eql(${v('bet2Tx')}); pm.expect(body.status).to.eql('rolled_back'); });`],
  },
  {
    op: 'providerRoundTransactions',
    name: "Read a round's transactions: the bet and its two rollbacks",
    body: {},
    url: 'rounds/{{round2Id}}/transactions',
    tests: [json, `pm.test('bet, rollback, rollback', () => pm.expect(body.data.map((t) => t.kind)).to.eql(['bet', 'rollback', 'rollback']));`],
  },
  {
    op: 'providerListTransactions',
    name: 'Read the last hour of transactions, paged',
    body: {},
    url: 'transactions?from={{fromTime}}&to={{toTime}}&limit=100',
    tests: [json, `pm.test('the run so far', () => pm.expect(body.data.length).to.be.above(5));`],
  },
  {
    op: 'providerBalance',
    name: 'The balance at the end: +3.75 (bet −1.00, win +2.50, correction −0.50; the other bet refunded; free round win +2.00, prize +0.50, jackpot +0.25)',
    body: { token: '{{sessionToken}}' },
    tests: [json, cents, balanceIs(375, '+3.75')],
  },
];

const PUBLIC_DOCUMENTS = [
  { path: 'openapi.json', name: 'OpenAPI document', type: 'application/json' },
  { path: 'postman.json', name: 'This Postman collection', type: 'application/json' },
  { path: 'signing-snippets.json', name: 'Signing snippets', type: 'application/json' },
  { path: 'test-vectors.json', name: 'Signing test vectors', type: 'application/json' },
  { path: 'docs', name: 'API reference (HTML)', type: 'text/html' },
];

const script = (listen: 'prerequest' | 'test', lines: string[]) => ({ listen, script: { type: 'text/javascript', exec: lines.join('\n').split('\n') } });
const ok = (status: number) => `pm.test('status ${status}', () => pm.response.to.have.status(${status}));`;

function requestItem(op: Operation, step: Step) {
  const [pathPart, queryPart] = (step.url ?? openApiPath(op.path)).split('?');
  const segments = pathPart!.split('/').filter(Boolean);
  const query = queryPart ? queryPart.split('&').map((kv) => ({ key: kv.split('=')[0]!, value: kv.split('=').slice(1).join('=') })) : undefined;
  return {
    name: step.name,
    event: [script('test', [ok(step.status ?? op.status), ...step.tests])],
    request: {
      method: op.method,
      header: op.method === 'GET' ? [] : [{ key: 'Content-Type', value: 'application/json' }],
      url: { raw: `{{baseUrl}}/${segments.join('/')}${queryPart ? `?${queryPart}` : ''}`, host: ['{{baseUrl}}'], path: segments, ...(query ? { query } : {}) },
      ...(op.method === 'GET' ? {} : { body: { mode: 'raw', raw: JSON.stringify(step.body, null, 2), options: { raw: { language: 'json' } } } }),
      description: `${op.summary}. \`${op.method} ${openApiPath(op.path)}\` (operationId \`${op.id}\`).`,
    },
  };
}

export function buildProviderPostmanCollection(serverUrl: string) {
  const operations = providerOperations as Record<string, Operation>;
  // Every provider operation is in the flow.
  const missing = Object.keys(operations).filter((id) => !FLOW.some((s) => s.op === id));
  if (missing.length) throw new Error(`Provider Postman flow misses operations: ${missing.join(', ')}`);
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
      name: 'Provider Wallet API',
      description:
        'Set baseUrl, providerKey and providerSecret (a sandbox pk_test_ key and its psk_ secret), sessionToken (the token of a session we launched with you; its player needs 1.00) and gameCode (one of your games), then run the collection: it authenticates the token, reads the balance, bets and retries the bet (replayed), tries a conflicting call, wins and closes the round, tries to roll back the settled bet, corrects the round, rolls back a bet it never sent and then sends that bet (refused), bets, rolls back twice, plays a free round you fund and its win, a tournament prize and a jackpot win, reads transactions back by id, round and time, and reads the balance at the end (+3.75). Run it as often as the session lives: every run makes its own transaction ids.',
      schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json',
    },
    event: [script('prerequest', [PROVIDER_PRE_REQUEST]), script('test', [COLLECTION_TEST])],
    variable: [
      { key: 'baseUrl', value: serverUrl },
      { key: 'providerKey', value: 'pk_test_...' },
      { key: 'providerSecret', value: 'psk_test_...' },
      { key: 'sessionToken', value: 'pst_...' },
      { key: 'gameCode', value: '' },
      ...['playerId', 'currency', 'startBalance', 'betTx', 'roundId', 'lostBetTx', 'lostRoundId', 'bet2Tx', 'round2Id'].map((key) => ({ key, value: '' })),
    ],
    item: [
      { name: 'Provider round trip (sandbox)', item: FLOW.map((s) => requestItem(operations[s.op]!, s)) },
      { name: 'Public documents', item: documents },
    ],
  };
}
