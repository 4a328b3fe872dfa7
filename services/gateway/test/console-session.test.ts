// Signing in to the team console: a session cookie (HttpOnly, SameSite=Strict) on the admin port
// only, a one-time password that must be replaced before the admin API takes the session, the admin
// API with that cookie under the person's role, CSRF on every change, a back-off after repeated
// failures, sign-out, and a strict Content-Security-Policy on the pages.
import t from 'tap';
import { Secret, TOTP } from 'otpauth';
import { chosenPassword, firstConsoleSignIn } from '@bo/test-support';
import { startHarness, ADMIN_TOKEN } from './support/harness.ts';

t.test('console sessions', async (t) => {
  const h = await startHarness({ CONSOLE_IDLE_MINUTES: '30' });
  t.teardown(() => h.close());
  const gw = h.gateways[0];
  const root = (method: string, p: string, body?: unknown) => h.admin(method, p, body);
  const ana = (await root('POST', '/admin/users', { email: 'ana@ourteam.example', role: 'finance' })).body;
  const signIn = (email: string, password: string) =>
    fetch(`${gw!.adminUrl}/console/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });

  t.test('the sign-in page lives on the admin port only, under a strict CSP', async (t) => {
    const page = await fetch(`${gw!.adminUrl}/`);
    t.equal(page.status, 200);
    const html = await page.text();
    t.match(html, /<input id="email" name="email"/);
    t.match(html, /<input id="password" name="password" type="password"/);
    t.match(page.headers.get('content-security-policy'), /default-src 'none'; script-src 'self'/);
    t.match(page.headers.get('content-security-policy'), /frame-ancestors 'none'/);
    t.equal(page.headers.get('x-content-type-options'), 'nosniff');
    t.equal((await fetch(`${gw!.publicUrl}/console/session`)).status, 404, 'nothing of the console on the public port');
  });

  t.test("a session cookie that works the admin API under the person's role, once the one-time password is replaced", async (t) => {
    const res = await signIn('ANA@ourteam.example', ana.password);
    t.equal(res.status, 200);
    const cookie = res.headers.get('set-cookie')!;
    t.match(
      cookie,
      /^bo_console=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=43200$/,
      'HttpOnly, SameSite=Strict (not Secure on a loopback admin port)',
    );
    const { csrfToken, user, setupRequired } = (await res.json()) as any;
    t.same(user, { id: ana.user.id, email: 'ana@ourteam.example', role: 'finance' });
    t.same(setupRequired, ['password'], 'a one-time password: a new one first');
    const session = cookie.split(';')[0];
    const asAna = (method: string, p: string, headers: Record<string, string> = {}, body?: unknown) =>
      fetch(`${gw!.adminUrl}${p}`, {
        method,
        headers: { cookie: session, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
        body: body !== undefined ? JSON.stringify(body) : undefined,
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
    const early = await asAna('GET', '/admin/operators');
    t.same(
      [early.status, early.body.error.code, early.body.error.details],
      [403, 'ACCOUNT_SETUP_REQUIRED', { setupRequired: ['password'] }],
      'nothing before that',
    );
    const change = (currentPassword: string, newPassword: string, headers = { 'x-csrf-token': csrfToken }) =>
      asAna('POST', '/console/password', headers, { currentPassword, newPassword });
    t.equal((await change(ana.password, chosenPassword(ana.user.email), { 'x-csrf-token': 'guess' })).body.error.code, 'CSRF_TOKEN_INVALID');
    const weak = await change(ana.password, 'password1234');
    t.same([weak.status, weak.body.error.details.issues], [422, [{ path: '/newPassword', message: 'is one of the most common passwords: choose another' }]]);
    t.same(await change(ana.password, chosenPassword(ana.user.email)), { status: 200, body: { changed: true } });
    t.equal((await signIn('ana@ourteam.example', ana.password)).status, 401, 'the one-time password is spent');
    t.equal((await asAna('GET', '/admin/operators')).status, 200, 'reads with the cookie');
    t.equal((await asAna('POST', '/admin/operators', {}, { name: 'X' })).body.error.code, 'CSRF_TOKEN_INVALID', 'a change without the CSRF token is refused');
    t.equal(
      (await asAna('POST', '/admin/operators', { 'x-csrf-token': csrfToken }, { name: 'X' })).body.error.code,
      'FORBIDDEN_ROLE',
      'with it, the role decides: finance creates no operator',
    );
    const me = (await fetch(`${gw!.adminUrl}/console/session`, { headers: { cookie: session } }).then((r) => r.json())) as any;
    t.same(me, { signedIn: true, user: { email: 'ana@ourteam.example', role: 'finance', secondFactor: false, setupRequired: [] }, csrfToken });

    const out = await fetch(`${gw!.adminUrl}/console/session`, { method: 'DELETE', headers: { cookie: session, 'x-csrf-token': csrfToken } });
    t.equal(out.status, 204);
    t.match(out.headers.get('set-cookie'), /bo_console=; .*Max-Age=0/);
    t.equal((await asAna('GET', '/admin/operators')).status, 401, 'signed out: the cookie is dead');
  });

  t.test('wrong passwords back the account off; the right one waits too; an admin reset issues a new one-time password', async (t) => {
    const bob = (await root('POST', '/admin/users', { email: 'bob@ourteam.example', role: 'support' })).body;
    const codes = [];
    for (let i = 0; i < 4; i++) codes.push((await signIn('bob@ourteam.example', 'wrong-password')).status);
    t.same(codes, [401, 401, 401, 401]);
    const blocked = await signIn('bob@ourteam.example', bob.password);
    t.same(
      [blocked.status, ((await blocked.json()) as any).error.code, blocked.headers.get('retry-after')],
      [429, 'RATE_LIMITED', '2'],
      'backed off after 3 free failures, saying for how long',
    );
    await h.operators.orm.em.fork().execute(`update operators.sign_in_throttle set blocked_until = now() - interval '1 second'`);
    t.equal((await signIn('bob@ourteam.example', bob.password)).status, 200, 'once the block has run out');
    t.equal((await signIn('nobody@ourteam.example', 'x')).status, 401, 'an unknown e-mail gets the same 401');
    const reset = await root('POST', `/admin/users/${bob.user.id}/reset-password`);
    t.match(reset, { status: 200, body: { user: { id: bob.user.id }, password: /^[A-Za-z0-9_-]{24}$/ } });
    t.equal((await signIn('bob@ourteam.example', bob.password)).status, 401, 'the old password is gone');
    const again = await signIn('bob@ourteam.example', reset.body.password);
    t.same(((await again.json()) as any).setupRequired, ['password'], 'the new one is one-time too');
    const audit = await root('GET', `/admin/audit?target=team_member:${bob.user.id}`);
    t.same(
      audit.body.data.map((r: { action: string }) => r.action).slice(0, 3),
      ['consoleSignIn', 'consoleSignInFailed', 'adminResetPassword'],
      'the reset and the sign-ins are audited',
    );
    await root('POST', `/admin/users/${bob.user.id}/disable`);
    t.equal((await signIn('bob@ourteam.example', reset.body.password)).status, 401, 'a disabled person cannot sign in');
    // Every test signs in from 127.0.0.1: the next one starts without this one's failures on that address.
    await h.operators.orm.em.fork().execute(`delete from operators.sign_in_throttle`);
  });

  t.test('the TOTP second factor: turned on with a first code, asked at sign-in, one use per code, reset by admin', async (t) => {
    const dora = (await root('POST', '/admin/users', { email: 'dora@ourteam.example', role: 'compliance' })).body;
    const signInWith = (body: Record<string, string>) =>
      fetch(`${gw!.adminUrl}/console/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(
        async (r) => ({ status: r.status, cookie: r.headers.get('set-cookie')?.split(';')[0], body: (await r.json()) as any }),
      );
    const first = await signInWith({ email: 'dora@ourteam.example', password: dora.password });
    t.equal(first.status, 200, 'no second factor yet: the password is enough');
    const asDora = (p: string, body?: unknown, csrf = first.body.csrfToken) =>
      fetch(`${gw!.adminUrl}${p}`, {
        method: 'POST',
        headers: { cookie: first.cookie!, 'x-csrf-token': csrf, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        body: body !== undefined ? JSON.stringify(body) : undefined,
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
    // The one-time password signed in once: from here on, her own.
    const password = chosenPassword(dora.user.email);
    t.equal((await asDora('/console/password', { currentPassword: dora.password, newPassword: password })).status, 200);
    t.equal((await asDora('/console/second-factor', undefined, 'wrong')).body.error.code, 'CSRF_TOKEN_INVALID');
    const setup = await asDora('/console/second-factor');
    t.equal(setup.status, 200);
    t.match(setup.body, { secret: /^[A-Z2-7]{32}$/, uri: /^otpauth:\/\/totp\/Back-office%20console:dora%40ourteam\.example\?/ });
    const [sealed] = await h.operators.orm.em.fork().execute(`select totp_pending_sealed from operators.team_members where id = ?`, [dora.user.id]);
    t.match(sealed?.totp_pending_sealed, /^v1\./, 'the secret is sealed at rest');
    t.notMatch(sealed?.totp_pending_sealed, setup.body.secret);
    const app = new TOTP({ secret: Secret.fromBase32(setup.body.secret), digits: 6, period: 30, algorithm: 'SHA1' });
    const wrong = String((Number(app.generate()) + 1) % 1_000_000).padStart(6, '0');
    t.equal((await asDora('/console/second-factor/confirm', { code: wrong })).body.error.code, 'VALIDATION_ERROR', 'a wrong first code turns nothing on');
    t.equal((await asDora('/console/second-factor/confirm', { code: app.generate() })).status, 200);
    t.equal((await asDora('/console/second-factor')).body.error.code, 'TOTP_ALREADY_ENABLED');

    const noCode = await signInWith({ email: 'dora@ourteam.example', password });
    t.same([noCode.status, noCode.body.error.code], [401, 'TOTP_REQUIRED'], 'the right password asks for the code');
    t.equal((await signInWith({ email: 'dora@ourteam.example', password: 'wrong', totp: app.generate() })).body.error.code, 'UNAUTHORIZED');
    t.equal((await signInWith({ email: 'dora@ourteam.example', password, totp: wrong })).body.error.code, 'UNAUTHORIZED', 'a wrong code');
    // The step the confirmation used is spent: the next sign-in needs a later code.
    const next = app.generate({ timestamp: Date.now() + 30_000 });
    const withCode = await signInWith({ email: 'dora@ourteam.example', password, totp: next });
    t.equal(withCode.status, 200, 'password and a fresh code');
    t.equal((await signInWith({ email: 'dora@ourteam.example', password, totp: next })).status, 401, 'the same code cannot be used twice');
    const users = (await root('GET', '/admin/users')).body.data;
    t.equal(users.find((u: { id: string }) => u.id === dora.user.id).secondFactor, true);

    const reset = await root('POST', `/admin/users/${dora.user.id}/reset-second-factor`);
    t.equal(reset.body.secondFactor, false);
    t.equal((await signInWith({ email: 'dora@ourteam.example', password })).status, 200, 'after a reset the password is enough again');
    const audit = await root('GET', `/admin/audit?target=team_member:${dora.user.id}&action=adminResetSecondFactor`);
    t.equal(audit.body.data.length, 1, 'the reset is audited');
  });

  t.test('idle sessions end', async (t) => {
    const eva = (await root('POST', '/admin/users', { email: 'eva@ourteam.example', role: 'support' })).body;
    const { cookie } = await firstConsoleSignIn(gw!.adminUrl, 'eva@ourteam.example', eva.password);
    t.equal((await fetch(`${gw!.adminUrl}/admin/operators`, { headers: { cookie } })).status, 200, 'set up: the admin API takes the session');
    await h.operators.orm.em.fork().execute(`update operators.console_sessions set last_seen_at = now() - interval '31 minutes'`);
    t.equal((await fetch(`${gw!.adminUrl}/admin/operators`, { headers: { cookie } })).status, 401, 'idle past CONSOLE_IDLE_MINUTES');
    t.equal((await fetch(`${gw!.adminUrl}/admin/operators`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).status, 200, 'tokens are unaffected');
  });
});
