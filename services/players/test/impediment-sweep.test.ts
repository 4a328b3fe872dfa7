// The br-spa sweep (issue 27, docs/eligibility.md): every active player of a br-spa operator asked
// of the registry in batches; killed after a committed batch, the service started again goes on from
// there without asking anyone twice that day; a hit restricts; progress in the metrics.
import t from 'tap';
import { startServiceWith } from '@bo/service-kit';
import { cleanupNatsPrefix, createTestDatabase, randomCpf, spawnServiceProcess, testNatsUrl, testPrefix, waitFor } from '@bo/service-kit/testing';
import pg from 'pg';
import { playersServiceWith } from '../src/service.ts';
import { admin, brSpaPlayer, callPlayers, newKey, scopes, validPlayer } from './harness.ts';

const DAY = 86_400_000;
const MAIN = new URL('../src/main.ts', import.meta.url);
const spawnPlayers = (env: Record<string, string | number>) => spawnServiceProcess('players', MAIN, env);

t.test('the sweep: batches, a kill after a batch, resumed without asking anyone twice', async (t) => {
  const db = await createTestDatabase('sweep');
  const prefix = testPrefix('sweep');
  t.teardown(async () => {
    await cleanupNatsPrefix(prefix);
    await db.drop();
  });
  const settings = { DATABASE_URL: db.url, NATS_URL: testNatsUrl(), NATS_PREFIX: prefix, RPC_TIMEOUT_MS: 30_000, OUTBOX_POLL_MS: 50 };

  // Set up in-process with the loops parked: br-spa, 7 players last checked 20 days ago, one impeded.
  const setup = await startServiceWith(playersServiceWith(), { ...settings, IMPEDIMENT_LOOP_MS: 3_600_000 });
  const sql = <T = any>(q: string, p: unknown[] = []) => setup.sql.query(q, p) as Promise<T[]>;
  const call = (subject: string, scope: any, opts: any) => callPlayers(setup.nc, prefix, subject, scope, opts);
  const ok = async (reply: Promise<any>) => {
    const r = await reply;
    if (!r.ok) throw new Error(JSON.stringify(r));
    return r.body;
  };
  await ok(call('players.admin.setCompliance', admin, { params: { id: 'op_A' }, body: { profile: 'br-spa', reason: 'the operator is licensed in Brazil' } }));
  const ids: string[] = [];
  for (let i = 0; i < 7; i++) {
    const p = await ok(call('players.create', scopes.aSandbox, { body: { ...brSpaPlayer, externalId: `sw-${i}`, cpf: randomCpf() }, key: newKey() }));
    ids.push(p.id);
  }
  // An `off` operator's player is never swept.
  const off = await ok(call('players.create', scopes.bSandbox, { body: { ...validPlayer, externalId: 'sw-off', cpf: randomCpf() }, key: newKey() }));
  await sql('update players.players set impediment_checked_at = ?', [new Date(Date.now() - 20 * DAY)]);
  const [hit] = await sql<{ cpf: string }>('select cpf from players.players where id = ?', [ids[4]]);
  await ok(call('players.sandbox.impediments.add', scopes.aSandbox, { body: { cpf: hit!.cpf, reason: 'social_program' } }));
  // The boot's sweep found nobody due and finished: start the next one now.
  await sql('delete from players.impediment_sweeps');
  await setup.stop();

  const env = { ...settings, IMPEDIMENT_SWEEP_BATCH: 2, IMPEDIMENT_LOOP_MS: 50 };

  t.test('killed after its first batch', async (t) => {
    const child = await spawnPlayers({ ...env, CRASH_AT: 'players.sweep.after-batch' });
    t.teardown(() => child.stop());
    const { signal } = await child.exited;
    t.equal(signal, 'SIGKILL', 'died at the crash point');
  });

  // Read with a plain client: a service started here would run a sweep of its own.
  const pgClient = new pg.Client({ connectionString: db.url });
  await pgClient.connect();
  t.teardown(() => pgClient.end());
  const read = async <T = any>(q: string, p: unknown[] = []): Promise<T[]> => {
    let n = 0;
    return (
      await pgClient.query(
        q.replace(/\?/g, () => `$${++n}`),
        p as unknown[],
      )
    ).rows as T[];
  };
  const checksNow = async () =>
    read<{ player_id: string; n: number }>(
      "select player_id, count(*)::int as n from players.impediment_checks where moment = 'sweep' group by player_id order by player_id",
    );

  t.test('one batch committed, the cursor after it', async (t) => {
    const [sweep] = await read<{ cursor: string | null; checked: number; finished_at: Date | null }>(
      'select cursor, checked, finished_at from players.impediment_sweeps',
    );
    t.equal(sweep!.finished_at, null, 'not finished');
    t.equal(sweep!.checked, 2);
    t.equal(sweep!.cursor, [...ids].sort()[1], 'the cursor is the batch’s last player');
    t.same(
      (await checksNow()).map((r) => r.n),
      [1, 1],
    );
  });

  t.test('started again: goes on from the cursor and finishes; everyone asked once', async (t) => {
    const child = await spawnPlayers(env);
    t.teardown(() => child.stop());
    await waitFor(async () => (await read('select finished_at from players.impediment_sweeps where finished_at is not null')).length === 1, {
      what: 'sweep finished',
    });
    const checks = await checksNow();
    t.same(
      checks.map((r) => r.player_id),
      [...ids].sort(),
      "every br-spa player, no other operator's",
    );
    t.ok(
      checks.every((r) => r.n === 1),
      'each asked once',
    );
    t.notOk(
      checks.some((r) => r.player_id === off.id),
      'the off operator is not swept',
    );
    const [row] = await read<{ status: string; restricted_at: Date | null }>('select status, restricted_at from players.players where id = ?', [ids[4]]);
    t.equal(row!.status, 'restrito', 'the hit restricts');
    const fresh = await read<{ n: number }>(
      "select count(*)::int as n from players.players where operator_id = 'op_A' and impediment_checked_at > now() - interval '1 hour'",
    );
    t.equal(fresh[0]!.n, 6, 'the others are dated today');
    // A login after the sweep asks nobody: checked today (a service started now finds the sweep done).
    const reader = await startServiceWith(playersServiceWith(), { ...settings, IMPEDIMENT_LOOP_MS: 3_600_000 });
    t.teardown(() => reader.stop());
    // The checks of this player's CPF only: the reader's own loops may write others meanwhile.
    const checksOfPlayer = async () =>
      (
        await read<{ n: number }>('select count(*)::int as n from players.impediment_checks where cpf = (select cpf from players.players where id = ?)', [
          ids[0],
        ])
      )[0]!.n;
    const before = await checksOfPlayer();
    const login = await callPlayers(reader.nc, prefix, 'players.logins.report', scopes.aSandbox, { params: { playerId: ids[0]! } });
    t.same(login.ok && login.body, { allowed: true });
    t.equal(await checksOfPlayer(), before, 'no second check today');
  });
});

t.test('the sweep in-process: outage keeps the cursor; progress in the metrics', async (t) => {
  let now = Date.now();
  let sim: any;
  const db = await createTestDatabase('sweepm');
  const prefix = testPrefix('sweepm');
  const svc = await startServiceWith(playersServiceWith({ clock: () => new Date(now), onSetup: (e) => (sim = e.simulator) }), {
    DATABASE_URL: db.url,
    NATS_URL: testNatsUrl(),
    NATS_PREFIX: prefix,
    OUTBOX_POLL_MS: 50,
    IMPEDIMENT_LOOP_MS: 20,
    IMPEDIMENT_SWEEP_BATCH: 3,
  });
  t.teardown(async () => {
    await svc.stop();
    await cleanupNatsPrefix(prefix);
    await db.drop();
  });
  const read = <T = any>(q: string, p: unknown[] = []) => svc.sql.query(q, p) as Promise<T[]>;
  await waitFor(async () => (await read('select 1 from players.impediment_sweeps where finished_at is not null')).length === 1, { what: 'boot sweep done' });
  const r = await callPlayers(svc.nc, prefix, 'players.admin.setCompliance', admin, {
    params: { id: 'op_A' },
    body: { profile: 'br-spa', reason: 'the operator is licensed in Brazil' },
  });
  t.ok(r.ok);
  for (let i = 0; i < 5; i++) {
    const c = await callPlayers(svc.nc, prefix, 'players.create', scopes.aSandbox, {
      body: { ...brSpaPlayer, externalId: `m-${i}`, cpf: randomCpf() },
      key: newKey(),
    });
    t.ok(c.ok);
  }
  sim.control({ down: true });
  now += 15 * DAY; // the next sweep is due
  await waitFor(
    async () =>
      ((await read<{ unavailable: number }>('select unavailable from players.impediment_sweeps where finished_at is null'))[0]?.unavailable ?? 0) >= 3,
    {
      what: 'an outage counted',
    },
  );
  const [stuck] = await read<{ cursor: string | null }>('select cursor from players.impediment_sweeps where finished_at is null');
  t.equal(stuck!.cursor, null, 'the cursor stays while the registry is down');
  sim.control({ down: false });
  await waitFor(async () => (await read('select 1 from players.impediment_sweeps where finished_at is not null')).length === 2, { what: 'sweep finished' });
  const metric = await svc.metrics.getSingleMetric('bo_impediment_sweep_checks_total')!.get();
  const byOutcome = Object.fromEntries(metric.values.map((v) => [v.labels.outcome, v.value]));
  t.equal(byOutcome.not_impeded, 5, 'five players answered');
  t.ok(byOutcome.unavailable >= 3, 'the outage counted');
  const per = await read<{ n: number }>(
    "select count(*)::int as n from players.impediment_checks where moment = 'sweep' and outcome = 'not_impeded' group by player_id",
  );
  t.same(
    per.map((p) => p.n),
    [1, 1, 1, 1, 1],
    'one successful check per player',
  );
});
