// A read-only door for the Ministry's inspectors (issue #69 item 4): the `regulator` role signs in
// like every person (own password, TOTP whatever CONSOLE_TOTP_REQUIRED_ROLES says), reads across
// operators, and changes nothing: every admin route of the Fastify route table with a method that
// changes something is refused to it with 403 READ_ONLY_ROLE before anything is asked, and a service
// refuses a change to a read-only scope again (the kit's serve.ts), whatever reached it.
import t from 'tap';
import { activatedPerson, caller } from '@bo/test-support';
import { connect } from '@nats-io/transport-node';
import { testNatsUrl } from '@bo/service-kit/testing';
import { startHarness, ADMIN_TOKEN } from './support/harness.ts';

/** Every route of `printRoutes({ commonPrefix: false })`'s tree, as method and full path. */
function routeTable(tree: string): { method: string; url: string }[] {
  const routes: { method: string; url: string }[] = [];
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    const m = line.match(/^([│ ]*)[├└]── (\S+)(?: \(([^)]+)\))?/);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    stack.length = depth;
    const url = (stack[depth - 1] ?? '') + m[2]!;
    stack[depth] = url;
    for (const method of m[3]?.split(', ') ?? []) routes.push({ method, url });
  }
  return routes;
}

t.test('the regulator role', async (t) => {
  // TOTP required of admin and finance only: the regulator's is required anyway.
  const h = await startHarness({ NODE_ENV: 'production', CONSOLE_TOTP_REQUIRED_ROLES: 'admin,finance' });
  t.teardown(() => h.close());
  const gw = h.gateways[0]!;
  const url = gw.adminUrl;
  const inspector = await activatedPerson(
    url,
    { authorization: `Bearer ${ADMIN_TOKEN}` },
    { email: 'fiscal@spa.example', role: 'regulator', token: false, confirm: false },
  );
  const as = async (method: string, p: string, body?: unknown) => {
    const res = await fetch(`${url}${p}`, {
      method,
      headers: { cookie: inspector.cookie, 'x-csrf-token': inspector.csrfToken, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };

  t.test('signs in like every person, with TOTP whatever the setting says', async (t) => {
    t.ok(inspector.totpSecret, 'the setup asked for a second factor');
    const ok = await as('GET', '/admin/operators');
    t.equal(ok.status, 200, 'and reads across operators');
    t.equal((await as('GET', '/admin/audit')).status, 200, 'the audit log');
    for (const p of ['/admin/users', '/admin/tokens', '/admin/operators/op_1/credentials']) {
      const refused = await as('GET', p);
      t.same([refused.status, refused.body.error.code], [403, 'FORBIDDEN_ROLE'], `not our own security's reads: ${p}`);
    }
  });

  t.test('every admin route that changes something is refused, from the route table', async (t) => {
    const changes = routeTable(gw.adminApp.printRoutes({ commonPrefix: false })).filter(
      (r) => r.url.startsWith('/admin/') && !['GET', 'HEAD', 'OPTIONS'].includes(r.method),
    );
    t.ok(changes.length >= 60, `${changes.length} admin routes change something`);
    const wrong: string[] = [];
    for (const r of changes) {
      const path = r.url.replace(/:[A-Za-z]+/g, 'x_1');
      const res = await as(r.method, path, {});
      if (res.status !== 403 || res.body?.error?.code !== 'READ_ONLY_ROLE') wrong.push(`${r.method} ${r.url}: ${res.status} ${res.body?.error?.code}`);
    }
    t.same(wrong, [], 'each one 403 READ_ONLY_ROLE');
    const own = await as('POST', '/admin/account/tokens', { name: 'fiscal-cli' });
    t.match(own.body.error, { code: 'READ_ONLY_ROLE', message: /reads, and changes nothing/ }, 'not even a token of its own');
    const audit = (await (await fetch(`${url}/admin/audit?actor=user:${inspector.email}`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).json()) as {
      data: { action: string }[];
    };
    t.same(
      audit.data.map((r) => r.action).filter((a) => !a.startsWith('console')),
      [],
      'nothing was changed in its name',
    );
  });

  t.test('a service refuses a change to a read-only scope too', async (t) => {
    const nc = await connect({ servers: testNatsUrl() });
    t.teardown(() => nc.drain());
    const call = caller(nc, h.prefix);
    const scope = { kind: 'admin' as const, actor: `user:${inspector.email}`, personId: inspector.id, readOnly: true as const };
    const refused = await call('operators.admin.createUser', { scope, body: { email: 'slipped@ourteam.example', role: 'admin' } });
    t.match(refused, { ok: false, error: { code: 'READ_ONLY_ROLE' } }, 'the operators service refuses it');
    const read = await call('operators.admin.list', { scope });
    t.equal(read.ok, true, 'and answers its reads');
  });
});
