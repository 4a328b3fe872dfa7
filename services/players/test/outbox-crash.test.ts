// Crash tests against the real process: the KYC change and its outbox row commit together, so a
// crash right after the commit loses no event; a crash between publish and mark re-publishes
// with the same msgID after restart, and JetStream keeps exactly one copy.
import t from 'tap';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { AppError, requestOperation } from '@bo/contracts';
import { cleanupNatsPrefix, createTestDatabase, spawnServiceProcess, testNatsUrl, testPrefix, waitFor, type ServiceProcess } from '@bo/service-kit/testing';
import { callPlayers, newKey, readEvents, scopes, validPlayer } from './harness.ts';

const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));

type Child = ServiceProcess;

/**
 * The deadline of a call into a crash point: its reply never comes (the process dies), so this is how
 * long the test waits for nothing. The retry of the same call, answered, gets the harness's 30 s.
 */
const CRASHING_CALL_MS = 5000;

function startChild(env: Record<string, string>): Promise<Child> {
  return spawnServiceProcess('players', MAIN, env);
}

async function waitReady(nc: NatsConnection, prefix: string): Promise<void> {
  await waitFor(
    async () => {
      try {
        const r = await requestOperation(
          nc,
          'players.find',
          { ctx: { requestId: 'ready', scope: scopes.aSandbox }, params: {}, query: { externalId: 'ready' }, body: {} },
          // A ceiling for an answer that comes: a process not yet listening is "no responders" at once.
          { prefix, timeoutMs: 30_000 },
        );
        return r.ok;
      } catch (e) {
        if (e instanceof AppError) return false;
        throw e;
      }
    },
    { timeoutMs: 120_000, intervalMs: 100, what: 'players process ready' },
  );
}

async function stopChild(child: Child): Promise<void> {
  await child.stop();
}

t.test('outbox survives crashes of the players process', async (t) => {
  const db = await createTestDatabase('plrcrash');
  const prefix = testPrefix('plrcrash');
  const nc = await connect({ servers: testNatsUrl() });
  const sql = new pg.Pool({ connectionString: db.url, max: 2 });
  const children: Child[] = [];
  t.teardown(async () => {
    for (const c of children) await stopChild(c);
    await nc.close();
    await sql.end();
    await cleanupNatsPrefix(prefix);
    await db.drop();
  });
  const env = (extra: Record<string, string> = {}) => ({ DATABASE_URL: db.url, NATS_URL: testNatsUrl(), NATS_PREFIX: prefix, OUTBOX_POLL_MS: '50', ...extra });
  const start = async (extra: Record<string, string> = {}) => {
    const child = await startChild(env(extra));
    children.push(child);
    await waitReady(nc, prefix);
    return child;
  };
  const outboxOf = async (playerId: string) =>
    (await sql.query(`select event_id, published_at from players.outbox where payload::jsonb -> 'data' ->> 'playerId' = $1 order by seq`, [playerId])).rows;
  const streamEventsOf = async (playerId: string) => (await readEvents(nc, prefix)).filter((e) => (e.event.data as any).playerId === playerId);

  t.test('crash after the KYC commit, before the relay publishes', async (t) => {
    // A long poll interval: nothing but the handler's own poke (after the crash point) would publish.
    const crashing = await start({ CRASH_AT: 'players.kyc.after-commit', OUTBOX_POLL_MS: '600000' });
    const created = await callPlayers(nc, prefix, 'players.create', scopes.aSandbox, { body: { ...validPlayer, externalId: 'crash-1' }, key: newKey() });
    t.equal(created.ok && created.status, 201);
    const player = created.ok ? (created.body as any) : undefined;

    const key = newKey();
    const submit = (timeoutMs?: number) =>
      callPlayers(nc, prefix, 'players.kyc.submit', scopes.aSandbox, {
        params: { playerId: player.id },
        body: { documentType: 'rg', reference: 'crash-doc' },
        key,
        timeoutMs,
      });
    await t.rejects(submit(CRASHING_CALL_MS), { code: 'SERVICE_UNAVAILABLE' }, 'no reply: the process died');
    const exit = await crashing.exited;
    t.equal(exit.signal, 'SIGKILL', 'killed at the crash point');
    t.match(crashing.stderrTail(), /crash point players\.kyc\.after-commit/);

    const [row] = (await sql.query('select kyc_status from players.players where id = $1', [player.id])).rows;
    t.equal(row.kyc_status, 'em_analise', 'the change committed');
    const pending = await outboxOf(player.id);
    t.equal(pending.length, 1, 'its event committed with it');
    t.equal(pending[0].published_at, null, 'and was not published');
    t.same(await streamEventsOf(player.id), [], 'nothing in the stream yet');

    await start();
    await waitFor(async () => (await outboxOf(player.id))[0].published_at !== null, { what: 'relay published after restart' });
    const events = await streamEventsOf(player.id);
    t.equal(events.length, 1, 'exactly one event in the stream');
    t.equal(events[0]?.event.id, pending[0].event_id);
    t.same(events[0]?.event.data, { playerId: player.id, externalId: 'crash-1', previousStatus: 'nao_iniciado', status: 'em_analise' });

    // The client's retry with the same key gets the stored result, not a second submission.
    const retry = await submit();
    t.equal(retry.ok && retry.status, 201);
    const submissions = (await sql.query('select id from players.kyc_submissions where player_id = $1', [player.id])).rows;
    t.equal(submissions.length, 1);
    t.equal(retry.ok && (retry.body as any).id, submissions[0].id);
    t.equal((await streamEventsOf(player.id)).length, 1, 'the retry wrote no event');
  });

  t.test('an admin KYC decision killed after its commit: its audit row committed with it, one row whatever the retry does', async (t) => {
    for (const c of children) await stopChild(c);
    const crashing = await start({ CRASH_AT: 'players.kyc.after-commit' });
    const created = await callPlayers(nc, prefix, 'players.create', scopes.aSandbox, { body: { ...validPlayer, externalId: 'crash-audit' }, key: newKey() });
    const player = created.ok ? (created.body as any) : undefined;
    const admin = { kind: 'admin' as const, actor: 'user:carla@ourteam.example', personId: 'usr_carla' };
    const key = newKey();
    const decide = (timeoutMs?: number) =>
      callPlayers(nc, prefix, 'players.admin.kycDecision', admin, { params: { id: player.id }, body: { status: 'aprovado', reason: 'ok' }, key, timeoutMs });
    await t.rejects(decide(CRASHING_CALL_MS), { code: 'SERVICE_UNAVAILABLE' }, 'no reply: the process died after the commit');
    t.equal((await crashing.exited).signal, 'SIGKILL');
    const audits = async () =>
      (
        await sql.query(
          `select payload::jsonb -> 'data' as data from players.outbox where subject_type = 'audit.recorded' and payload::jsonb -> 'data' ->> 'target' = $1 order by seq`,
          [`player:${player.id}`],
        )
      ).rows.map((r) => r.data);
    t.match(
      await audits(),
      [{ actor: 'user:carla@ourteam.example', actorId: 'usr_carla', action: 'adminKycDecision', after: { kycStatus: 'aprovado' } }],
      'the row is in',
    );
    await start();
    const retry = await decide();
    t.equal(retry.ok && (retry.body as any).status, 'aprovado', 'the retry with the key is answered');
    t.equal(new Set((await audits()).map((a) => a.id)).size, 1, 'one audit row: a run again under the key keeps its id');
  });

  t.test('crash after publishing, before marking the outbox row', async (t) => {
    for (const c of children) await stopChild(c);
    const crashing = await start({ CRASH_AT: 'players.outbox.after-publish' });
    const created = await callPlayers(nc, prefix, 'players.create', scopes.aSandbox, { body: { ...validPlayer, externalId: 'crash-2' }, key: newKey() });
    const player = created.ok ? (created.body as any) : undefined;
    t.ok(player, 'player created (no event, so no publish yet)');

    // The reply may or may not leave before the relay's publish kills the process.
    await callPlayers(nc, prefix, 'players.kyc.decide', scopes.aSandbox, {
      params: { playerId: player.id },
      body: { status: 'aprovado' },
      timeoutMs: CRASHING_CALL_MS,
    }).catch(() => undefined);
    const exit = await crashing.exited;
    t.equal(exit.signal, 'SIGKILL');
    t.match(crashing.stderrTail(), /crash point players\.outbox\.after-publish/);
    const pending = await outboxOf(player.id);
    t.equal(pending.length, 1);
    t.equal(pending[0].published_at, null, 'published but not marked');
    t.equal((await streamEventsOf(player.id)).length, 1, 'the stream already holds it');

    await start();
    await waitFor(async () => (await outboxOf(player.id))[0].published_at !== null, { what: 'row marked after restart' });
    const events = await streamEventsOf(player.id);
    t.equal(events.length, 1, 're-published with the same msgID: still exactly one');
    t.equal(events[0]?.event.id, pending[0].event_id);
    t.same(events[0]?.event.data, { playerId: player.id, externalId: 'crash-2', previousStatus: 'nao_iniciado', status: 'aprovado' });
  });
});
