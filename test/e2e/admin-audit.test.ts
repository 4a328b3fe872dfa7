// Every admin change audited exactly once, by the service that makes it, in the change's
// transaction (issue #56), through the real gateway and services. Before, the gateway wrote the row
// of a change another service made after its answer: lost when the operators service was down
// ("audit row lost"), and silently when the first answer was lost at the gateway's RPC deadline and
// the retry was replayed. Now the operators service being away delays the rows, never loses them,
// and a replayed change has its one row.
import t from 'tap';
import pg from 'pg';
import { waitFor } from '@bo/service-kit/testing';
import { ADMIN_TOKEN, startStack, uniq } from './support/stack.ts';

t.test('admin changes audited once, by the service that makes them', async (t) => {
  const stack = await startStack();
  const db = new pg.Client({ connectionString: stack.db.url });
  await db.connect();
  t.teardown(async () => {
    await db.end();
    await stack.close();
  });
  const op = await stack.createOperator('Audited Changes');
  /** The admin API with the bootstrap token and an Idempotency-Key. */
  const admin = (method: string, p: string, body: unknown, key: string) =>
    fetch(`${stack.adminUrl}${p}`, {
      method,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, replayed: r.headers.get('idempotent-replayed'), body: (await r.json()) as any }));
  /** The audit log's rows of a target, oldest first: [action, a field of `after`]. */
  const rows = async (target: string, field: string) =>
    (await db.query(`select action, after->>$2 as v from operators.audit_log where target = $1 order by at, id`, [target, field])).rows.map((r) => [
      r.action,
      r.v,
    ]);

  const provider = await admin('POST', '/admin/providers', { name: uniq('Audited Aggregator'), kind: 'casino' }, uniq('prv'));
  t.equal(provider.status, 201);
  const target = `provider:${provider.body.id}`;
  const game = `/admin/providers/${provider.body.id}/games/sweet-fruits`;
  t.equal((await admin('PUT', game, { name: 'Sweet Fruits', category: 'slots', enabled: false }, uniq('game-off'))).status, 200);
  t.equal((await admin('PUT', `/admin/providers/${provider.body.id}/operators/${op.operator.id}`, { enabled: true }, uniq('offer'))).status, 200);
  t.equal((await admin('PUT', `/admin/providers/${provider.body.id}`, { status: 'disabled' }, uniq('disable'))).status, 200);
  await waitFor(async () => (await rows(target, 'status')).length === 4, { what: 'the first four rows', timeoutMs: 60_000 });

  t.test('the operators service down: the changes are made, and their rows arrive when it is back', async (t) => {
    await stack.kill('operators');
    t.equal((await admin('PUT', game, { name: 'Sweet Fruits', category: 'slots', enabled: true }, uniq('game-on'))).status, 200, 'game enabled');
    t.equal(
      (await admin('PUT', `/admin/providers/${provider.body.id}/operators/${op.operator.id}`, { enabled: false }, uniq('withdraw'))).status,
      200,
      'offer withdrawn',
    );
    t.equal((await admin('PUT', `/admin/providers/${provider.body.id}`, { status: 'enabled' }, uniq('enable'))).status, 200, 'provider enabled');
    const entry = await admin('POST', '/admin/aml/screening/simulator/entries', { list: 'pep', cpf: '52998224725', name: 'Ana', detail: 'e2e' }, uniq('pep'));
    t.equal(entry.status, 201, 'a screening entry added (the compliance service)');
    t.same((await rows(target, 'status')).length, 4, 'no row yet: the audit log is away');
    await stack.start('operators');
    await stack.waitReady();
    await waitFor(async () => (await rows(target, 'status')).length >= 7, { what: "the three changes' rows", timeoutMs: 60_000 });
    await waitFor(async () => (await rows(`screening_entry:${entry.body.entry.id}`, 'cpf')).length >= 1, { what: 'the entry row', timeoutMs: 60_000 });
    t.same(
      (await rows(target, 'enabled')).slice(4).map(([action]) => action),
      ['adminPutProviderGame', 'adminSetProviderOperator', 'adminUpdateProvider'],
      'each change has its row, in order',
    );
    t.same(await rows(`screening_entry:${entry.body.entry.id}`, 'cpf'), [['adminAddScreeningEntry', '52998224725']], 'the entry has its row');
  });

  t.test('the first answer lost at the RPC deadline, the retry replayed: one row', async (t) => {
    // The provider's row held by another transaction: the change waits past the gateway's deadline.
    const holder = new pg.Client({ connectionString: stack.db.url });
    await holder.connect();
    t.teardown(() => holder.end());
    await holder.query('begin');
    await holder.query('select 1 from wallet.providers where id = $1 for update', [provider.body.id]);
    const k = uniq('disable-again');
    const lost = await admin('PUT', `/admin/providers/${provider.body.id}`, { status: 'disabled' }, k);
    t.equal(lost.status, 503, 'the gateway gives up waiting');
    await holder.query('commit');
    await waitFor(async () => (await db.query('select status from wallet.providers where id = $1', [provider.body.id])).rows[0]?.status === 'disabled', {
      what: 'the change to be made',
      timeoutMs: 60_000,
    });
    const retried = await admin('PUT', `/admin/providers/${provider.body.id}`, { status: 'disabled' }, k);
    t.equal(retried.status, 200);
    t.equal(retried.replayed, 'true', 'the retry gets the stored answer');
    // A later change's row comes after any copy of the earlier one through the same outbox and stream.
    t.equal((await admin('PUT', `/admin/providers/${provider.body.id}`, { status: 'enabled' }, uniq('enable-last'))).status, 200);
    await waitFor(async () => (await rows(target, 'status')).at(-1)?.[1] === 'enabled' && (await rows(target, 'status')).length >= 9, {
      what: 'the last row',
      timeoutMs: 60_000,
    });
    t.same(
      (await rows(target, 'status')).filter(([action]) => action === 'adminUpdateProvider'),
      [
        ['adminUpdateProvider', 'disabled'],
        ['adminUpdateProvider', 'enabled'],
        ['adminUpdateProvider', 'disabled'],
        ['adminUpdateProvider', 'enabled'],
      ],
      'exactly one row per change, the lost one included',
    );
  });
});
