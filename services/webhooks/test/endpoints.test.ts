// Endpoint sync from the gateway: URL rules (https in production, SSRF guard unless allowed),
// secrets sealed at rest, partial updates, and the guard again at delivery time.
import t from 'tap';
import pg from 'pg';
import type { UpsertEndpointResult } from '@bo/contracts';
import { openSecret, sealSecret, DEV_MASTER_KEY } from '@bo/service-kit';
import { waitFor } from '@bo/service-kit/testing';
import { applyEndpointChange } from '../src/store/endpoint-store.ts';
import { call, count, newWebhookSecret, operatorScope, ownSql, publishEvent, startReceiver, startStack, upsertEndpoint } from './helpers.ts';

t.test('production URL rules with the default (strict) configuration', async (t) => {
  const stack = await startStack(t);
  const base = { operatorId: 'op_url', environment: 'production' as const, brandId: 'brd_url' };
  const refused: [string, RegExp][] = [
    ['http://93.184.216.34/hook', /https/],
    ['https://127.0.0.1/hook', /private, loopback/],
    ['https://localhost:8443/hook', /private, loopback/],
    ['https://[::1]/hook', /private, loopback/],
    ['https://10.1.2.3/hook', /private/],
    ['https://192.168.0.10/hook', /private/],
    ['https://172.20.0.1/hook', /private/],
    ['https://169.254.169.254/latest/meta-data', /link-local/],
    ['https://[fd00::1]/hook', /private/],
    ['https://[fe80::1]/hook', /private/],
    ['https://0.0.0.0/hook', /private/],
    ['https://[::ffff:127.0.0.1]/hook', /private/],
    ['ftp://93.184.216.34/hook', /https/],
    ['not a url', /absolute URL/],
    ['https://user:pw@93.184.216.34/hook', /credentials/],
  ];
  for (const [url, why] of refused) {
    const r = await upsertEndpoint(stack, { ...base, url });
    t.equal(r.ok, false, `${url} refused`);
    if (!r.ok) {
      t.equal(r.error.code, 'VALIDATION_ERROR');
      t.match(r.error.details, { in: 'body', issues: [{ path: '/url', message: why }] }, `${url}: ${JSON.stringify(r.error.details)}`);
    }
  }
  const [stored] = await stack.svc.sql.query<{ n: string }>('select count(*) n from webhooks.endpoints');
  t.equal(Number(stored!.n), 0, 'nothing stored for refused URLs');

  const ok = await upsertEndpoint(stack, { ...base, url: 'https://93.184.216.34/hook' });
  t.same(ok.ok && ok.body, { operatorId: 'op_url', environment: 'production', brandId: 'brd_url', url: 'https://93.184.216.34/hook', hasSecret: false });

  // Sandbox URLs may use http and local addresses (set by our team for tests).
  const sandbox = await upsertEndpoint(stack, { ...base, environment: 'sandbox', url: 'http://127.0.0.1:9/hook' });
  t.equal(sandbox.ok, true, 'sandbox http://127.0.0.1 accepted');
});

t.test('WEBHOOK_ALLOW_HTTP and WEBHOOK_ALLOW_PRIVATE relax the production rules', async (t) => {
  const httpOnly = await startStack(t, { WEBHOOK_ALLOW_HTTP: true });
  const base = { operatorId: 'op_url', environment: 'production' as const, brandId: 'brd_url' };
  t.equal((await upsertEndpoint(httpOnly, { ...base, url: 'http://93.184.216.34/hook' })).ok, true, 'http allowed');
  const priv = await upsertEndpoint(httpOnly, { ...base, url: 'http://127.0.0.1:9/hook' });
  t.equal(!priv.ok && priv.error.code, 'VALIDATION_ERROR', 'private still refused');
  const both = await startStack(t, { WEBHOOK_ALLOW_HTTP: true, WEBHOOK_ALLOW_PRIVATE: true });
  t.equal((await upsertEndpoint(both, { ...base, url: 'http://localhost:9/hook' })).ok, true, 'both allowed');
});

t.test('malformed sync messages are 422 with every issue; operators cannot call it', async (t) => {
  const stack = await startStack(t);
  const r = await upsertEndpoint(stack, { operatorId: '', environment: 'staging', brandId: 'brd_x', secret: 'sk_wrong' } as never);
  t.equal(!r.ok && r.error.code, 'VALIDATION_ERROR');
  const paths = !r.ok ? (r.error.details!.issues as { path: string }[]).map((i) => i.path) : [];
  t.ok(paths.includes('/operatorId') && paths.includes('/environment') && paths.includes('/secret'), JSON.stringify(paths));
  const asOperator = await call(stack.svc.nc, stack.prefix, 'webhooks.endpoints.upsert', operatorScope('op_x', 'sandbox'), {
    body: { operatorId: 'op_x', environment: 'sandbox', brandId: 'brd_op_x', url: 'http://127.0.0.1:9/' },
  });
  t.equal(!asOperator.ok && asOperator.error.code, 'UNAUTHORIZED');
});

t.test('the secret is stored sealed; URL and secret update independently', async (t) => {
  const stack = await startStack(t, { SECRETS_MASTER_KEY: 'test-master-key-0123456789abcdef' });
  const secret = newWebhookSecret();
  const created = await upsertEndpoint(stack, { operatorId: 'op_s', environment: 'sandbox', brandId: 'brd_s', secret });
  t.same(created.ok && created.body, { operatorId: 'op_s', environment: 'sandbox', brandId: 'brd_s', url: null, hasSecret: true });
  const withUrl = await upsertEndpoint(stack, { operatorId: 'op_s', environment: 'sandbox', brandId: 'brd_s', url: 'http://127.0.0.1:9/a' });
  t.same(
    withUrl.ok && withUrl.body,
    { operatorId: 'op_s', environment: 'sandbox', brandId: 'brd_s', url: 'http://127.0.0.1:9/a', hasSecret: true },
    'url set, secret kept',
  );

  // Read the column straight from Postgres, as anyone with database access would.
  const c = new pg.Client({ connectionString: stack.dbUrl });
  await c.connect();
  t.teardown(() => c.end());
  const { rows } = await c.query('select * from webhooks.endpoints');
  t.equal(rows.length, 1);
  const rowText = JSON.stringify(rows);
  t.notOk(rowText.includes(secret), 'no column holds the plain secret');
  t.notOk(rowText.includes(secret.slice('whsec_'.length)), 'nor its key part');
  t.match(rows[0].secret_sealed, /^v1\./);
  t.equal(openSecret(rows[0].secret_sealed, 'test-master-key-0123456789abcdef'), secret, 'it opens with the master key');
  t.throws(() => openSecret(rows[0].secret_sealed, DEV_MASTER_KEY), 'and not with another key');

  const cleared = await upsertEndpoint(stack, { operatorId: 'op_s', environment: 'sandbox', brandId: 'brd_s', url: null });
  t.same(cleared.ok && cleared.body, { operatorId: 'op_s', environment: 'sandbox', brandId: 'brd_s', url: null, hasSecret: true }, 'url: null removes the URL');
});

t.test('the SSRF guard runs again at delivery time (DNS may have changed)', async (t) => {
  const stack = await startStack(t, { WEBHOOK_ALLOW_HTTP: true });
  const secret = newWebhookSecret();
  const rx = await startReceiver(secret);
  t.teardown(() => rx.close());
  const port = new URL(rx.url).port;
  // Stored as if `localhost` had resolved to a public address when it was set.
  await stack.svc.sql.query(
    `insert into webhooks.endpoints (operator_id, environment, brand_id, url, secret_sealed) values (?, 'production', ?, ?, ?), (?, 'production', ?, ?, ?)`,
    [
      'op_rebind',
      'brd_op_rebind',
      `http://localhost:${port}/hook`,
      sealSecret(secret, DEV_MASTER_KEY),
      'op_literal',
      'brd_op_literal',
      `http://127.0.0.1:${port}/hook`,
      sealSecret(secret, DEV_MASTER_KEY),
    ],
  );
  const a = await publishEvent(stack.svc.nc, stack.prefix, { operatorId: 'op_rebind', environment: 'production' }, 'webhook.test', { message: 'x' });
  const b = await publishEvent(stack.svc.nc, stack.prefix, { operatorId: 'op_literal', environment: 'production' }, 'webhook.test', { message: 'y' });
  for (const { event } of [a, b]) {
    const [attempt] = await waitFor(
      async () => {
        const rows = await stack.svc.sql.query<{ outcome: string; error: string }>(
          `select outcome, error from webhooks.attempts where event_id = ? and attempt = 1 and outcome <> 'in_flight'`,
          [event.id],
        );
        return rows.length ? rows : undefined;
      },
      { what: 'first attempt recorded' },
    );
    t.equal(attempt!.outcome, 'failed');
    t.match(attempt!.error, /destination refused/);
  }
  t.equal(rx.requests.length, 0, 'the receiver on a loopback address was never contacted');
});

t.test('versioned endpoint changes apply only when newer, in whatever order they arrive', async (t) => {
  const stack = await startStack(t);
  const base = { operatorId: 'op_ver', environment: 'sandbox' as const, brandId: 'brd_ver' };
  t.equal((await upsertEndpoint(stack, { ...base, url: 'http://127.0.0.1:9/v2', version: 2 })).ok, true);
  const late = await upsertEndpoint(stack, { ...base, url: 'http://127.0.0.1:9/v1', version: 1 });
  t.equal(late.ok && (late.body as UpsertEndpointResult).url, 'http://127.0.0.1:9/v2', 'an older version (a late event) changes nothing');
  const same = await upsertEndpoint(stack, { ...base, url: 'http://127.0.0.1:9/again', version: 2 });
  t.equal(same.ok && (same.body as UpsertEndpointResult).url, 'http://127.0.0.1:9/v2', 'the same version again (a redelivery) changes nothing');
  const next = await upsertEndpoint(stack, { ...base, url: null, version: 3 });
  t.equal(next.ok && (next.body as UpsertEndpointResult).url, null, 'a newer version applies');
  const unversioned = await upsertEndpoint(stack, { ...base, url: 'http://127.0.0.1:9/tool' });
  t.equal(unversioned.ok && (unversioned.body as UpsertEndpointResult).url, 'http://127.0.0.1:9/tool', 'a change without a version (tools) always applies');
  const [row] = await stack.svc.sql.query<{ version: number }>(`select version from webhooks.endpoints where operator_id = 'op_ver'`);
  t.equal(row!.version, 3, 'the stored version never goes back');
});

t.test('an older change racing a newer one for an endpoint not stored yet does not overwrite it', async (t) => {
  // The gateway's first event (version 1: the secret, no URL yet) and its request setting the URL
  // (version 2) reach a webhooks service that has no row for the endpoint: neither can lock a row,
  // and the older one's insert waits on the newer one's. Once the newer one commits, the older one
  // must change nothing: before, it overwrote the URL with its null and kept version 2, so every
  // later copy of version 2 was "not newer" and the endpoint stayed without a URL for good.
  const stack = await startStack(t);
  const sql = ownSql(t, stack);
  const secretSealed = sealSecret(newWebhookSecret(), DEV_MASTER_KEY);
  const base = { operatorId: 'op_race', environment: 'sandbox' as const, brandId: 'brd_race', secretSealed };
  let newerApplied!: () => void;
  const applied = new Promise<void>((r) => {
    newerApplied = r;
  });
  let commitNewer!: () => void;
  const held = new Promise<void>((r) => {
    commitNewer = r;
  });
  const newer = sql.transaction(async (tx) => {
    await applyEndpointChange(tx, { ...base, url: 'http://127.0.0.1:9/hook', version: 2 });
    newerApplied();
    await held;
  });
  await applied;
  const older = sql.transaction((tx) => applyEndpointChange(tx, { ...base, url: null, version: 1 }));
  await waitFor(
    async () => (await count(stack, `select count(*) n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`)) === 1,
    { what: 'the older change waiting on the newer one' },
  );
  commitNewer();
  await newer;
  const result = await older;
  t.same([result.after.url, result.after.version], ['http://127.0.0.1:9/hook', 2], 'the older change answers the state the newer one left');
  const [row] = await stack.svc.sql.query<{ url: string | null; version: number; has_secret: boolean }>(
    `select url, version, secret_sealed is not null as has_secret from webhooks.endpoints where operator_id = 'op_race'`,
  );
  t.same(row, { url: 'http://127.0.0.1:9/hook', version: 2, has_secret: true });
});
