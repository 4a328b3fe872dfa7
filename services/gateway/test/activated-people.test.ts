// Power only to activated people, tokens only by their owner (issue #56). A person decides only once
// activated (their own password, and TOTP where the role requires it); a personal token is made by
// its owner only, from their own console session (with a fresh code when TOTP is on), never by an
// admin for someone else; admins list and revoke tokens. The "ghost" sequence (an admin adds two
// finance people, mints a personal token for each, approves with one and pays with the other) fails
// at its first step that grants power, in production and outside it. Outside production
// X-Admin-Actor carries a stand-in's label, never a team member's name.
import t, { type Test } from 'tap';
import { activatedPerson, confirmPerson, firstConsoleSignIn, totpCode } from '@bo/test-support';
import { startHarness, ADMIN_TOKEN, type Harness } from './support/harness.ts';
import { fakeService, type FakeService } from './support/fake-service.ts';

interface Setup {
  h: Harness;
  withdrawals: FakeService;
  url: string;
}

async function setup(t: Test, env: Record<string, string>): Promise<Setup> {
  const h = await startHarness(env);
  const withdrawals = await fakeService(h, 'payments.admin.withdrawalDecision');
  withdrawals.respond = async () => ({ ok: true, status: 200, body: { id: 'wd_1', status: 'approved' } });
  t.teardown(async () => {
    await withdrawals.close();
    await h.close();
  });
  return { h, withdrawals, url: h.gateways[0]!.adminUrl };
}

const call =
  (url: string, headers: Record<string, string>) =>
  async (method: string, p: string, body?: unknown): Promise<{ status: number; body: any }> => {
    const res = await fetch(`${url}${p}`, {
      method,
      headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
const bearer = (url: string, token: string, more: Record<string, string> = {}) => call(url, { authorization: `Bearer ${token}`, ...more });
const session = (url: string, s: { cookie: string; csrfToken: string }) => call(url, { cookie: s.cookie, 'x-csrf-token': s.csrfToken });

/** The ghost sequence: it must stop at the personal tokens an admin asks for others, with nothing minted and nothing decided. */
async function ghostSequence(t: Test, { withdrawals, url }: Setup, admin: ReturnType<typeof call>, production: boolean): Promise<void> {
  const ghosts = [];
  for (const email of ['ghost-one@ourteam.example', 'ghost-two@ourteam.example']) {
    const made = await admin('POST', '/admin/users', { email, role: 'finance' });
    t.equal(made.status, 201, `${email} is added (no power yet: a one-time password)`);
    ghosts.push({ ...made.body.user, password: made.body.password });
  }
  for (const ghost of ghosts) {
    const minted = await admin('POST', '/admin/tokens', { name: `${ghost.email.split('@')[0]}-cli`, role: 'finance', userId: ghost.id });
    t.same(
      [minted.status, minted.body.error?.code],
      [403, 'TOKEN_OWNER_REQUIRED'],
      'no personal token for someone else: the first step that grants power fails',
    );
    t.match(minted.body.error?.message, /its owner only, from their own console session/, 'the refusal names the way');
  }
  const tokens = (await bearer(url, ADMIN_TOKEN)('GET', '/admin/tokens')).body.data;
  t.same(
    tokens.filter((tk: { userId: string | null }) => tk.userId !== null),
    [],
    'nothing was minted',
  );
  // What the ghosts could still try: their one-time passwords' sessions open the setup only.
  const first = await fetch(`${url}/console/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: ghosts[0].email, password: ghosts[0].password }),
  });
  const cookie = first.headers.get('set-cookie')!.split(';')[0]!;
  const { csrfToken } = (await first.json()) as { csrfToken: string };
  const approve = await session(url, { cookie, csrfToken })('POST', '/admin/withdrawals/wd_1/decision', { decision: 'approve' });
  t.same([approve.status, approve.body.error.code], [403, 'ACCOUNT_SETUP_REQUIRED'], 'a person not activated decides nothing');
  const ownToken = await session(url, { cookie, csrfToken })('POST', '/admin/account/tokens', { name: 'ghost-own' });
  t.same([ownToken.status, ownToken.body.error.code], [403, 'ACCOUNT_SETUP_REQUIRED'], 'nor makes a token');
  if (production) {
    const byRoot = await bearer(url, ADMIN_TOKEN)('POST', '/admin/withdrawals/wd_1/decision', { decision: 'approve' });
    t.equal(byRoot.body.error.code, 'PERSON_REQUIRED', 'in production ADMIN_TOKEN decides nothing either');
  }
  t.equal(withdrawals.calls.length, 0, 'no decision reached the payments service');
}

t.test('in production (NODE_ENV=production, TOTP required of admin and finance)', async (t) => {
  const s = await setup(t, { NODE_ENV: 'production', CONSOLE_TOTP_REQUIRED_ROLES: 'admin,finance' });
  const { h, withdrawals, url } = s;
  const root = bearer(url, ADMIN_TOKEN);

  t.test('the ghost sequence fails at its first step that grants power (ADMIN_TOKEN)', async (t) => {
    await ghostSequence(t, s, root, true);
  });

  t.test("the ghost sequence fails with an activated admin's session too", async (t) => {
    const admin = await activatedPerson(url, { authorization: `Bearer ${ADMIN_TOKEN}` }, { email: 'ada@ourteam.example', role: 'admin', token: false });
    t.ok(admin.totpSecret, 'the admin had to turn TOTP on');
    const asAdmin = session(url, admin);
    const finance = (await asAdmin('POST', '/admin/users', { email: 'fin@ourteam.example', role: 'finance' })).body.user;
    const minted = await asAdmin('POST', '/admin/tokens', { name: 'fin-cli', role: 'finance', userId: finance.id });
    t.same([minted.status, minted.body.error?.code], [403, 'TOKEN_OWNER_REQUIRED'], 'an admin never mints a personal token for someone else');
    const service = await asAdmin('POST', '/admin/tokens', { name: 'payout-bot', role: 'finance' });
    t.equal(service.status, 201, 'an admin still issues service tokens');
    t.equal(service.body.token.userId, null, '(of no person)');
    const byBot = await bearer(url, service.body.secret)('POST', '/admin/withdrawals/wd_1/decision', { decision: 'approve' });
    t.equal(byBot.body.error.code, 'PERSON_REQUIRED', 'which decide nothing');
    t.equal(withdrawals.calls.length, 0);
  });

  t.test('a personal token is made by its owner, from their own session, with a fresh code', async (t) => {
    const bea = await activatedPerson(url, { authorization: `Bearer ${ADMIN_TOKEN}` }, { email: 'bea@ourteam.example', role: 'finance', token: false });
    t.ok(bea.totpSecret, 'finance turned TOTP on before anything else');
    const asBea = session(url, bea);
    const noCode = await asBea('POST', '/admin/account/tokens', { name: 'bea-cli' });
    t.same([noCode.status, noCode.body.error.details.issues[0].path], [422, '/totp'], 'TOTP on: a code is required');
    const reused = await asBea('POST', '/admin/account/tokens', { name: 'bea-cli', totp: bea.enrolmentCode });
    t.same([reused.status, reused.body.error.details.issues[0].path], [422, '/totp'], 'the code her enrolment used is spent');
    const fresh = totpCode(bea.totpSecret!, Date.now() + 30_000);
    const made = await asBea('POST', '/admin/account/tokens', { name: 'bea-cli', totp: fresh });
    t.equal(made.status, 201, 'a fresh code: made');
    t.match(made.body, { token: { name: 'bea-cli', role: 'finance', userId: bea.id }, secret: /^bo_tok_[0-9a-f]{32}_[A-Za-z0-9_-]{43}$/ });
    t.equal((await asBea('POST', '/admin/account/tokens', { name: 'bea-cli2', totp: fresh })).status, 422, 'a code works once');
    const decided = await bearer(url, made.body.secret, { 'x-admin-actor': 'someone-else' })('POST', '/admin/withdrawals/wd_1/decision', {
      decision: 'approve',
    });
    t.equal(decided.status, 200, 'her token decides');
    t.match(withdrawals.calls.at(-1)?.ctx.scope, { kind: 'admin', actor: 'user:bea@ourteam.example', personId: bea.id }, 'as her, never the header');
    const fromToken = await bearer(url, made.body.secret)('POST', '/admin/account/tokens', {
      name: 'bea-more',
      totp: totpCode(bea.totpSecret!, Date.now() + 60_000),
    });
    t.same([fromToken.status, fromToken.body.error.code], [403, 'TOKEN_OWNER_REQUIRED'], 'a token never makes another');
    const fromRoot = await root('POST', '/admin/account/tokens', { name: 'root-own' });
    t.same([fromRoot.status, fromRoot.body.error.code], [403, 'TOKEN_OWNER_REQUIRED'], 'ADMIN_TOKEN owns no personal token');
    const audit = (await root('GET', `/admin/audit?target=service_token:${made.body.token.id}`)).body.data;
    t.match(audit, [{ action: 'adminCreateOwnToken', actor: 'user:bea@ourteam.example' }], 'audited, naming her');

    // Once her second factor is reset (a lost phone) she is no longer activated: her token does nothing.
    const calls = withdrawals.calls.length;
    t.equal((await root('POST', `/admin/users/${bea.id}/reset-second-factor`)).status, 200);
    const refused = await bearer(url, made.body.secret)('POST', '/admin/withdrawals/wd_1/decision', { decision: 'approve' });
    t.same([refused.status, refused.body.error.code, refused.body.error.details], [403, 'ACCOUNT_SETUP_REQUIRED', { setupRequired: ['secondFactor'] }]);
    t.equal(withdrawals.calls.length, calls, 'nothing reached the service');
  });

  t.test('a token of a person never activated (minted before this change) decides nothing', async (t) => {
    const gil = (await root('POST', '/admin/users', { email: 'gil@ourteam.example', role: 'finance' })).body.user;
    // As `POST /admin/tokens {userId}` made them before issue #56: straight into the table.
    const secret = `bo_tok_${'ab'.repeat(16)}_${'x'.repeat(43)}`;
    const { createHash } = await import('node:crypto');
    await h.operators.orm.em
      .fork()
      .execute(`insert into operators.service_tokens (id, name, role, member_id, secret_hash, created_at) values (?, 'gil-cli', 'finance', ?, ?, now())`, [
        `tok_${'ab'.repeat(16)}`,
        gil.id,
        createHash('sha256').update(secret).digest('hex'),
      ]);
    const refused = await bearer(url, secret)('POST', '/admin/withdrawals/wd_1/decision', { decision: 'approve' });
    t.same(
      [refused.status, refused.body.error.code, refused.body.error.details],
      [403, 'ACCOUNT_SETUP_REQUIRED', { setupRequired: ['password', 'secondFactor'] }],
    );
    t.equal((await bearer(url, secret)('GET', '/admin/withdrawals')).status, 403, 'nor reads');
  });

  t.test('X-Admin-Actor names nobody in production', async (t) => {
    const refused = await bearer(url, ADMIN_TOKEN, { 'x-admin-actor': 'user:bea@ourteam.example' })('POST', '/admin/withdrawals/wd_1/decision', {
      decision: 'approve',
    });
    t.equal(refused.body.error.code, 'PERSON_REQUIRED');
  });
});

t.test('outside production', async (t) => {
  const s = await setup(t, {});
  const { withdrawals, url } = s;
  const root = bearer(url, ADMIN_TOKEN);

  t.test('the ghost sequence fails at its first step that grants power', async (t) => {
    await ghostSequence(t, s, root, false);
  });

  t.test('X-Admin-Actor carries a stand-in label, never a team member', async (t) => {
    const ana = await activatedPerson(url, { authorization: `Bearer ${ADMIN_TOKEN}` }, { email: 'ana@ourteam.example', role: 'finance', token: false });
    const calls = withdrawals.calls.length;
    for (const claimed of ['user:ana@ourteam.example', 'ana@ourteam.example', 'token:payout-bot', 'actor:x', 'ana team', '-ana', 'a'.repeat(65)]) {
      const refused = await bearer(url, ADMIN_TOKEN, { 'x-admin-actor': claimed })('POST', '/admin/withdrawals/wd_1/decision', { decision: 'approve' });
      t.same([refused.status, refused.body.error.code, refused.body.error.details?.issues?.[0]?.path], [422, 'VALIDATION_ERROR', '/x-admin-actor'], claimed);
    }
    t.equal((await bearer(url, ADMIN_TOKEN, { 'x-admin-actor': 'ana@ourteam.example' })('GET', '/admin/users')).status, 422, 'refused on reads too');
    t.equal(withdrawals.calls.length, calls, 'nothing reached the service');
    const labelled = await bearer(url, ADMIN_TOKEN, { 'x-admin-actor': 'carla.qa' })('POST', '/admin/withdrawals/wd_1/decision', { decision: 'approve' });
    t.equal(labelled.status, 200, 'a label is a stand-in person (tests, the sandbox)');
    t.match(withdrawals.calls.at(-1)?.ctx.scope, { actor: 'stand-in:carla.qa', personId: 'actor:stand-in:carla.qa' }, 'named as a stand-in');
    t.notMatch(JSON.stringify(withdrawals.calls.map((c) => c.ctx.scope)), /ana@ourteam\.example/, 'never in her name');
    t.equal((await root('GET', '/admin/users')).body.data.find((u: { email: string }) => u.email === ana.email)?.id, ana.id, 'while she is a team member');
  });

  t.test('admins list and revoke tokens; a person lists and revokes their own only', async (t) => {
    const cy = await activatedPerson(url, { authorization: `Bearer ${ADMIN_TOKEN}` }, { email: 'cy@ourteam.example', role: 'support' });
    const dee = await activatedPerson(url, { authorization: `Bearer ${ADMIN_TOKEN}` }, { email: 'dee@ourteam.example', role: 'compliance' });
    t.notOk(cy.totpSecret, 'no TOTP required outside production');
    const all = (await root('GET', '/admin/tokens')).body.data;
    t.same(
      all.filter((tk: { userId: string }) => [cy.id, dee.id].includes(tk.userId)).map((tk: { userId: string; role: string }) => [tk.userId, tk.role]),
      [
        [cy.id, 'support'],
        [dee.id, 'compliance'],
      ],
      "the admin lists everyone's tokens, each in its person's role",
    );
    const mine = await session(url, cy)('GET', '/admin/account/tokens');
    t.same(
      mine.body.data.map((tk: { id: string }) => tk.id),
      [cy.tokenId],
      'a person lists their own only',
    );
    t.equal((await bearer(url, cy.token!)('GET', '/admin/account/tokens')).body.data.length, 1, 'also with that token');
    const notHers = await session(url, cy)('POST', `/admin/account/tokens/${dee.tokenId}/revoke`);
    t.same([notHers.status, notHers.body.error.code], [404, 'TEAM_MEMBER_NOT_FOUND'], "nobody revokes another's token as their own");
    t.equal((await session(url, cy)('POST', `/admin/account/tokens/${cy.tokenId}/revoke`)).status, 200, 'her own: revoked');
    t.equal((await bearer(url, cy.token!)('GET', '/admin/operators')).status, 401, 'and refused from then on');
    t.equal((await root('POST', `/admin/tokens/${dee.tokenId}/revoke`)).status, 200, "an admin revokes anyone's");
    t.equal((await bearer(url, dee.token!)('GET', '/admin/operators')).status, 401);
    // A personal token made before a password reset stops with the reset, until the person chooses a new one.
    const eve = await activatedPerson(url, { authorization: `Bearer ${ADMIN_TOKEN}` }, { email: 'eve@ourteam.example', role: 'finance' });
    t.equal((await bearer(url, eve.token!)('POST', '/admin/withdrawals/wd_1/decision', { decision: 'approve' })).status, 200, 'activated: decides');
    const reset = await root('POST', `/admin/users/${eve.id}/reset-password`);
    const refused = await bearer(url, eve.token!)('POST', '/admin/withdrawals/wd_1/decision', { decision: 'approve' });
    t.same([refused.status, refused.body.error.code], [403, 'ACCOUNT_SETUP_REQUIRED'], 'a reset: not activated until she chooses a new password');
    await firstConsoleSignIn(url, eve.email, reset.body.password, `${eve.password}-again`);
    // Whoever reset it saw the new one-time password: a second admin confirms her again (issue #69).
    const unconfirmed = await bearer(url, eve.token!)('POST', '/admin/withdrawals/wd_1/decision', { decision: 'approve' });
    t.same([unconfirmed.status, unconfirmed.body.error.code], [403, 'PERSON_NOT_CONFIRMED'], 'activated again, her confirmation ended by the reset');
    await confirmPerson(url, { authorization: `Bearer ${ADMIN_TOKEN}` }, eve.id);
    t.equal((await bearer(url, eve.token!)('POST', '/admin/withdrawals/wd_1/decision', { decision: 'approve' })).status, 200, 'confirmed again: decides');
  });
});
