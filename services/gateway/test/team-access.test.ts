// Our team on the admin API: people with roles (password shown once, stored as a slow salted hash),
// named service tokens (shown once, revocable), each role allowed only its own operations, and
// the service told who acted (it writes the audit row; the gateway none).
import t from 'tap';
import { startHarness, ADMIN_TOKEN } from './support/harness.ts';
import { fakeService } from './support/fake-service.ts';
import { verifyPassword } from '@bo/operators';
import { activatedPerson } from '@bo/test-support';

t.test('team access', async (t) => {
  const h = await startHarness();
  const decide = await fakeService(h, 'payments.admin.withdrawalDecision');
  decide.respond = async () => ({ ok: true, status: 200, body: { id: 'wd_1', status: 'approved' } });
  t.teardown(async () => {
    await decide.close();
    await h.close();
  });
  const gw = h.gateways[0];
  const as = (token: string) => async (method: string, p: string, body?: unknown) => {
    const res = await fetch(`${gw!.adminUrl}${p}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  const root = as(ADMIN_TOKEN);

  t.test('issue #61: finance reads provider money, admins change providers; everyone lists brands and the withdrawal queue', async (t) => {
    const providers = await fakeService(h, 'wallet.admin.providers.list');
    const clearing = await fakeService(h, 'wallet.admin.providers.clearing');
    const queue = await fakeService(h, 'payments.admin.withdrawalQueue');
    for (const f of [providers, clearing, queue]) f.respond = async () => ({ ok: true, status: 200, body: { data: [], nextCursor: null } });
    t.teardown(async () => {
      for (const f of [providers, clearing, queue]) await f.close();
    });
    const token = async (name: string, role: string) => as((await root('POST', '/admin/tokens', { name, role })).body.secret);
    const finance = await token('money-reader', 'finance');
    const compliance = await token('aml-reader', 'compliance');
    const support = await token('help-reader', 'support');
    t.equal((await finance('GET', '/admin/providers')).status, 200, 'finance lists providers');
    t.equal((await finance('GET', '/admin/providers/prv_1/clearing')).status, 200, "and reads a provider's clearing balances");
    t.equal((await finance('POST', '/admin/providers', { name: 'Nope', kind: 'casino' })).body.error.code, 'FORBIDDEN_ROLE', 'but registers none');
    t.equal((await finance('PUT', '/admin/providers/prv_1', { status: 'disabled' })).body.error.code, 'FORBIDDEN_ROLE', 'nor changes one');
    for (const [who, reader] of [
      ['compliance', compliance],
      ['support', support],
    ] as const)
      t.equal((await reader('GET', '/admin/providers/prv_1/clearing')).body.error.code, 'FORBIDDEN_ROLE', `${who} reads no clearing balance`);
    t.equal(clearing.calls.length, 1, 'only the allowed read reached the wallet');
    for (const reader of [finance, compliance, support]) {
      t.equal((await reader('GET', '/admin/brands')).status, 200, 'everyone lists the brands');
      t.equal((await reader('GET', '/admin/withdrawal-queue')).status, 200, 'and reads the withdrawal queue');
    }
  });

  t.test('people: a one-time password, stored only as a scrypt hash', async (t) => {
    const created = await root('POST', '/admin/users', { email: 'ana@ourteam.example', role: 'compliance' });
    t.equal(created.status, 201);
    t.match(created.body, { user: { id: /^usr_/, email: 'ana@ourteam.example', role: 'compliance', disabledAt: null }, password: /^[A-Za-z0-9_-]{24}$/ });
    const [row] = await h.operators.orm.em
      .fork()
      .execute<{ password_hash: string }[]>('select password_hash from operators.team_members where id = ?', [created.body.user.id]);
    t.match(row!.password_hash, /^scrypt\$16384\$8\$1\$/, 'scrypt with its parameters and salt');
    t.notMatch(row!.password_hash, created.body.password, 'never the password itself');
    t.ok(await verifyPassword(created.body.password, row!.password_hash), 'the shown password verifies');
    t.notOk(await verifyPassword(`${created.body.password}x`, row!.password_hash));
    t.equal(
      (await root('POST', '/admin/users', { email: 'ANA@ourteam.example', role: 'finance' })).body.error.code,
      'TEAM_MEMBER_ALREADY_EXISTS',
      'e-mails are unique whatever their case',
    );
    t.equal((await root('POST', '/admin/users', { email: 'nope', role: 'boss' })).status, 422);
    const listed = await root('GET', '/admin/users');
    t.same(
      listed.body.data.map((u: any) => u.email),
      ['ana@ourteam.example'],
    );
    t.notMatch(JSON.stringify(listed.body), /password/, 'listing never shows a password or hash');
    const disabled = await root('POST', `/admin/users/${created.body.user.id}/disable`);
    t.match(disabled.body, { disabledAt: /Z$/ });
  });

  t.test('service tokens carry a role; each role may do its own work only', async (t) => {
    const finance = await root('POST', '/admin/tokens', { name: 'payout-bot', role: 'finance' });
    t.equal(finance.status, 201);
    t.match(finance.body.secret, /^bo_tok_[0-9a-f]{32}_[A-Za-z0-9_-]{43}$/);
    const support = await root('POST', '/admin/tokens', { name: 'helpdesk', role: 'support' });
    const asFinance = as(finance.body.secret);
    const asSupport = as(support.body.secret);

    const byBot = await asFinance('POST', '/admin/withdrawals/wd_1/decision', { decision: 'approve' });
    t.equal(byBot.status, 403);
    t.equal(byBot.body.error.code, 'PERSON_REQUIRED', 'a named service token is nobody: it takes no decision');
    t.match(byBot.body.error.message, /personal API token/, 'the refusal names the way to do it');
    const forbidden = await asSupport('POST', '/admin/withdrawals/wd_1/decision', { decision: 'approve' });
    t.equal(forbidden.status, 403);
    t.equal(forbidden.body.error.code, 'FORBIDDEN_ROLE');
    t.equal(decide.calls.length, 0, 'a refused call never reaches the service');
    t.equal((await asFinance('POST', '/admin/operators', { name: 'Nope' })).body.error.code, 'FORBIDDEN_ROLE', 'only admin creates operators');
    t.equal((await asSupport('POST', '/admin/tokens', { name: 'mine', role: 'admin' })).body.error.code, 'FORBIDDEN_ROLE', 'nor tokens');
    t.equal((await asSupport('GET', '/admin/operators')).status, 200, 'everyone on the team reads operators');

    // A personal token is its person, made by her from her own session once activated (issue #56):
    // it decides, and the audit names the person and their id.
    const bea = await activatedPerson(
      gw!.adminUrl,
      { authorization: `Bearer ${ADMIN_TOKEN}` },
      { email: 'bea@ourteam.example', role: 'finance', token: false },
    );
    const beaToken = await fetch(`${gw!.adminUrl}/admin/account/tokens`, {
      method: 'POST',
      headers: { cookie: bea.cookie, 'x-csrf-token': bea.csrfToken, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'bea-cli', role: 'admin' }),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
    t.equal(beaToken.status, 201);
    t.equal(beaToken.body.token.userId, bea.id);
    t.equal(beaToken.body.token.role, 'finance', "never more than the person's own role");
    t.equal((await root('POST', '/admin/tokens', { name: 'bea-admin', role: 'admin', userId: bea.id })).status, 403, 'nobody mints a personal token for her');
    t.equal((await root('POST', '/admin/tokens', { name: 'nobody-cli', role: 'finance', userId: 'usr_nobody' })).body.error.code, 'TOKEN_OWNER_REQUIRED');
    const paid = await as(beaToken.body.secret)('POST', '/admin/withdrawals/wd_1/decision', { decision: 'approve' });
    t.equal(paid.status, 200, 'finance decides withdrawals, as a person');
    t.match(decide.calls[0]?.ctx.scope, { kind: 'admin', actor: 'user:bea@ourteam.example', personId: bea.id }, 'the service is told who decides');
    // The deciding service writes the row naming that person, in its decision's transaction (payments' four-eyes test): the gateway writes none.
    const audit = await root('GET', '/admin/audit?target=withdrawal:wd_1');
    t.same(audit.body.data, [], 'no audit row from the gateway');
    t.equal((await root('POST', `/admin/users/${bea.id}/disable`)).status, 200);
    t.equal((await as(beaToken.body.secret)('GET', '/admin/operators')).status, 401, "a disabled person's token is refused");

    t.equal((await root('POST', `/admin/tokens/${finance.body.token.id}/revoke`)).body.revokedAt !== null, true);
    t.equal((await asFinance('GET', '/admin/operators')).status, 401, 'a revoked token is refused');
    const tokens = await root('GET', '/admin/tokens');
    t.match(
      tokens.body.data.find((x: any) => x.name === 'payout-bot'),
      { role: 'finance', revokedAt: /Z$/, lastUsedAt: /Z$/ },
    );
    t.notMatch(JSON.stringify(tokens.body), /bo_tok_/, 'secrets are never listed');
    t.equal((await as(`bo_tok_00000000000000000000000000000000_${'a'.repeat(43)}`)('GET', '/admin/operators')).status, 401);
  });
});
