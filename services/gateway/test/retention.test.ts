// The operators service's cleanup loops (every RETENTION_INTERVAL_MS), seen through the gateway:
// published outbox rows (endpoint changes) are deleted once past OUTBOX_RETENTION_SECONDS (the kit's
// retention.ts), and console sessions once they have ended (past their absolute end, or idle too
// long) without a sign-out.
import { createHash } from 'node:crypto';
import t from 'tap';
import { waitFor } from '@bo/service-kit/testing';
import { startHarness } from './support/harness.ts';

t.test('operators retention', async (t) => {
  const h = await startHarness({ RETENTION_INTERVAL_MS: '100', CONSOLE_IDLE_MINUTES: '30' });
  t.teardown(() => h.close());
  const gw = h.gateways[0]!;
  const db = h.operators.orm.em.fork();

  t.test('published outbox rows are deleted once past their retention', async (t) => {
    const rowsOf = async (operatorId: string) =>
      db.execute<{ published: boolean }[]>(`select published_at is not null as published from operators.outbox where operator_id = ?`, [operatorId]);
    const op = await h.createOperator({ name: 'Outbox Keeper' });
    const young = await h.createOperator({ name: 'Outbox Young' });
    await waitFor(async () => (await rowsOf(op.operator.id)).length === 2 && (await rowsOf(op.operator.id)).every((r) => r.published), {
      what: 'the endpoint events published',
    });
    await db.execute(`update operators.outbox set created_at = now() - interval '2 days' where operator_id = ?`, [op.operator.id]);
    await waitFor(async () => (await rowsOf(op.operator.id)).length === 0, { what: 'the old published rows deleted' });
    t.equal((await rowsOf(young.operator.id)).length, 2, 'rows within the retention stay');
  });

  t.test('ended console sessions are deleted, a live one stays', async (t) => {
    // One person each: a one-time password opens one session only.
    const people = await Promise.all(
      ['rita', 'rui', 'ruth'].map(async (n) => (await h.admin('POST', '/admin/users', { email: `${n}@ourteam.example`, role: 'support' })).body),
    );
    const signIn = async (person: { user: { email: string }; password: string }) => {
      const res = await fetch(`${gw.adminUrl}/console/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: person.user.email, password: person.password }),
      });
      t.equal(res.status, 200, 'signed in');
      return res.headers.get('set-cookie')!.split(';')[0]!;
    };
    const [expired, idle, live] = [await signIn(people[0]), await signIn(people[1]), await signIn(people[2])];
    const ids = people.map((p) => p.user.id as string);
    const sessionsOf = async () =>
      db.execute<{ n: string }[]>(`select count(*)::text as n from operators.console_sessions where member_id in (?, ?, ?)`, ids).then((r) => Number(r[0]!.n));
    t.equal(await sessionsOf(), 3, 'three sessions');
    // Sessions are stored by the SHA-256 of their token (the cookie's value).
    const hash = (cookie: string) => createHash('sha256').update(cookie.split('=')[1]!).digest('hex');
    await db.execute(`update operators.console_sessions set expires_at = now() - interval '1 second' where token_hash = ?`, [hash(expired)]);
    await db.execute(`update operators.console_sessions set last_seen_at = now() - interval '31 minutes' where token_hash = ?`, [hash(idle)]);
    await waitFor(async () => (await sessionsOf()) === 1, { what: 'the expired and the idle session deleted' });
    const me = await fetch(`${gw.adminUrl}/console/session`, { headers: { cookie: live } });
    t.equal(((await me.json()) as { signedIn: boolean }).signedIn, true, 'the live session still works');
    const gone = await fetch(`${gw.adminUrl}/console/session`, { headers: { cookie: expired } });
    t.equal(((await gone.json()) as { signedIn: boolean }).signedIn, false, 'a deleted one opens nothing');
    t.equal(await sessionsOf(), 1, 'and is still there');
  });
});
