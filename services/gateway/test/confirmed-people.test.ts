// Four eyes that one admin cannot defeat (issue #69). An admin who adds a person sees their one-time
// password, so activation alone proves nothing about who set the account up: a person's power is
// confirmed by a second, distinct, activated admin (compared by id, never by name) before their first
// decision. The ghost sequence (one admin adds two finance people, both activate, one approves and
// the other pays) stops at the first decision; a second admin's confirmations let it through. The
// first two admins of a deployment, added with ADMIN_TOKEN, confirm each other; a person ADMIN_TOKEN
// adds afterwards takes two admins' confirmations (its holder may be any admin); a password reset
// ends a confirmation; an unconfirmed admin adds and confirms nobody.
import t, { type Test } from 'tap';
import { activatedPerson, totpCode, type ActivatedPerson } from '@bo/test-support';
import { startHarness, ADMIN_TOKEN } from './support/harness.ts';
import { fakeService } from './support/fake-service.ts';

type Call = (method: string, p: string, body?: unknown) => Promise<{ status: number; body: any }>;

const call =
  (url: string, headers: Record<string, string>): Call =>
  async (method, p, body) => {
    const res = await fetch(`${url}${p}`, {
      method,
      headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
const sessionHeaders = (p: { cookie: string; csrfToken: string }) => ({ cookie: p.cookie, 'x-csrf-token': p.csrfToken });

async function setup(t: Test, env: Record<string, string>) {
  const h = await startHarness(env);
  const decisions = await fakeService(h, 'payments.admin.withdrawalDecision');
  decisions.respond = async (req) => ({ ok: true, status: 200, body: { id: 'wd_1', status: (req.body as { decision: string }).decision } });
  t.teardown(async () => {
    await decisions.close();
    await h.close();
  });
  const url = h.gateways[0]!.adminUrl;
  return { h, decisions, url, root: call(url, { authorization: `Bearer ${ADMIN_TOKEN}` }) };
}

t.test('in production (TOTP required of admin and finance)', async (t) => {
  const { decisions, url, root } = await setup(t, { NODE_ENV: 'production', CONSOLE_TOTP_REQUIRED_ROLES: 'admin,finance' });
  const rootHeaders = { authorization: `Bearer ${ADMIN_TOKEN}` };
  const person = (adder: Record<string, string>, email: string, role: string) => activatedPerson(url, adder, { email, role, token: false, confirm: false });
  let ana: ActivatedPerson;
  let bob: ActivatedPerson;

  t.test('bootstrap: the first two admins ADMIN_TOKEN adds confirm each other', async (t) => {
    ana = await person(rootHeaders, 'ana.admin@ourteam.example', 'admin');
    bob = await person(rootHeaders, 'bob.admin@ourteam.example', 'admin');
    const asAna = call(url, sessionHeaders(ana));
    const early = await asAna('POST', '/admin/users', { email: 'early@ourteam.example', role: 'finance' });
    t.same([early.status, early.body.error.code], [403, 'PERSON_NOT_CONFIRMED'], 'an admin not confirmed adds nobody');
    t.match(early.body.error.message, /a second admin.*users confirm/, 'the refusal names the way');
    const self = await asAna('POST', `/admin/users/${ana.id}/confirm`);
    t.same([self.status, self.body.error.code], [403, 'FOUR_EYES_REQUIRED'], 'nobody confirms themselves');
    const byRoot = await root('POST', `/admin/users/${ana.id}/confirm`);
    t.same([byRoot.status, byRoot.body.error.code], [403, 'PERSON_REQUIRED'], 'ADMIN_TOKEN is nobody: it confirms nobody');
    const bobConfirmed = await asAna('POST', `/admin/users/${bob.id}/confirm`);
    t.equal(bobConfirmed.status, 200, 'the founding pair: Ana confirms Bob');
    t.match(bobConfirmed.body, {
      id: bob.id,
      addedBy: 'admin',
      activated: true,
      confirmedAt: /Z$/,
      confirmedBy: [{ actor: `user:${ana.email}`, actorId: ana.id }],
    });
    const anaConfirmed = await call(url, sessionHeaders(bob))('POST', `/admin/users/${ana.id}/confirm`);
    t.equal(anaConfirmed.status, 200, 'and Bob confirms Ana');
    t.equal(anaConfirmed.body.confirmationsNeeded, 0);
    const audit = (await root('GET', `/admin/audit?target=team_member:${bob.id}&action=adminConfirmUser`)).body.data;
    t.match(audit, [{ actor: `user:${ana.email}`, actorId: ana.id, after: { addedBy: 'admin', activated: true, foundingPair: true } }], 'audited');
  });

  t.test('the ghost sequence: one admin adds two finance people, both activate; the first decision stops', async (t) => {
    const asAna = call(url, sessionHeaders(ana));
    const ghosts = [
      await person(sessionHeaders(ana), 'ghost-one@ourteam.example', 'finance'),
      await person(sessionHeaders(ana), 'ghost-two@ourteam.example', 'finance'),
    ];
    t.ok(
      ghosts.every((g) => g.totpSecret),
      'both activated (their own password, TOTP)',
    );
    const listed = (await root('GET', '/admin/users')).body.data.filter((u: { id: string }) => ghosts.some((g) => g.id === u.id));
    t.match(listed, [
      { addedBy: `user:${ana.email}`, activated: true, confirmedAt: null, confirmationsNeeded: 1 },
      { addedBy: `user:${ana.email}`, activated: true, confirmedAt: null, confirmationsNeeded: 1 },
    ]);
    const approve = await call(url, sessionHeaders(ghosts[0]!))('POST', '/admin/withdrawals/wd_1/decision', { decision: 'approve' });
    t.same([approve.status, approve.body.error.code], [403, 'PERSON_NOT_CONFIRMED'], 'the approval stops at the gateway');
    t.match(approve.body.error.message, /ghost-one@ourteam\.example is not confirmed yet.*users confirm/);
    t.same(approve.body.error.details, { userId: ghosts[0]!.id });
    const pay = await call(url, sessionHeaders(ghosts[1]!))('POST', '/admin/withdrawals/wd_1/decision', { decision: 'pay' });
    t.same([pay.status, pay.body.error.code], [403, 'PERSON_NOT_CONFIRMED'], 'and so does the payment');
    t.equal(decisions.calls.length, 0, 'nothing reached the payments service');
    for (const ghost of ghosts) {
      const own = await asAna('POST', `/admin/users/${ghost.id}/confirm`);
      t.same([own.status, own.body.error.code], [403, 'FOUR_EYES_REQUIRED'], 'the admin who added them cannot confirm them');
      t.match(own.body.error.message, /another admin confirms them/);
    }
    const peer = await call(url, sessionHeaders(ghosts[0]!))('POST', `/admin/users/${ghosts[1]!.id}/confirm`);
    t.same([peer.status, peer.body.error.code], [403, 'FORBIDDEN_ROLE'], 'nor does one ghost confirm the other');

    // A second admin, Bob, confirms them: only then do they decide, four eyes still between them.
    for (const ghost of ghosts) {
      const confirmed = await call(url, sessionHeaders(bob))('POST', `/admin/users/${ghost.id}/confirm`);
      t.match([confirmed.status, confirmed.body], [200, { confirmationsNeeded: 0, confirmedBy: [{ actorId: bob.id }] }], `Bob confirms ${ghost.email}`);
    }
    t.equal((await call(url, sessionHeaders(ghosts[0]!))('POST', '/admin/withdrawals/wd_1/decision', { decision: 'approve' })).status, 200, 'approved');
    t.equal((await call(url, sessionHeaders(ghosts[1]!))('POST', '/admin/withdrawals/wd_1/decision', { decision: 'pay' })).status, 200, 'paid by the other');
    t.match(
      decisions.calls.map((c) => c.ctx.scope),
      [{ personId: ghosts[0]!.id }, { personId: ghosts[1]!.id }],
    );
    // The audit shows who added, who activated (the person themself) and who confirmed.
    const audit = (await root('GET', `/admin/audit?target=team_member:${ghosts[0]!.id}`)).body.data as {
      action: string;
      actor: string;
      actorId: string | null;
    }[];
    const step = (action: string) => audit.find((r) => r.action === action);
    t.match(step('adminCreateUser'), { actor: `user:${ana.email}`, actorId: ana.id }, 'added by Ana');
    t.match(step('consoleChangePassword'), { actor: `user:${ghosts[0]!.email}` }, 'activated by the person');
    t.match(step('consoleEnableSecondFactor'), { actor: `user:${ghosts[0]!.email}` });
    t.match(
      step('adminConfirmUser'),
      { actor: `user:${bob.email}`, actorId: bob.id, after: { addedBy: `user:${ana.email}`, activated: true } },
      'confirmed by Bob',
    );
  });

  t.test('an admin not confirmed adds nobody and confirms nobody once the pair exists', async (t) => {
    const cy = await person(sessionHeaders(ana), 'cy.admin@ourteam.example', 'admin');
    const asCy = call(url, sessionHeaders(cy));
    t.equal((await asCy('POST', '/admin/users', { email: 'proxy@ourteam.example', role: 'finance' })).body.error.code, 'PERSON_NOT_CONFIRMED');
    const dee = await person(sessionHeaders(bob), 'dee@ourteam.example', 'support');
    const refused = await asCy('POST', `/admin/users/${dee.id}/confirm`);
    t.same([refused.status, refused.body.error.code], [403, 'PERSON_NOT_CONFIRMED'], 'bootstrap is over: only confirmed admins confirm');
    t.equal((await asCy('GET', '/admin/users')).status, 200, 'reading stays open to them');
  });

  t.test('ADMIN_TOKEN adds after the bootstrap: two admins confirm; a password reset ends it', async (t) => {
    const gil = await person(rootHeaders, 'gil@ourteam.example', 'finance');
    const one = await call(url, sessionHeaders(ana))('POST', `/admin/users/${gil.id}/confirm`);
    t.match([one.status, one.body], [200, { confirmedAt: null, confirmationsNeeded: 1 }], 'one admin is not enough: its holder may be any admin');
    t.equal((await call(url, sessionHeaders(ana))('POST', `/admin/users/${gil.id}/confirm`)).body.confirmationsNeeded, 1, 'nor twice the same one');
    const asGil = call(url, sessionHeaders(gil));
    t.equal((await asGil('POST', '/admin/withdrawals/wd_1/decision', { decision: 'approve' })).body.error.code, 'PERSON_NOT_CONFIRMED');
    const two = await call(url, sessionHeaders(bob))('POST', `/admin/users/${gil.id}/confirm`);
    t.match([two.status, two.body], [200, { confirmedAt: /Z$/, confirmationsNeeded: 0 }], 'a second admin completes it');
    t.equal((await asGil('POST', '/admin/withdrawals/wd_1/decision', { decision: 'approve' })).status, 200, 'Gil decides');

    // Ana resets Gil's password: she saw the new one-time password, so his confirmation ends.
    const reset = await call(url, sessionHeaders(ana))('POST', `/admin/users/${gil.id}/reset-password`);
    t.match(reset.body.user, { confirmedAt: null, confirmedBy: [], confirmationsNeeded: 1 });
    const unset = await call(url, sessionHeaders(bob))('POST', `/admin/users/${gil.id}/confirm`);
    t.same([unset.status, unset.body.error.code], [409, 'TEAM_MEMBER_NOT_ACTIVATED'], 'not before he set up again');
    const again = await fetch(`${url}/console/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: gil.email, password: reset.body.password, totp: totpCode(gil.totpSecret!, Date.now() + 30_000) }),
    });
    t.equal(again.status, 200);
    const s = { cookie: again.headers.get('set-cookie')!.split(';')[0]!, csrfToken: ((await again.json()) as { csrfToken: string }).csrfToken };
    t.equal((await call(url, sessionHeaders(s))('POST', '/console/password', { newPassword: 'gil-chose-again-a-passphrase-9' })).status, 200);
    const asGilAgain = call(url, sessionHeaders(s));
    t.equal((await asGilAgain('POST', '/admin/withdrawals/wd_1/decision', { decision: 'approve' })).body.error.code, 'PERSON_NOT_CONFIRMED');
    t.equal((await call(url, sessionHeaders(ana))('POST', `/admin/users/${gil.id}/confirm`)).body.error.code, 'FOUR_EYES_REQUIRED', 'not by who reset it');
    t.equal((await call(url, sessionHeaders(bob))('POST', `/admin/users/${gil.id}/confirm`)).status, 200, 'by another admin');
    t.equal((await asGilAgain('POST', '/admin/withdrawals/wd_1/decision', { decision: 'approve' })).status, 200);
  });
});

t.test('outside production: a stand-in of another label confirms, never the one who added', async (t) => {
  const { decisions, url } = await setup(t, {});
  const adder = { authorization: `Bearer ${ADMIN_TOKEN}`, 'x-admin-actor': 'carla.qa' };
  const fin = await activatedPerson(url, adder, { email: 'fin@ourteam.example', role: 'finance', token: false, confirm: false });
  const asFin = call(url, sessionHeaders(fin));
  t.equal((await asFin('POST', '/admin/withdrawals/wd_1/decision', { decision: 'approve' })).body.error.code, 'PERSON_NOT_CONFIRMED');
  const same = await call(url, adder)('POST', `/admin/users/${fin.id}/confirm`);
  t.same([same.status, same.body.error.code], [403, 'FOUR_EYES_REQUIRED'], 'the stand-in who added her');
  const other = await call(url, { authorization: `Bearer ${ADMIN_TOKEN}`, 'x-admin-actor': 'dan.qa' })('POST', `/admin/users/${fin.id}/confirm`);
  t.match([other.status, other.body], [200, { confirmationsNeeded: 0, confirmedBy: [{ actor: 'stand-in:dan.qa' }] }]);
  t.equal((await asFin('POST', '/admin/withdrawals/wd_1/decision', { decision: 'approve' })).status, 200);
  t.equal(decisions.calls.length, 1);
});
