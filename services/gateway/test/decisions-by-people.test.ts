// In production a decision that moves money or changes a player's standing is a person's (issue
// #40): ADMIN_TOKEN sets things up and reads, and is refused on decisions with the way to do it;
// X-Admin-Actor names nobody; a personal token of a team member, made by her from her own session
// once she is activated (issue #56), decides, as that person.
import t from 'tap';
import { activatedPerson, totpCode } from '@bo/test-support';
import { startHarness, ADMIN_TOKEN } from './support/harness.ts';
import { fakeService } from './support/fake-service.ts';

t.test('decisions by people in production', async (t) => {
  const h = await startHarness({ NODE_ENV: 'production', CONSOLE_TOTP_REQUIRED_ROLES: 'admin,finance' });
  const withdrawals = await fakeService(h, 'payments.admin.withdrawalDecision');
  withdrawals.respond = async () => ({ ok: true, status: 200, body: { id: 'wd_1', status: 'approved' } });
  const kyc = await fakeService(h, 'players.admin.kycDecision');
  const fourEyes = await fakeService(h, 'payments.admin.setFourEyes');
  t.teardown(async () => {
    for (const f of [withdrawals, kyc, fourEyes]) await f.close();
    await h.close();
  });
  const as =
    (token: string, headers: Record<string, string> = {}) =>
    async (method: string, p: string, body?: unknown) => {
      const res = await fetch(`${h.gateways[0]!.adminUrl}${p}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        body: body !== undefined ? JSON.stringify(body) : undefined,
      });
      return { status: res.status, body: (await res.json()) as any };
    };
  const root = as(ADMIN_TOKEN, { 'x-admin-actor': 'user:cfo@example.com' });

  t.test('ADMIN_TOKEN sets up and reads, and takes no decision', async (t) => {
    const made = await root('POST', '/admin/users', { email: 'dina@ourteam.example', role: 'finance' });
    t.equal(made.status, 201, 'it creates people');
    t.equal((await root('GET', '/admin/users')).status, 200, 'and reads');
    const audit = await root('GET', `/admin/audit?target=team_member:${made.body.user.id}`);
    t.match(audit.body.data[0], { actor: 'admin', actorId: null }, 'X-Admin-Actor names nobody in production');
    for (const [p, body] of [
      ['/admin/withdrawals/wd_1/decision', { decision: 'approve' }],
      ['/admin/players/plr_1/kyc/decision', { status: 'aprovado' }],
      ['/admin/operators/op_1/four-eyes', { minAmount: '0.00' }],
    ] as const) {
      const refused = await root(p.endsWith('four-eyes') ? 'PUT' : 'POST', p, body);
      t.equal(refused.status, 403, p);
      t.equal(refused.body.error.code, 'PERSON_REQUIRED', p);
      t.match(refused.body.error.message, /ADMIN_TOKEN does not take decisions .*personal API token/, 'the refusal names the way to do it');
    }
    t.equal(withdrawals.calls.length + kyc.calls.length + fourEyes.calls.length, 0, 'no refused decision reaches a service');
  });

  t.test("a team member's personal token decides, as that person", async (t) => {
    // Activated (her own password, TOTP as production requires of finance); her token is her own, made from her session.
    const eli = await activatedPerson(
      h.gateways[0]!.adminUrl,
      { authorization: `Bearer ${ADMIN_TOKEN}` },
      { email: 'eli@ourteam.example', role: 'finance', token: false },
    );
    const token = await fetch(`${h.gateways[0]!.adminUrl}/admin/account/tokens`, {
      method: 'POST',
      headers: { cookie: eli.cookie, 'x-csrf-token': eli.csrfToken, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'eli-cli', totp: totpCode(eli.totpSecret!, Date.now() + 30_000) }),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
    t.equal(token.status, 201);
    const decided = await as(token.body.secret, { 'x-admin-actor': 'someone-else' })('POST', '/admin/withdrawals/wd_1/decision', { decision: 'approve' });
    t.equal(decided.status, 200);
    t.match(withdrawals.calls.at(-1)?.ctx.scope, { kind: 'admin', actor: 'user:eli@ourteam.example', personId: eli.id }, 'the person, never the header');
  });
});
