// A database from before the operators service (operators, keys, team, sessions and the audit log in
// the gateway's schema) keeps working after the move: the operators service's migration moves the
// rows into its schema and drops the gateway's tables; the keys still verify, people still sign in,
// a session stays signed in, the audit log keeps its rows, and an endpoint event the gateway had not
// published yet is published from the operators outbox.
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import t from 'tap';
import { OperatorClient } from '@bo/contracts';
import { openDatabase, openSql, sealSecret, DEV_MASTER_KEY } from '@bo/service-kit';
import { createTestDatabase, waitFor } from '@bo/service-kit/testing';
import { hashPassword } from '@bo/operators';
import { gatewaySchemaOfBefore } from './support/gateway-schema-of-before.ts';
import { startHarness } from './support/harness.ts';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

t.test('the gateway schema of before moves into the operators service', async (t) => {
  const db = await createTestDatabase('opmove', { empty: true });
  t.teardown(() => db.drop());
  // The gateway's schema as its migrations 0001 to 0007 left it, with data in it.
  const old = await openDatabase({ databaseUrl: db.url, schema: 'gateway', entities: [], migrations: gatewaySchemaOfBefore });
  const sql = await openSql(old);
  const key = `bk_test_${randomBytes(16).toString('hex')}`;
  const secret = `sk_test_${randomBytes(24).toString('hex')}`;
  const password = 'a-password-of-before-0123';
  const sessionToken = randomBytes(32).toString('base64url');
  await sql.query(
    `insert into gateway.operators (id, name, status, rate_limit_per_minute, allowed_ips) values ('op_before', 'Before Bets', 'active', 600, '[]')`,
  );
  await sql.query(
    `insert into gateway.brands (id, operator_id, name, environment, currency, webhook_secret_sealed, webhook_version)
     values ('brd_before', 'op_before', 'Before Bets (sandbox)', 'sandbox', 'BRL', ?, 1)`,
    [sealSecret('whsec_before', DEV_MASTER_KEY)],
  );
  await sql.query(
    `insert into gateway.credentials (key_hash, id, key_prefix, operator_id, brand_id, environment, secret_sealed)
     values (?, 'cred_before', ?, 'op_before', 'brd_before', 'sandbox', ?)`,
    [sha256(key), key.slice(0, 12), sealSecret(secret, DEV_MASTER_KEY)],
  );
  await sql.query(`insert into gateway.team_members (id, email, role, password_hash) values ('usr_before', 'bea@ourteam.example', 'support', ?)`, [
    await hashPassword(password),
  ]);
  await sql.query(
    `insert into gateway.console_sessions (token_hash, member_id, csrf_token, expires_at) values (?, 'usr_before', 'csrf-before', now() + interval '1 hour')`,
    [sha256(sessionToken)],
  );
  await sql.query(
    `insert into gateway.audit_log (id, actor, action, target, before, after, request_id) values ('aud_before', 'admin', 'adminCreateOperator', 'operator:op_before', null, '{"name":"Before Bets"}', 'req_before')`,
  );
  await sql.query(
    `insert into gateway.outbox (event_id, subject_type, environment, operator_id, brand_id, payload) values ('evt_before', 'webhook.endpoint_changed', 'sandbox', 'op_before', 'brd_before', '{}')`,
  );
  const retire = readFileSync(new URL('../../../deploy/one-time/retire-gateway-schema.sql', import.meta.url), 'utf8');
  await t.rejects(sql.query(retire), /schema gateway still holds audit_log, brands, /, 'the one-time step refuses while the rows of before are not moved');
  await old.close();

  const h = await startHarness({}, { db });
  t.teardown(() => h.close());
  const gw = h.gateways[0]!;

  const me = await new OperatorClient({ baseUrl: `${gw.publicUrl}/api/v1`, key, secret }).get('/me');
  t.equal(me.status, 200, 'the key of before still verifies');
  t.match(me.body, { operator: { id: 'op_before', name: 'Before Bets', environment: 'sandbox' }, brand: { id: 'brd_before' } });

  const signIn = await fetch(`${gw.adminUrl}/console/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'bea@ourteam.example', password }),
  });
  t.equal(signIn.status, 200, 'a person of before signs in with their password');
  t.same(((await signIn.json()) as { setupRequired: string[] }).setupRequired, ['password'], 'and must choose a new one: it was the one-time one');
  const session = await fetch(`${gw.adminUrl}/console/session`, { headers: { cookie: `bo_console=${sessionToken}` } });
  t.equal(session.status, 200, 'a session of before is still signed in');

  const audit = await h.admin('GET', '/admin/audit?target=operator:op_before');
  t.match(
    audit.body.data,
    [{ id: 'aud_before', action: 'adminCreateOperator', after: { name: 'Before Bets' }, requestId: 'req_before' }],
    'the audit rows of before',
  );
  const credentials = await h.admin('GET', '/admin/operators/op_before/credentials');
  t.match(credentials.body.data, [{ id: 'cred_before', status: 'active' }]);

  const now = await openSql(h.operators.orm);
  const left = await now.query<{ table_name: string }>(
    `select table_name from information_schema.tables where table_schema = 'gateway' and table_name <> 'schema_migrations' order by 1`,
  );
  t.same(left, [{ table_name: 'idempotency_keys' }], "the gateway's schema keeps only its idempotency store of before: the gateway runs no migration now");
  // The one-time step of 1.4.0 (docs/runbook.md) drops the schema, and nothing of the operators service's.
  await now.query(retire);
  t.same(await now.query(`select 1 from information_schema.schemata where schema_name = 'gateway'`), [], 'the gateway schema is retired');
  t.same(await now.query(`select id from operators.operators where id = 'op_before'`), [{ id: 'op_before' }], "the operators' rows stay");
  await waitFor(async () => (await now.query(`select 1 from operators.outbox where event_id = 'evt_before' and published_at is not null`)).length === 1, {
    what: 'the unpublished event of before published from the operators outbox',
  });
  t.pass('published');
});
