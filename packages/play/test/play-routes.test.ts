// The launch-page plugin against a fake PlayGames port: what the plugin itself decides. A token far
// from the shape is refused without asking anyone; the host's refusal (operatorRefusal, optional)
// comes before the wallet and stops it being asked; a round body is parsed by the API's rules and
// limit; an unavailable wallet is a 503 with Retry-After, any other fault a 500, on the page and in
// the envelope. The real wallet behind the port: play-page.test.ts.
import t, { type Test } from 'tap';
import Fastify from 'fastify';
import { AppError, type ErrorBody, type OperationReply, type PlaySessionView } from '@bo/contracts';
import { playRoutes, type PlayGames, type PlayRoutesOptions } from '../src/index.ts';

const TOKEN = 'v1.gs_0123456789abcdef.1893456000.signature';
const VIEW: PlaySessionView = {
  sessionId: 'gs_0123456789abcdef',
  mode: 'demo',
  currency: 'BRL',
  balance: '1000.00',
  expiresAt: '2030-01-01T00:30:00.000Z',
  playable: true,
  notice: null,
  game: { id: 'gm_dice_classic', name: 'Classic Dice', provider: 'bo-studio', category: 'dice', kind: 'dice' },
  launch: { type: 'page' },
  limits: { minBet: '0.10', maxBet: '1000.00' },
};

/** A wallet that answers `next` (or throws it) and records what it was asked. */
function fakeGames() {
  const asked: string[] = [];
  let next: () => Promise<OperationReply<unknown>> = async () => ({ ok: true, status: 201, body: { id: 'gr_1' } });
  const games: PlayGames = {
    async session(token, requestId) {
      asked.push(`session ${token === TOKEN ? 'token' : token} ${requestId.startsWith('req-') ? 'with the request id' : requestId}`);
      return { ok: true, status: 200, body: VIEW };
    },
    async round(token, requestId, body) {
      asked.push(`round ${token === TOKEN ? 'token' : token} ${JSON.stringify(body)} ${requestId.startsWith('req-') ? 'with the request id' : requestId}`);
      return next();
    },
  };
  return {
    games,
    asked,
    answer: (fn: () => Promise<OperationReply<unknown>>) => {
      next = fn;
    },
  };
}

async function build(t: Test, extra: Partial<PlayRoutesOptions> = {}) {
  const wallet = fakeGames();
  let n = 0;
  // Long paths reach the plugin, as on the gateway (a bare Fastify answers 414 above 100 characters).
  const app = Fastify({ genReqId: () => `req-${++n}`, routerOptions: { maxParamLength: 2048 } });
  t.teardown(() => app.close());
  await app.register(playRoutes, { games: wallet.games, publicBaseUrl: 'https://api.example.com/base', ...extra });
  return { app, ...wallet };
}

t.test('the page and a round, with the wallet port only', async (t) => {
  const { app, asked } = await build(t, { roundBodyLimitBytes: 64 });
  const page = await app.inject({ method: 'GET', url: `/play/${TOKEN}` });
  t.equal(page.statusCode, 200);
  t.equal(page.headers['x-request-id'], 'req-1');
  const nonce = /script-src 'nonce-([^']+)'/.exec(String(page.headers['content-security-policy']))?.[1];
  t.equal(
    page.headers['content-security-policy'],
    `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self' https://api.example.com; img-src data:; base-uri 'none'; form-action 'none'`,
    "the page may talk to the host's public origin",
  );
  t.match(page.body, /<h1 id="game-name">Classic Dice<\/h1>/);

  const round = await app.inject({ method: 'POST', url: `/play/${TOKEN}/rounds`, payload: { amount: '1.00', target: '50' } });
  t.same([round.statusCode, round.json(), round.headers['cache-control']], [201, { id: 'gr_1' }, 'no-store']);
  const notJson = await app.inject({ method: 'POST', url: `/play/${TOKEN}/rounds`, payload: '{nope', headers: { 'content-type': 'application/json' } });
  t.match(notJson.json(), { error: { code: 'VALIDATION_ERROR', requestId: 'req-3', details: { in: 'body' } } });
  const big = await app.inject({ method: 'POST', url: `/play/${TOKEN}/rounds`, payload: { amount: '1.00', pad: 'x'.repeat(64) } });
  // Refused by the parser, before the handler: the host's error handler writes the envelope.
  t.equal(big.statusCode, 413, 'over the round limit');
  for (const url of ['/play/short', `/play/${'x'.repeat(201)}`, '/play/%3Cscript%3E']) {
    const res = await app.inject({ method: 'GET', url });
    t.same([res.statusCode, /LAUNCH_TOKEN_INVALID/.test(res.body)], [403, true], `${url.slice(0, 20)}…: refused on its shape`);
  }
  t.same(
    asked,
    ['session token with the request id', 'round token {"amount":"1.00","target":"50"} with the request id'],
    'only well-formed requests reach the wallet',
  );
});

t.test("the host's refusal comes first and stops the wallet being asked", async (t) => {
  const refusals: string[] = [];
  const operatorRefusal = async (token: string, requestId: string): Promise<ErrorBody | undefined> => {
    refusals.push(`${token === TOKEN ? 'token' : token} ${requestId}`);
    return new AppError('OPERATOR_SUSPENDED', 'Play is suspended: the operator of this site is suspended.').toBody();
  };
  const { app, asked } = await build(t, { operatorRefusal });
  const page = await app.inject({ method: 'GET', url: `/play/${TOKEN}` });
  t.equal(page.statusCode, 403);
  t.match(page.body, /<main class="card error" data-error-code="OPERATOR_SUSPENDED">/);
  t.match(page.body, /This game is not available/);
  const round = await app.inject({ method: 'POST', url: `/play/${TOKEN}/rounds`, payload: { amount: '1.00' } });
  t.same(round.json(), {
    error: { code: 'OPERATOR_SUSPENDED', message: 'Play is suspended: the operator of this site is suspended.', requestId: 'req-2' },
  });
  t.same(refusals, ['token req-1', 'token req-2']);
  t.same(asked, [], 'the wallet was not asked');
});

t.test('an unavailable wallet is a 503 with Retry-After; any other fault a 500 without its text', async (t) => {
  const { app, answer } = await build(t);
  const noResponders = Object.assign(new Error('503'), { name: 'NoRespondersError' });
  answer(() => Promise.reject(noResponders));
  const unavailable = await app.inject({ method: 'POST', url: `/play/${TOKEN}/rounds`, payload: {} });
  t.same([unavailable.statusCode, unavailable.headers['retry-after'], unavailable.json().error.code], [503, '1', 'SERVICE_UNAVAILABLE']);

  answer(() => Promise.reject(new TypeError('secret internals')));
  const broken = await app.inject({ method: 'POST', url: `/play/${TOKEN}/rounds`, payload: {} });
  t.same([broken.statusCode, broken.json().error.code], [500, 'INTERNAL_ERROR']);
  t.notMatch(broken.body, /secret internals/);

  answer(async () => ({ ok: false, status: 410, error: new AppError('LAUNCH_TOKEN_EXPIRED').toBody() }));
  const expired = await app.inject({ method: 'POST', url: `/play/${TOKEN}/rounds`, payload: {} });
  t.same([expired.statusCode, expired.json().error.code], [410, 'LAUNCH_TOKEN_EXPIRED'], "the wallet's refusal, in the envelope");

  const lonely = Fastify();
  t.teardown(() => lonely.close());
  const down: PlayGames = { session: () => Promise.reject(noResponders), round: () => Promise.reject(noResponders) };
  await lonely.register(playRoutes, { games: down, publicBaseUrl: 'https://api.example.com' });
  const page = await lonely.inject({ method: 'GET', url: `/play/${TOKEN}` });
  t.same([page.statusCode, page.headers['retry-after']], [503, '1']);
  t.match(page.body, /<h1 id="error-title">The game is temporarily unavailable<\/h1>/);
});
