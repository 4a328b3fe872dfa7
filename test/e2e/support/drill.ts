// The point-in-time restore drill (issue #67), for `npm run drill` (test/e2e/drill.ts) and its
// smaller run in the suite (backup-restore.test.ts). On one machine, with pgBackRest and Postgres 15:
//
//  1. a primary archiving every WAL segment into an encrypted pgBackRest repository, the whole
//     system on it, webhook receivers, and real traffic; a full backup; a streaming standby on
//     other ports made from that backup; more traffic;
//  2. the restore point T (`pg_create_restore_point`) between two phases of traffic; more traffic
//     after T (webhooks delivered, provider answers given, payouts paid);
//  3. the primary lost under traffic (SIGKILL, its data folder removed): the standby promoted and
//     the system started on it (RTO: to the first accepted deposit; RPO: acknowledged money it lacks);
//     what archiving alone would have lost (the archive restored to its end);
//  4. the archive restored to T into a new cluster, JetStream made to forget the old system's history
//     (the runbook's `jetstream:forget`, then `outbox:republish` from before T), and the system on it:
//     the ledger verifies, every movement acknowledged before T is there once and none after it, the
//     after-T report; events: what the restored outboxes owe reaches the operator, no event id means
//     two things, and nothing the old system published after T reaches anyone from the restored one
//     (one such event is left untaken in JetStream on purpose);
//  5. JetStream lost entirely (its store removed) while the restored system runs: the outboxes
//     published again (scripts/outbox-republish.ts), every event still owed delivered, none twice.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestDatabase } from '@bo/service-kit/testing';
import { testPrefix, waitFor } from '@bo/service-kit/testing';
import { freePort, startNatsServer, type InfraOptions, type LocalServer } from '../../../scripts/local-infra.ts';
import { republishOutboxes } from '../../../scripts/outbox-republish.ts';
import { forgetJetStreamHistory, type StreamForgotten } from '../../../scripts/jetstream-forget.ts';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { eventsStreamName } from '@bo/contracts';
import { ADMIN_TOKEN, COMPONENTS, startStack, type Stack } from './stack.ts';
import { activatedPerson } from './people.ts';
import { startTcpProxy } from './tcp-proxy.ts';
import { startWebhookReceiver } from './webhook-receiver.ts';
import { findOrInstallTools, startDrillPostgres, type Cluster } from '../../../scripts/pgbackrest.ts';
import { DrillWorkload, type Movement } from './drill-workload.ts';
import { afterTReport, checkPresence, eventsOwed, idsWithTwoMeanings, knownEventIds, lostMovements, type AfterTReport, type Delivery } from './drill-checks.ts';

export interface DrillOptions {
  /** Production players, each playing its turns at once. */
  players: number;
  /** Turns of money per player in each phase (a deposit and a round each; a payout every other). */
  turns: number;
  /** Provider play (a `/provider/v1` session and a Hub88 session) in each phase. */
  providers: boolean;
  /** Deposits acknowledged under the primary before it is lost. */
  depositsBeforeLoss: number;
  archiveTimeoutSeconds: number;
  log: (msg: string) => void;
}

export interface Loss {
  movements: number;
  /** Deposits and payouts among them, in BRL. */
  money: string;
}

export interface DrillResult {
  restorePoint: { name: string; lsn: string; at: string };
  dataSize: { databaseBytes: number; backupBytes: number; repoBytes: number };
  counts: { movements: number; beforeT: number; afterT: number; webhooksDelivered: number };
  rpo: { archiveOnly: Loss; standby: Loss; archiveTimeoutSeconds: number };
  rto: { standbyMs: number; restoreMs: number; restoreParts: { restoreAndRecoveryMs: number; systemStartMs: number } };
  ledger: { standby: boolean; restored: boolean; afterJetStreamLoss: boolean };
  presence: { missingBeforeT: string[]; doubled: string[]; afterTPresent: string[] };
  afterT: AfterTReport;
  events: {
    owedAfterRestore: number;
    reusedIds: string[];
    /** Messages the webhooks service had not taken or acknowledged when JetStream was made to forget. */
    leftInJetStream: number;
    forgotten: StreamForgotten[];
    /** Events the old system made that the restored database does not know, delivered by the restored system. */
    oldHistorySent: string[];
  };
  jetStream: {
    republished: Record<string, number>;
    owedWhileLost: number;
    deliveredAfter: number;
    deliveredTwice: string[];
    auditRowsBefore: number;
    auditRowsAfter: number;
  };
  problems: string[];
}

const money = (ms: Movement[]) => ms.filter((m) => m.kind === 'deposit' || m.kind === 'payout').reduce((sum, m) => sum + Math.round(Number(m.amount) * 100), 0);
const lossOf = (ms: Movement[]): Loss => ({ movements: ms.length, money: (money(ms) / 100).toFixed(2) });
const key = (m: Movement) => `${m.kind}:${m.id}`;

type Query = <R extends Record<string, unknown>>(text: string, values?: unknown[]) => Promise<R[]>;
/** Outbox rows not published yet, in every schema. */
async function unpublished(q: Query): Promise<number> {
  let n = 0;
  for (const { schema } of await q<{ schema: string }>(`select table_schema as schema from information_schema.tables where table_name = 'outbox'`))
    n += Number((await q<{ n: string }>(`select count(*)::text as n from "${schema}".outbox where published_at is null`))[0]!.n);
  return n;
}

export async function runDrill(o: DrillOptions): Promise<DrillResult> {
  const say = o.log;
  findOrInstallTools(say);
  const problems: string[] = [];
  const pgs = startDrillPostgres({ log: say, archiveTimeoutSeconds: o.archiveTimeoutSeconds });
  const natsData = mkdtempSync(path.join(os.tmpdir(), 'bo-drill-nats-'));
  const natsOpts: InfraOptions = { purpose: 'test', dataDir: natsData, log: say, ownServers: true, keepData: true, ports: { nats: await freePort() } };
  let nats: LocalServer | undefined;
  const stacks: Stack[] = [];
  const closers: Array<() => Promise<void>> = [];
  try {
    nats = await startNatsServer(natsOpts);
    const primary = await pgs.initPrimary('pg-primary');
    await pgs.pgbackrest(['stanza-create']);
    await pgs.pgbackrest(['check']);
    await primary.query('create database backoffice');
    // The services and the test helpers read these. The system reaches Postgres through a stable
    // address (what CloudNativePG's `-rw` Service is), moved from the primary to the cluster that serves.
    process.env.DATABASE_URL = primary.url();
    process.env.NATS_URL = nats.url;
    const address = await startTcpProxy();
    closers.push(() => address.close());
    const serveFrom = async (c: Cluster) => {
      const url = address.via(c.url('backoffice'));
      // Connections to the cluster that is gone are dropped; the services' pools open new ones.
      await address.cut();
      await address.restore();
      return url;
    };
    const prefix = testPrefix('drill');
    const env = { WEBHOOK_RETRY_SCHEDULE_MS: '200,400,800,1600,3200,5000,5000', RECONCILE_INTERVAL_MS: '500', RECONCILE_AFTER_MS: '1000', LOG_LEVEL: 'warn' };
    const systemOn = async (c: Cluster) => {
      const database: TestDatabase = { url: await serveFrom(c), name: 'backoffice', drop: async () => undefined };
      const s = await startStack(env, COMPONENTS, { database, prefix });
      stacks.push(s);
      return s;
    };
    const ledgerOk = async (s: Stack) => {
      const v = await s.admin('GET', '/admin/ledger/verify');
      if (v.status !== 200 || v.body?.ok !== true) problems.push(`ledger verify: ${v.status} ${JSON.stringify(v.body).slice(0, 300)}`);
      return v.status === 200 && v.body?.ok === true;
    };

    let stack = await systemOn(primary);
    say(`primary ${primary.name} on 127.0.0.1:${primary.port} archiving into the repository (aes-256-cbc, two full backups kept); the system on it`);
    const op = await stack.createOperator('Drill Bets');
    const receivers = {
      production: await startWebhookReceiver(op.production.webhookSecret),
      sandbox: await startWebhookReceiver(op.sandbox.webhookSecret),
    };
    closers.push(
      () => receivers.production.close(),
      () => receivers.sandbox.close(),
    );
    const deliveries = (): Delivery[] =>
      (['production', 'sandbox'] as const).flatMap((env) => receivers[env].received.map((r) => ({ ...r, party: `${op.operator.id}/${env}` })));
    for (const env of ['production', 'sandbox'] as const)
      await stack.admin('PUT', `/admin/operators/${op.operator.id}/webhooks/${env}`, { url: receivers[env].url });
    await stack.admin('PUT', `/admin/operators/${op.operator.id}/rate-limit`, { perMinute: 1_000_000 });
    const person = async (email: string) =>
      (await activatedPerson(stack.adminUrl, { authorization: `Bearer ${ADMIN_TOKEN}` }, { email, role: 'finance' })).token!;
    const workload = new DrillWorkload(op, { approver: await person('approver@drill.example'), payer: await person('payer@drill.example') });
    closers.push(() => workload.close());
    await workload.setUp(stack, o.players);
    const play = (s: Stack) => Promise.all([workload.playMoney(s, o.turns), o.providers ? workload.playProviders(s) : undefined]);

    // ---------------------------------------------------------------- 1. backup, standby, traffic
    await play(stack);
    const backupFrom = Date.now();
    await pgs.pgbackrest(['backup', '--type=full']);
    say(`full backup in ${Date.now() - backupFrom} ms`);
    const standby = await pgs.restore('pg-standby', ['--type=standby'], {
      recoveryOptions: [`primary_conninfo=host=127.0.0.1 port=${primary.port} user=postgres password=${pgs.password} application_name=drill_standby`],
    });
    await waitFor(
      async () =>
        (await primary.query<{ state: string }>(`select state from pg_stat_replication where application_name = 'drill_standby'`))[0]?.state === 'streaming',
      { timeoutMs: 60_000, what: 'the standby streaming' },
    );
    say(`standby ${standby.name} on 127.0.0.1:${standby.port}, made from the backup, streams from the primary`);
    await play(stack);
    await workload.approveForLater(stack);

    // ---------------------------------------------------------------- 2. the restore point T
    // Between two phases: no request is under way, so every movement is on one side of T.
    const tMark = Date.now();
    const [point] = await primary.query<{ lsn: string }>(`select pg_create_restore_point('drill-T')::text as lsn`);
    const restorePoint = { name: 'drill-T', lsn: point!.lsn, at: new Date(tMark).toISOString() };
    const beforeT = workload.movements.length;
    say(`restore point drill-T at ${restorePoint.lsn} (${restorePoint.at}), after ${beforeT} acknowledged money movements`);
    await Promise.all([play(stack), workload.payApproved(stack)]);
    const afterTMoney = workload.movements.filter((m) => m.at >= tMark && (m.kind === 'deposit' || m.kind === 'payout'));
    // The world hears of them: each deposit's and payout's webhook delivered.
    await waitFor(
      async () => {
        const got = new Set(receivers.production.received.filter((r) => r.verified).map((r) => r.body.data?.id ?? r.body.data?.withdrawal?.id));
        return afterTMoney.every((m) => got.has(m.id));
      },
      { timeoutMs: 120_000, what: "the after-T movements' webhooks" },
    );
    // T must be in the archive before the primary goes: archive_timeout sees to it within its seconds.
    await waitFor(
      async () => {
        const [r] = await primary.query<{ done: boolean }>(
          // A backup history file (`<segment>.<offset>.backup`) is archived before its segment is.
          `select coalesce(left(last_archived_wal, 24) > pg_walfile_name($1::pg_lsn) or last_archived_wal = pg_walfile_name($1::pg_lsn), false) as done from pg_stat_archiver`,
          [restorePoint.lsn],
        );
        return r?.done;
      },
      { timeoutMs: 120_000, what: "T's WAL segment archived" },
    );

    // ---------------------------------------------------------------- 3. the primary lost under traffic
    const [size] = await primary.query<{ bytes: string }>(`select pg_database_size('backoffice')::text as bytes`);
    const loadedFrom = workload.movements.length;
    const load = workload.depositUntilStopped(stack);
    await waitFor(async () => workload.movements.length - loadedFrom >= o.depositsBeforeLoss, { timeoutMs: 120_000, what: 'deposits under load' });
    const lostAt = Date.now();
    await primary.kill();
    workload.stop();
    pgs.destroy(primary);
    await load;
    say(`primary lost (SIGKILL, data folder removed) after ${workload.movements.length - loadedFrom} deposits acknowledged under load`);

    // The standby takes over at once (a real failover first spends its detection time), and the address follows it.
    await standby.query('select pg_promote(true, 60)');
    await serveFrom(standby);
    workload.resume();
    await workload.firstDeposit(stack);
    const standbyMs = Date.now() - lostAt;
    const standbyLost = await lostMovements((t, v) => standby.query(t, v, 'backoffice'), workload.movements, lostAt);
    const standbyLedger = await ledgerOk(stack);
    say(`standby promoted; first deposit accepted ${standbyMs} ms after the primary was lost; ledger verifies: ${standbyLedger}`);
    // An after-T event JetStream still holds when the system stops: published while the webhooks
    // service is away, so nobody took it (what a consumer stopped mid-batch leaves too).
    await stack.kill('webhooks', 'SIGKILL');
    await workload.firstDeposit(stack);
    await waitFor(async () => (await unpublished((t, v) => standby.query(t, v, 'backoffice'))) === 0, {
      timeoutMs: 60_000,
      what: 'the last deposit on the standby published',
    });
    // The other scenario now: a bad statement or migration, whose cure is going back to T.
    await stack.close();
    const standbyStoppedAt = Date.now();
    await standby.stop();

    // What archiving alone would have lost: the archive restored to its end (the lost primary's timeline).
    const archived = await pgs.restore('pg-archive-only', ['--target-timeline=current'], { archive: false });
    await archived.untilPrimary();
    const archiveLost = await lostMovements((t, v) => archived.query(t, v, 'backoffice'), workload.movements, lostAt);
    await archived.stop();
    pgs.destroy(archived);

    // ---------------------------------------------------------------- 4. restore to T
    const restoreFrom = Date.now();
    const restored = await pgs.restore('pg-restored', ['--type=name', '--target=drill-T', '--target-action=promote', '--target-timeline=current']);
    await restored.untilPrimary();
    const restoreAndRecoveryMs = Date.now() - restoreFrom;
    const rq = <R extends Record<string, unknown>>(t: string, v?: unknown[]) => restored.query<R>(t, v, 'backoffice');
    const afterT = await afterTReport(rq, workload.movements, deliveries(), tMark);
    const presence = await checkPresence(rq, workload.movements, tMark, true);
    const owed = await eventsOwed(rq, [op.operator.id]);
    const knownAtRestore = await knownEventIds(rq);
    // The runbook's step before the system starts on the restored cluster (docs/runbook.md, "Restore from backup").
    const nc = await connect({ servers: nats.url });
    closers.push(() => nc.close());
    const forgotten = await forgetJetStreamHistory(nc, prefix);
    await republishOutboxes(restored.url('backoffice'), new Date(tMark - 15 * 60_000));
    const systemFrom = Date.now();
    stack = await systemOn(restored);
    await workload.firstDeposit(stack);
    const restoreMs = Date.now() - restoreFrom;
    const restoredLedger = await ledgerOk(stack);
    say(
      `restored to drill-T in ${restoreAndRecoveryMs} ms; the system on it accepted a deposit ${restoreMs} ms after the restore began; ledger verifies: ${restoredLedger}`,
    );
    const received = () =>
      new Set(
        deliveries()
          .filter((d) => d.verified)
          .map((d) => d.id),
      );
    await waitFor(async () => owed.every((id) => received().has(id)), {
      timeoutMs: 120_000,
      what: 'every event the restored outboxes hold at the receivers',
    }).catch(() =>
      problems.push(
        `events owed after the restore never delivered: ${owed
          .filter((id) => !received().has(id))
          .slice(0, 5)
          .join(', ')}`,
      ),
    );
    // Settled: every consumer of the events stream took and acknowledged all it holds, and the webhooks
    // service made every delivery it owes. Whatever the old history left in JetStream would be at the
    // receivers by now.
    const jsm = await jetstreamManager(nc);
    const pendingDeliveries = async () =>
      Number((await rq<{ n: string }>(`select count(*)::text as n from webhooks.deliveries where status = 'pending'`))[0]!.n);
    await waitFor(
      async () => {
        for await (const c of jsm.consumers.list(eventsStreamName(prefix))) if (c.num_pending + c.num_ack_pending > 0) return false;
        return (await pendingDeliveries()) === 0;
      },
      { timeoutMs: 120_000, what: 'the restored system settled: JetStream taken, every delivery made' },
    );
    await nc.close();
    // Made before the restore began and unknown to the restored database: the old system's history after T.
    const oldHistory = (d: Delivery) => d.at >= restoreFrom && !knownAtRestore.has(d.id) && Date.parse(String(d.body.createdAt)) < restoreFrom;
    const oldHistorySent = [
      ...new Set(
        deliveries()
          .filter(oldHistory)
          .map((d) => d.id),
      ),
    ];
    const webhooksConsumer = forgotten.flatMap((f) => f.consumers).find((c) => c.name.endsWith('_webhooks'));
    const leftInJetStream = (webhooksConsumer?.notTaken ?? 0) + (webhooksConsumer?.notAcknowledged ?? 0);

    // ---------------------------------------------------------------- 5. JetStream lost entirely
    // Events published while the webhooks service is away sit only in JetStream: then JetStream goes.
    const auditRows = async () => Number((await rq<{ n: string }>('select count(*)::text as n from operators.audit_log'))[0]!.n);
    await stack.kill('webhooks', 'SIGKILL');
    const depositsBefore = workload.movements.length;
    await workload.playMoney(stack, 1);
    const whileLost = workload.movements.slice(depositsBefore).filter((m) => m.kind === 'deposit' || m.kind === 'payout');
    await waitFor(async () => (await unpublished(rq)) === 0, { timeoutMs: 60_000, what: 'every outbox published' });
    const deliveredBefore = new Map<string, number>();
    for (const d of deliveries()) deliveredBefore.set(d.id, (deliveredBefore.get(d.id) ?? 0) + 1);
    const auditRowsBefore = await auditRows();
    for (const c of COMPONENTS) await stack.kill(c, 'SIGKILL');
    await nats.stop();
    rmSync(path.join(natsData, 'nats'), { recursive: true, force: true });
    nats = await startNatsServer(natsOpts);
    for (const c of COMPONENTS) await stack.start(c);
    await stack.waitReady();
    // Everything the restored system published may be gone with the store.
    const republished = await republishOutboxes(restored.url('backoffice'), new Date(restoreFrom));
    say(`JetStream lost (store removed, nats-server started empty); outbox rows published again: ${JSON.stringify(republished)}`);
    const owedWhileLost = whileLost.map((m) => m.id);
    const delivered = () => new Set(receivers.production.received.filter((r) => r.verified).map((r) => r.body.data?.id ?? r.body.data?.withdrawal?.id));
    await waitFor(async () => owedWhileLost.every((id) => delivered().has(id)), {
      timeoutMs: 120_000,
      what: 'the events published before the loss delivered',
    }).catch(() => problems.push(`events lost with JetStream: ${owedWhileLost.filter((id) => !delivered().has(id)).join(', ')}`));
    // Settled: every outbox published again and no delivery left to make.
    await waitFor(async () => (await unpublished(rq)) + (await pendingDeliveries()) === 0, { timeoutMs: 120_000, what: 'the republished events settled' });
    // Webhooks are delivered at least once: an answer slower than the attempt's deadline (a loaded
    // machine) is tried again by the same delivery, and the receiver sees the event twice by design.
    // Applied twice is something else: a second delivery of one event (the republished copy taken in
    // again), or more receipts than the service made attempts (someone else sent it).
    const receivedAgain = [...deliveredBefore].filter(([id, n]) => deliveries().filter((d) => d.id === id).length !== n).map(([id]) => id);
    const sends = new Map(
      (
        await rq<{ id: string; deliveries: number; attempts: number }>(
          `select event_id as id, count(*)::int as deliveries, sum(attempts)::int as attempts from webhooks.deliveries
            where kind = 'event' and event_id = any($1) group by event_id`,
          [receivedAgain],
        )
      ).map((r) => [r.id, r]),
    );
    const deliveredTwice = receivedAgain.filter((id) => {
      const s = sends.get(id);
      return !s || s.deliveries > 1 || deliveries().filter((d) => d.id === id).length > s.attempts;
    });
    const auditRowsAfter = await auditRows();
    const afterJetStreamLoss = await ledgerOk(stack);

    // ---------------------------------------------------------------- figures and verdict
    const info = JSON.parse(await pgs.pgbackrest(['info', '--output=json']))[0];
    const backup = info?.backup?.[0];
    const reusedIds = idsWithTwoMeanings(deliveries());
    if (presence.missing.length) problems.push(`acknowledged before T, missing after the restore: ${presence.missing.map(key).slice(0, 5).join(', ')}`);
    if (presence.doubled.length) problems.push(`held more than once: ${presence.doubled.map(key).slice(0, 5).join(', ')}`);
    if (presence.unexpected.length)
      problems.push(`acknowledged after T, present after the restore to T: ${presence.unexpected.map(key).slice(0, 5).join(', ')}`);
    if (reusedIds.length) problems.push(`event ids delivered with two meanings: ${reusedIds.join(', ')}`);
    if (oldHistorySent.length) {
      // Each with its type and every receipt, in ms from the restore's start (T, the primary's loss and the
      // system's stop before it are negative): which system sent what, and when.
      const at = (ms: number) => `${ms - restoreFrom} ms`;
      const told = oldHistorySent.map((id) => {
        const got = deliveries().filter((d) => d.id === id);
        return `${id} (${got[0]?.type}; received at ${got.map((d) => at(d.at)).join(', ')})`;
      });
      // What the systems' webhooks and payments services said of them, or of a batch they could not store or acknowledge.
      const said = stacks.flatMap((s, i) =>
        (['webhooks', 'payments'] as const).flatMap((c) =>
          (s.logs.get(c) ?? [])
            .filter((line) => oldHistorySent.some((id) => line.includes(id)) || /intake batch|redelivered|not acknowledged|publish|NATS/.test(line))
            .map((line) => `system ${i + 1} ${c}: ${line.slice(0, 400)}`),
        ),
      );
      problems.push(
        `after-T events of the old system sent by the restored one: ${told.join('; ')} [T at ${at(tMark)}, primary lost at ${at(lostAt)}, the system on the standby stopped at ${at(standbyStoppedAt)}]${said.length ? `; the services said:\n${said.slice(-20).join('\n')}` : '; the services said nothing of them'}`,
      );
    }
    if (deliveredTwice.length) problems.push(`delivered again after JetStream's loss: ${deliveredTwice.join(', ')}`);
    if (auditRowsAfter !== auditRowsBefore) problems.push(`audit rows ${auditRowsBefore} before JetStream's loss, ${auditRowsAfter} after the republish`);
    return {
      restorePoint,
      dataSize: { databaseBytes: Number(size!.bytes), backupBytes: Number(backup?.info?.size ?? 0), repoBytes: Number(backup?.info?.repository?.size ?? 0) },
      counts: {
        movements: workload.movements.length,
        beforeT,
        afterT: workload.movements.filter((m) => m.at >= tMark && m.at < lostAt).length,
        webhooksDelivered: deliveries().filter((d) => d.verified).length,
      },
      rpo: { archiveOnly: lossOf(archiveLost), standby: lossOf(standbyLost), archiveTimeoutSeconds: o.archiveTimeoutSeconds },
      rto: { standbyMs, restoreMs, restoreParts: { restoreAndRecoveryMs, systemStartMs: restoreMs - (systemFrom - restoreFrom) } },
      ledger: { standby: standbyLedger, restored: restoredLedger, afterJetStreamLoss },
      presence: { missingBeforeT: presence.missing.map(key), doubled: presence.doubled.map(key), afterTPresent: presence.unexpected.map(key) },
      afterT,
      events: { owedAfterRestore: owed.length, reusedIds, leftInJetStream, forgotten, oldHistorySent },
      jetStream: {
        republished,
        owedWhileLost: owedWhileLost.length,
        deliveredAfter: owedWhileLost.filter((id) => delivered().has(id)).length,
        deliveredTwice,
        auditRowsBefore,
        auditRowsAfter,
      },
      problems,
    };
  } finally {
    for (const s of stacks) await s.close().catch(() => undefined);
    for (const close of closers) await close().catch(() => undefined);
    await nats?.stop().catch(() => undefined);
    rmSync(natsData, { recursive: true, force: true });
    await pgs.close();
  }
}
