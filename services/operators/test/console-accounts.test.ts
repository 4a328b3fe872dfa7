// Console accounts over NATS, as the gateway asks them: a one-time password signs in once, only to be
// replaced, and expires (the policy refuses short, e-mail and common passwords; the current one is required),
// an admin reset issues a new one and ends the sessions; roles that require TOTP enrol before
// anything else; sign-ins, failures, password changes, resets and second-factor changes are audited;
// failures back off per account and per address, in the database (a restarted or another replica
// refuses the same attempts), on the service's clock, which the test moves.
import t from 'tap';
import { Secret, TOTP } from 'otpauth';
import { operatorMessages as m } from '@bo/contracts';
import { adminScope, errorOf, internalScope, ok, startStack } from '@bo/test-support';
import { loadOperatorsConfig, totpRequiredRoles } from '../src/config.ts';
import { operatorsServiceWith } from '../src/service.ts';

const gateway = internalScope('gateway');
const GOOD = 'violet-lantern-harbour-42';
let offset = 0;
const operators = operatorsServiceWith({ now: () => Date.now() + offset });

async function accountsStack(t: Parameters<typeof startStack>[0], label: string, extra: Record<string, unknown> = {}) {
  const stack = await startStack(t, label);
  await stack.start(operators, extra);
  const ask = (message: { subject: string }, body: unknown) => stack.call(message.subject, { scope: gateway, body });
  const signIn = (email: string, password: string, address = '203.0.113.7', totp?: string) =>
    ask(m.signIn, { email, password, address, requestId: 'req_signin', ...(totp ? { totp } : {}) });
  const identify = async (token: string) => ok<any>(await ask(m.identifySession, { token })).session;
  const createUser = async (email: string, role: string) =>
    ok<any>(await stack.call('operators.admin.createUser', { scope: adminScope, body: { email, role } }));
  const audit = async (target: string) =>
    ok<any>(await stack.call('operators.admin.listAudit', { scope: adminScope, query: { target, limit: 100 } })).data.map((r: any) => r.action);
  const changePassword = (who: any, token: string, currentPassword: string | undefined, newPassword: string) =>
    ask(m.changePassword, {
      memberId: who.memberId,
      email: who.email,
      secondFactor: who.secondFactor,
      token,
      ...(currentPassword === undefined ? {} : { currentPassword }),
      newPassword,
      address: '203.0.113.7',
      requestId: 'req_pw',
    });
  return { stack, ask, signIn, identify, createUser, audit, changePassword };
}

t.test('a one-time password signs in once, to choose a new one; an admin reset issues another', async (t) => {
  const s = await accountsStack(t, 'opacct');
  const ana = await s.createUser('ana@ourteam.example', 'support');
  const first = ok<any>(await s.signIn('ana@ourteam.example', ana.password));
  t.same(first.setupRequired, ['password'], 'the sign-in says what must be done first');
  t.equal(errorOf(await s.signIn('ana@ourteam.example', ana.password))?.code, 'UNAUTHORIZED', 'that sign-in spent it: a second is refused');
  const who = await s.identify(first.token);
  t.same(who.setupRequired, ['password'], 'and so does the session, until it is done');

  const refused = async (current: string | undefined, next: string) => {
    const e = errorOf(await s.changePassword(who, first.token, current, next)) as any;
    return [e?.code, e?.details?.issues?.[0]?.path, e?.details?.issues?.[0]?.message];
  };
  t.same(await refused('not-the-password', GOOD), ['VALIDATION_ERROR', '/currentPassword', 'is not your current password']);
  t.same(await refused(ana.password, 'short-pw-1'), ['VALIDATION_ERROR', '/newPassword', 'must be at least 12 characters long']);
  t.same(await refused(ana.password, 'ANA@ourteam.example'), ['VALIDATION_ERROR', '/newPassword', 'must not be your e-mail address']);
  t.same(await refused(ana.password, 'password1234'), ['VALIDATION_ERROR', '/newPassword', 'is one of the most common passwords: choose another']);
  t.same(await refused(ana.password, 'qwertyuiop!!'), ['VALIDATION_ERROR', '/newPassword', 'is one of the most common passwords: choose another']);
  t.same(await refused(ana.password, ana.password), ['VALIDATION_ERROR', '/newPassword', 'must differ from the current password']);
  t.same(await refused(undefined, ana.password), ['VALIDATION_ERROR', '/newPassword', 'must differ from the current password']);
  // The setup's session need not give the one-time password again (the console does not ask it).
  ok(await s.changePassword(who, first.token, undefined, GOOD));

  t.same((await s.identify(first.token)).setupRequired, [], 'this session is set up');
  const set = await s.identify(first.token);
  t.same(
    [
      errorOf(await s.changePassword(set, first.token, undefined, `${GOOD} again`))?.code,
      (errorOf(await s.changePassword(set, first.token, undefined, `${GOOD} again`)) as any)?.details?.issues?.[0]?.path,
    ],
    ['VALIDATION_ERROR', '/currentPassword'],
    'once set up, a change asks the current password',
  );
  t.equal(errorOf(await s.signIn('ana@ourteam.example', ana.password))?.code, 'UNAUTHORIZED', 'the one-time password is spent');
  t.same(ok<any>(await s.signIn('ana@ourteam.example', GOOD)).setupRequired, [], 'the chosen one signs in, nothing to do first');

  const reset = ok<any>(await s.stack.call('operators.admin.resetPassword', { scope: adminScope, params: { id: ana.user.id } }));
  t.match(reset, { user: { id: ana.user.id, email: 'ana@ourteam.example' }, password: /^[A-Za-z0-9_-]{24}$/ });
  t.equal(await s.identify(first.token), null, "a reset ends the person's sessions");
  t.equal(errorOf(await s.signIn('ana@ourteam.example', GOOD))?.code, 'UNAUTHORIZED', 'the chosen password no longer works');
  t.same(ok<any>(await s.signIn('ana@ourteam.example', reset.password)).setupRequired, ['password'], 'the new one-time password must be replaced');
  t.equal(errorOf(await s.stack.call('operators.admin.resetPassword', { scope: adminScope, params: { id: 'usr_none' } }))?.code, 'TEAM_MEMBER_NOT_FOUND');

  const actions = await s.audit(`team_member:${ana.user.id}`);
  t.same(
    [...actions].reverse(),
    [
      'adminCreateUser',
      'consoleSignIn',
      'consoleSignInFailed', // the one-time password again
      'consoleSignInFailed', // the wrong current password
      'consoleChangePassword',
      'consoleSignInFailed',
      'consoleSignIn',
      'adminResetPassword',
      'consoleSignInFailed',
      'consoleSignIn',
    ],
    'sign-ins, failures, the change and the reset are in the audit log, in order',
  );
  const rows = ok<any>(await s.stack.call('operators.admin.listAudit', { scope: adminScope, query: { target: `team_member:${ana.user.id}` } })).data;
  t.match(
    rows.find((r: any) => r.action === 'consoleChangePassword'),
    {
      actor: 'user:ana@ourteam.example',
      before: { oneTimePassword: true },
      requestId: 'req_pw',
    },
  );
  t.match(
    rows.find((r: any) => r.action === 'consoleSignInFailed'),
    { after: { reason: 'wrong password', address: '203.0.113.7' } },
  );
  t.notMatch(JSON.stringify(rows), GOOD, 'no password in the audit log');
  t.notMatch(JSON.stringify(rows), reset.password);
});

t.test('a one-time password signs in once even when asked twice at once, expires, and a reset voids it', async (t) => {
  const s = await accountsStack(t, 'opotp', { CONSOLE_ONE_TIME_PASSWORD_HOURS: 5 });
  const sql = s.stack.services.get('operators')!.sql;
  const hoursLeft = async (id: string) =>
    (
      await sql.query<{ hours: number }>(
        `select round(extract(epoch from one_time_password_expires_at - now()) / 3600)::int as hours from operators.team_members where id = ?`,
        [id],
      )
    )[0]!.hours;
  const cy = await s.createUser('cy@ourteam.example', 'support');
  t.equal(await hoursLeft(cy.user.id), 5, 'it expires CONSOLE_ONE_TIME_PASSWORD_HOURS after it was issued');
  const both = await Promise.all([s.signIn('cy@ourteam.example', cy.password), s.signIn('cy@ourteam.example', cy.password)]);
  t.same(both.map((r) => errorOf(r)?.code ?? 'signed in').sort(), ['UNAUTHORIZED', 'signed in'], 'two sign-ins at once: one session');

  const reset = ok<any>(await s.stack.call('operators.admin.resetPassword', { scope: adminScope, params: { id: cy.user.id } }));
  const again = ok<any>(await s.stack.call('operators.admin.resetPassword', { scope: adminScope, params: { id: cy.user.id } }));
  t.equal(errorOf(await s.signIn('cy@ourteam.example', reset.password))?.code, 'UNAUTHORIZED', 'a reset voids the one-time password before it');
  t.equal(await hoursLeft(cy.user.id), 5, 'the new one has its own lifetime');
  // Its lifetime runs out (the database's clock decides: moved here rather than waited for).
  await sql.query(`update operators.team_members set one_time_password_expires_at = now() - interval '1 second' where id = ?`, [cy.user.id]);
  t.equal(errorOf(await s.signIn('cy@ourteam.example', again.password))?.code, 'UNAUTHORIZED', 'expired: refused like a wrong password');
  const fresh = ok<any>(await s.stack.call('operators.admin.resetPassword', { scope: adminScope, params: { id: cy.user.id } }));
  t.same(ok<any>(await s.signIn('cy@ourteam.example', fresh.password)).setupRequired, ['password'], 'a reset issues one that works');

  const failures = ok<any>(
    await s.stack.call('operators.admin.listAudit', {
      scope: adminScope,
      query: { target: `team_member:${cy.user.id}`, action: 'consoleSignInFailed', limit: 100 },
    }),
  ).data;
  t.same(
    failures.map((r: any) => r.after.reason),
    ['one-time password expired', 'wrong password', 'one-time password already used'],
    'each refusal is audited with its reason',
  );
  t.equal(loadOperatorsConfig({}).CONSOLE_ONE_TIME_PASSWORD_HOURS, 72, 'by default: 72 hours');
});

t.test('a role that requires TOTP enrols before anything else', async (t) => {
  t.same(totpRequiredRoles({}, { NODE_ENV: 'production' }), ['admin', 'finance'], 'the production default');
  t.same(totpRequiredRoles({}, {}), [], 'elsewhere none, unless set');
  t.same(totpRequiredRoles({ CONSOLE_TOTP_REQUIRED_ROLES: 'none' }, { NODE_ENV: 'production' }), [], 'production may turn it off');
  const s = await accountsStack(t, 'optotp', { CONSOLE_TOTP_REQUIRED_ROLES: 'admin,finance' });
  const fin = await s.createUser('fin@ourteam.example', 'finance');
  const sup = await s.createUser('sup@ourteam.example', 'support');
  t.same(ok<any>(await s.signIn('sup@ourteam.example', sup.password)).setupRequired, ['password'], 'support: only the password');
  const signedIn = ok<any>(await s.signIn('fin@ourteam.example', fin.password));
  t.same(signedIn.setupRequired, ['password', 'secondFactor'], 'finance: the password, then TOTP');
  const who = await s.identify(signedIn.token);
  const early = errorOf(await s.ask(m.startSecondFactor, { memberId: who.memberId, email: who.email, secondFactor: false })) as any;
  t.same([early?.code, early?.details], ['ACCOUNT_SETUP_REQUIRED', { setupRequired: ['password'] }], "the one-time password's session: the password first");
  ok(await s.changePassword(who, signedIn.token, fin.password, GOOD));
  t.same((await s.identify(signedIn.token)).setupRequired, ['secondFactor'], 'still no TOTP: still not set up');

  const setup = ok<any>(await s.ask(m.startSecondFactor, { memberId: who.memberId, email: who.email, secondFactor: false }));
  const app = new TOTP({ secret: Secret.fromBase32(setup.secret), digits: 6, period: 30, algorithm: 'SHA1' });
  ok(
    await s.ask(m.confirmSecondFactor, {
      memberId: who.memberId,
      email: who.email,
      secondFactor: false,
      code: app.generate(),
      address: '203.0.113.7',
      requestId: 'req_totp',
    }),
  );
  t.same((await s.identify(signedIn.token)).setupRequired, [], 'enrolled: set up');

  ok(await s.stack.call('operators.admin.resetSecondFactor', { scope: adminScope, params: { id: fin.user.id } }));
  t.same((await s.identify(signedIn.token)).setupRequired, ['secondFactor'], 'TOTP removed by an admin: enrol again first');
  const actions = await s.audit(`team_member:${fin.user.id}`);
  t.same(actions.slice(0, 3), ['adminResetSecondFactor', 'consoleEnableSecondFactor', 'consoleChangePassword'], 'enrolment and removal are audited');
});

t.test('failed sign-ins back off per account and per address, in the database', async (t) => {
  const s = await accountsStack(t, 'opthrottle');
  const bea = await s.createUser('bea@ourteam.example', 'support');
  const codes: (string | undefined)[] = [];
  for (let i = 0; i < 4; i++) codes.push(errorOf(await s.signIn('bea@ourteam.example', 'wrong-password'))?.code);
  t.same(codes, ['UNAUTHORIZED', 'UNAUTHORIZED', 'UNAUTHORIZED', 'UNAUTHORIZED'], '3 free failures, the 4th blocks the account');
  const blocked = errorOf(await s.signIn('BEA@ourteam.example', bea.password, '198.51.100.1')) as any;
  t.same([blocked?.code, blocked?.details], ['RATE_LIMITED', { retryAfterSeconds: 2 }], 'even the right password, from another address, waits');

  // Another replica (here: the service started again) reads the same counts.
  await s.stack.stop('operators');
  await s.stack.start(operators);
  t.equal(errorOf(await s.signIn('bea@ourteam.example', bea.password))?.code, 'RATE_LIMITED', 'the block outlives the process');
  offset += 2_000;
  t.equal(errorOf(await s.signIn('bea@ourteam.example', 'wrong-again'))?.code, 'UNAUTHORIZED', 'past the block: tried again');
  t.same((errorOf(await s.signIn('bea@ourteam.example', bea.password)) as any)?.details, { retryAfterSeconds: 4 }, 'each failure doubles it');
  offset += 4_000;
  t.same(ok<any>(await s.signIn('bea@ourteam.example', bea.password)).setupRequired, ['password'], 'then the right password signs in');
  t.equal(errorOf(await s.signIn('bea@ourteam.example', 'wrong'))?.code, 'UNAUTHORIZED', 'a success cleared the account: free failures again');

  // One address guessing many accounts: 10 free failures, then the address waits, for any account.
  for (let i = 0; i < 11; i++) await s.signIn(`guess${i}@ourteam.example`, 'wrong-password', '192.0.2.99');
  t.equal(errorOf(await s.signIn('bea@ourteam.example', bea.password, '192.0.2.99'))?.code, 'RATE_LIMITED', 'the address is blocked');
  // (That one-time password is spent: a reset issues another, to show the address is the only block.)
  const reset = ok<any>(await s.stack.call('operators.admin.resetPassword', { scope: adminScope, params: { id: bea.user.id } }));
  t.equal(errorOf(await s.signIn('bea@ourteam.example', reset.password, '192.0.2.100'))?.code, undefined, 'another address is not');
  const unknown = ok<any>(await s.stack.call('operators.admin.listAudit', { scope: adminScope, query: { target: 'team_member:unknown', limit: 100 } })).data;
  t.equal(unknown.length, 11, 'failures for unknown e-mails are audited too');
  t.match(unknown[0], { actor: 'user:guess10@ourteam.example', action: 'consoleSignInFailed', after: { reason: 'unknown e-mail', address: '192.0.2.99' } });
  const throttled = ok<any>(
    await s.stack.call('operators.admin.listAudit', {
      scope: adminScope,
      query: { target: `team_member:${bea.user.id}`, action: 'consoleSignInFailed', limit: 100 },
    }),
  ).data;
  t.same(
    throttled.map((r: any) => r.after.reason),
    [
      'throttled',
      'wrong password',
      'throttled',
      'wrong password',
      'throttled',
      'throttled',
      'wrong password',
      'wrong password',
      'wrong password',
      'wrong password',
    ],
    'refusals while blocked are audited as such',
  );
});
