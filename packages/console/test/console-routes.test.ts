// The console plugin on its own: a bare Fastify with the plugin, a host error handler that renders
// the envelope (as the gateway's does), and an in-memory accounts port. Pages and assets come from
// this package, the browser modules from its own dependencies; the session routes set and clear
// the cookie, ask for the CSRF token on every change and hand the port back the identity it gave.
// Sessions against the real store, and the admin API with the cookie: services/gateway/test/console-*.
import t, { type Test } from 'tap';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import { AppError } from '@bo/contracts';
import { envelope, toAppError } from '@bo/http-kit';
import { consoleRoutes, type ConsoleAccounts, type ConsoleIdentity } from '../src/index.ts';
import { ASSET_VERSION } from '../src/console-routes.ts';

const TOKEN = 'T'.repeat(43);
const CSRF = 'csrf-token-of-the-session';
const ASSETS = path.join(import.meta.dirname, '../assets');

/** The port's own identity: more than the console needs, given back to it as it was. */
interface Member extends ConsoleIdentity {
  memberId: string;
}

function fakeAccounts() {
  const calls: string[] = [];
  let live = false;
  const ana: Member = {
    email: 'ana@ourteam.example',
    role: 'finance',
    secondFactor: false,
    csrfToken: CSRF,
    memberId: 'tm_ana',
    setupRequired: ['password'],
  };
  const accounts: ConsoleAccounts<Member> = {
    async signIn(email, password, totp, origin) {
      calls.push(`signIn ${email} ${totp ?? 'no code'} from ${origin.address}`);
      if (password === 'too-often') throw new AppError('RATE_LIMITED', 'Too many failed sign-ins: try again in 8 s.', { retryAfterSeconds: 8 });
      if (password !== 'right') throw new AppError('UNAUTHORIZED', 'Wrong e-mail or password, or the account is disabled.');
      live = true;
      return { token: TOKEN, csrfToken: CSRF, member: { id: ana.memberId, email: ana.email, role: ana.role }, setupRequired: ana.setupRequired };
    },
    async identify(token) {
      return live && token === TOKEN ? ana : undefined;
    },
    async signOut(token) {
      calls.push(`signOut ${token === TOKEN ? 'the session' : token}`);
      live = false;
    },
    async startSecondFactor(who) {
      calls.push(`start ${who.memberId}`);
      return { secret: 'JBSWY3DPEHPK3PXP', uri: 'otpauth://totp/x' };
    },
    async changePassword(who, token, current, next, origin) {
      calls.push(`password ${who.memberId} ${token === TOKEN ? 'this session' : token} ${current}→${next} ${origin.requestId ? 'with its request id' : ''}`);
      if (current !== 'right') throw new AppError('VALIDATION_ERROR', 'The request is not valid.', { issues: [{ path: '/currentPassword', message: 'no' }] });
      ana.setupRequired = [];
    },
    async confirmSecondFactor(who, code, origin) {
      calls.push(`confirm ${who.memberId} ${code} from ${origin.address}`);
    },
  };
  return { accounts, calls };
}

async function build(t: Test, secureCookie = false) {
  const fake = fakeAccounts();
  const app: FastifyInstance = Fastify();
  t.teardown(() => app.close());
  app.setErrorHandler((err, req, reply) => {
    const e = toAppError(err);
    if (e.headers) reply.headers(e.headers);
    return reply.code(e.status).type('application/json').send(envelope(e.toBody(), req.id));
  });
  await app.register(consoleRoutes, { accounts: fake.accounts, policy: { absoluteHours: 12 }, secureCookie });
  return { app, ...fake };
}

t.test('pages and assets, from this package, under the CSP', async (t) => {
  const { app } = await build(t);
  const signIn = await app.inject({ method: 'GET', url: '/' });
  t.equal(signIn.statusCode, 200);
  const v = `/console/v/${ASSET_VERSION}`;
  t.match(ASSET_VERSION, /^[A-Za-z0-9_-]{16}$/, 'one version for every script and style');
  t.ok(
    signIn.body.includes(`<script src="${v}/sign-in.js"></script>`) && signIn.body.includes(`href="${v}/console.css"`),
    'the sign-in page names its assets under the version',
  );
  for (const page of ['kyc', 'withdrawals', 'players', 'operators', 'webhooks', 'aml', 'impediments', 'audit', 'ledger', 'account', 'team', 'providers']) {
    const res = await app.inject({ method: 'GET', url: `/${page}` });
    const map = res.body.match(/<script type="importmap">(.*?)<\/script>/)?.[1] ?? '';
    t.same(JSON.parse(map).imports, {
      preact: `${v}/vendor/preact.mjs`,
      'preact/hooks': `${v}/vendor/hooks.mjs`,
      htm: `${v}/vendor/htm.mjs`,
      'qrcode-generator': `${v}/vendor/qrcode.mjs`,
    });
    t.ok(
      res.body.includes(`<script type="module" src="${v}/app.js">`) && res.body.includes(`href="${v}/console.css"`),
      `/${page}: its script and style under the version`,
    );
    t.match(res.body, /<link rel="icon" href="\/favicon\.ico"/, `/${page}: names the icon it is served`);
    t.equal(
      res.headers['content-security-policy'],
      `default-src 'none'; script-src 'self' 'sha256-${createHash('sha256').update(map).digest('base64')}'; style-src 'self'; connect-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
      `/${page}: the import map is the one inline script`,
    );
    t.same(
      [res.headers['x-frame-options'], res.headers['x-content-type-options'], res.headers['referrer-policy'], res.headers['cache-control']],
      ['DENY', 'nosniff', 'no-referrer', 'no-store'],
    );
  }

  const appJs = await app.inject({ method: 'GET', url: '/console/app.js' });
  t.equal(appJs.headers['content-type'], 'text/javascript; charset=utf-8');
  t.equal(appJs.body, readFileSync(path.join(ASSETS, 'app.js'), 'utf8'), "the package's own assets/app.js");
  // Every page module app.js imports is served (the Providers page's too).
  for (const m of appJs.body.matchAll(/from '\.\/(page-[a-z-]+\.js)'/g)) {
    const res = await app.inject({ method: 'GET', url: `/console/${m[1]}` });
    t.same([res.statusCode, res.body], [200, readFileSync(path.join(ASSETS, m[1]!), 'utf8')], `${m[1]} is served`);
  }
  // Without a version (an older page's links), scripts and styles are kept and asked again (no-cache):
  // unchanged, 304 without a body; the pages stay no-store.
  t.same([appJs.headers['cache-control'], appJs.headers['x-content-type-options']], ['no-cache', 'nosniff'], 'app.js: kept, asked again each time');
  const etag = String(appJs.headers.etag);
  t.match(etag, /^"[A-Za-z0-9_-]{22}"$/, 'app.js has a tag of its content');
  const again = await app.inject({ method: 'GET', url: '/console/app.js', headers: { 'if-none-match': `W/"x", ${etag}` } });
  t.same([again.statusCode, again.body, again.headers.etag], [304, '', etag], 'unchanged: 304, no body');
  const other = await app.inject({ method: 'GET', url: '/console/kit.js', headers: { 'if-none-match': etag } });
  t.same([other.statusCode, other.headers['cache-control']], [200, 'no-cache'], "another file's tag: the file");
  t.not(other.headers.etag, etag, 'each file its own tag');
  const vendorAgain = await app.inject({ method: 'GET', url: '/console/vendor/preact.mjs' });
  t.equal(
    (await app.inject({ method: 'GET', url: '/console/vendor/preact.mjs', headers: { 'if-none-match': String(vendorAgain.headers.etag) } })).statusCode,
    304,
    'a vendored module too',
  );
  // Under this version (what the pages name): the same files, kept for a year and never asked again; the
  // modules app.js imports by relative path resolve under it too. Under another version (a page from before
  // a release): today's files, asked again each time, never kept under the old name.
  for (const url of [`${v}/app.js`, `${v}/page-kyc.js`, `${v}/console.css`, `${v}/vendor/preact.mjs`]) {
    const res = await app.inject({ method: 'GET', url });
    t.same([res.statusCode, res.headers['cache-control']], [200, 'public, max-age=31536000, immutable'], `${url}: kept, not asked again`);
  }
  t.equal((await app.inject({ method: 'GET', url: `${v}/app.js` })).body, appJs.body, 'the versioned app.js is the file');
  for (const url of ['/console/v/0123456789abcdef/app.js', '/console/v/0123456789abcdef/vendor/htm.mjs']) {
    const res = await app.inject({ method: 'GET', url });
    t.same([res.statusCode, res.headers['cache-control']], [200, 'no-cache'], `${url}: another version, today's file, asked again`);
  }
  for (const url of [`${v}/nope.js`, `${v}/vendor/react.mjs`, `${v}/..%2Fsrc%2Findex.ts`]) {
    const res = await app.inject({ method: 'GET', url });
    t.same([res.statusCode, res.json().error.code], [404, 'NOT_FOUND'], `${url} is not served`);
  }
  const css = await app.inject({ method: 'GET', url: '/console/console.css' });
  t.same([css.headers['content-type'], css.body], ['text/css; charset=utf-8', readFileSync(path.join(ASSETS, 'console.css'), 'utf8')]);
  for (const [file, specifier] of [
    ['preact.mjs', 'preact'],
    ['hooks.mjs', 'preact/hooks'],
    ['htm.mjs', 'htm'],
    ['qrcode.mjs', 'qrcode-generator'],
  ] as const) {
    const res = await app.inject({ method: 'GET', url: `/console/vendor/${file}` });
    t.equal(
      res.body,
      readFileSync(fileURLToPath(import.meta.resolve(specifier)), 'utf8'),
      `${file}: the ESM build of ${specifier}, resolved from this package`,
    );
  }
  const icon = await app.inject({ method: 'GET', url: '/favicon.ico' });
  t.same([icon.statusCode, icon.headers['content-type']], [200, 'image/svg+xml'], 'the icon a browser asks for by itself is there');
  t.match(icon.body, /^<svg /);
  for (const url of ['/console/nope.js', '/console/..%2Fsrc%2Findex.ts', '/console/vendor/react.mjs', '/console/APP.JS']) {
    const res = await app.inject({ method: 'GET', url });
    t.same([res.statusCode, res.json().error.code], [404, 'NOT_FOUND'], `${url} is not served`);
  }
});

t.test('session routes: cookie, CSRF, and the identity handed back to the port', async (t) => {
  const { app, calls } = await build(t);
  const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
    app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', ...headers }, payload: JSON.stringify(body) });

  const missing = await post('/console/session', { email: 'ana@ourteam.example' });
  t.same([missing.statusCode, missing.json().error.details.issues[0].path], [422, '/password'], 'every field is checked before the port is asked');
  const notJson = await app.inject({ method: 'POST', url: '/console/session', headers: { 'content-type': 'text/plain' }, payload: 'x' });
  t.equal(notJson.json().error.code, 'UNSUPPORTED_MEDIA_TYPE');
  const wrong = await post('/console/session', { email: 'ana@ourteam.example', password: 'wrong', totp: '' });
  t.same([wrong.statusCode, wrong.json().error.code], [401, 'UNAUTHORIZED'], "the port's refusal, in the envelope");
  const backedOff = await post('/console/session', { email: 'ana@ourteam.example', password: 'too-often' });
  t.same(
    [backedOff.statusCode, backedOff.json().error.code, backedOff.headers['retry-after']],
    [429, 'RATE_LIMITED', '8'],
    'a back-off says when, in Retry-After',
  );

  const ok = await post('/console/session', { email: 'ana@ourteam.example', password: 'right' });
  t.equal(ok.statusCode, 200);
  t.equal(ok.headers['set-cookie'], `bo_console=${TOKEN}; Path=/; HttpOnly; SameSite=Strict; Max-Age=43200`, 'Max-Age is the absolute end');
  t.same(ok.json(), { user: { id: 'tm_ana', email: 'ana@ourteam.example', role: 'finance' }, csrfToken: CSRF, setupRequired: ['password'] });
  const cookie = `other=1; bo_console=${TOKEN}`;

  const me = await app.inject({ method: 'GET', url: '/console/session', headers: { cookie } });
  t.same(
    me.json(),
    { signedIn: true, user: { email: 'ana@ourteam.example', role: 'finance', secondFactor: false, setupRequired: ['password'] }, csrfToken: CSRF },
    'no member id, no token; the setup still to do',
  );

  const change = { currentPassword: 'right', newPassword: 'a-long-new-password' };
  t.equal((await post('/console/password', change, { cookie })).json().error.code, 'CSRF_TOKEN_INVALID', 'a password change needs the CSRF token');
  const tooLong = await post('/console/password', { ...change, newPassword: 'x'.repeat(201) }, { cookie, 'x-csrf-token': CSRF });
  t.same([tooLong.statusCode, tooLong.json().error.details.issues[0].path], [422, '/newPassword'], 'bounded before the port is asked');
  const wrongCurrent = await post('/console/password', { ...change, currentPassword: 'wrong' }, { cookie, 'x-csrf-token': CSRF });
  t.same([wrongCurrent.statusCode, wrongCurrent.json().error.details.issues[0].path], [422, '/currentPassword'], "the port's refusal");
  t.same((await post('/console/password', change, { cookie, 'x-csrf-token': CSRF })).json(), { changed: true });
  const after = await app.inject({ method: 'GET', url: '/console/session', headers: { cookie } });
  t.same(after.json().user.setupRequired, [], 'set up');
  const signedOut = await app.inject({ method: 'GET', url: '/console/session' });
  t.same([signedOut.statusCode, signedOut.json()], [200, { signedIn: false }], 'no cookie: not signed in, an answer rather than an error');
  const stale = await app.inject({ method: 'GET', url: '/console/session', headers: { cookie: 'bo_console=ended-long-ago' } });
  t.same([stale.statusCode, stale.json()], [200, { signedIn: false }], 'a cookie that opens no session: not signed in');
  t.match(stale.headers['set-cookie'], /^bo_console=; .*Max-Age=0/, 'and the dead cookie is cleared');

  t.equal((await post('/console/second-factor', {}, { cookie })).json().error.code, 'CSRF_TOKEN_INVALID', 'a change without the CSRF token');
  t.equal((await post('/console/second-factor', {}, { cookie, 'x-csrf-token': 'guess' })).json().error.code, 'CSRF_TOKEN_INVALID');
  const malformed = (method: 'POST' | 'DELETE', url: string) =>
    app.inject({ method, url, headers: { cookie, 'x-csrf-token': CSRF, 'content-type': 'application/json' }, payload: '{"a":' });
  const startMalformed = await malformed('POST', '/console/second-factor');
  t.same(
    [startMalformed.statusCode, startMalformed.json().error.details.issues[0].message],
    [422, 'The body is not valid JSON.'],
    'no body to take, yet malformed JSON is refused',
  );
  t.same((await post('/console/second-factor', {}, { cookie, 'x-csrf-token': CSRF })).json(), { secret: 'JBSWY3DPEHPK3PXP', uri: 'otpauth://totp/x' });
  t.equal((await post('/console/second-factor/confirm', { code: '12345' }, { cookie, 'x-csrf-token': CSRF })).statusCode, 422, 'a code is six digits');
  t.same((await post('/console/second-factor/confirm', { code: '123456' }, { cookie, 'x-csrf-token': CSRF })).json(), { secondFactor: true });

  const noCsrf = await app.inject({ method: 'DELETE', url: '/console/session', headers: { cookie } });
  t.equal(noCsrf.json().error.code, 'CSRF_TOKEN_INVALID', 'signing out is a change too');
  t.equal((await malformed('DELETE', '/console/session')).statusCode, 422, 'signing out with malformed JSON too');
  const out = await app.inject({ method: 'DELETE', url: '/console/session', headers: { cookie, 'x-csrf-token': CSRF } });
  t.same([out.statusCode, out.headers['set-cookie']], [204, 'bo_console=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0']);
  const again = await app.inject({ method: 'DELETE', url: '/console/session', headers: { cookie } });
  t.same(
    [again.statusCode, again.headers['set-cookie']],
    [204, 'bo_console=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0'],
    'a dead session: the cookie is cleared',
  );

  t.same(calls, [
    'signIn ana@ourteam.example no code from 127.0.0.1',
    'signIn ana@ourteam.example no code from 127.0.0.1',
    'signIn ana@ourteam.example no code from 127.0.0.1',
    'password tm_ana this session wrong→a-long-new-password with its request id',
    'password tm_ana this session right→a-long-new-password with its request id',
    'start tm_ana',
    'confirm tm_ana 123456 from 127.0.0.1',
    'signOut the session',
  ]);
});

t.test('Secure cookies when the host says so', async (t) => {
  const { app } = await build(t, true);
  const ok = await app.inject({
    method: 'POST',
    url: '/console/session',
    headers: { 'content-type': 'application/json' },
    payload: { email: 'ana@ourteam.example', password: 'right' },
  });
  t.equal(ok.headers['set-cookie'], `bo_console=${TOKEN}; Path=/; HttpOnly; SameSite=Strict; Secure; Max-Age=43200`);
});
