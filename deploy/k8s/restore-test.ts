// The scheduled restore test (issue #67; docs/continuity.md, "The restore test"): a backup is only
// proved by a restore. Restores the latest backup into a scratch CloudNativePG Cluster, runs the
// wallet's ledger verification on it (the function `npm run admin -- ledger verify` runs through the
// admin API, here straight on the restored database: no service is started on a copy), pushes the
// outcome to the Pushgateway for the alerts (PostgresRestoreTestFailed, PostgresRestoreTestStale) and
// deletes the scratch Cluster, whatever happened. Run by the CronJob of restore-test.example.yaml from
// the application image (`node deploy/k8s/restore-test.ts`); exit 0 only when the ledger verified and
// the outcome was pushed.
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { sqlOnPool } from '@bo/service-kit';
import { verifyLedger } from '../../services/wallet/src/ledger/store/verify.ts';

/** The Barman Cloud plugin, as the Clusters of postgres-cluster.example.yaml name it. */
const BARMAN_PLUGIN = 'barman-cloud.cloudnative-pg.io';
const SERVICE_ACCOUNT = '/var/run/secrets/kubernetes.io/serviceaccount';

export interface RestoreTestSettings {
  /** The Kubernetes API (in a pod: https://kubernetes.default.svc) and a bearer token for it. */
  apiUrl: string;
  token: string;
  namespace: string;
  /** The scratch Cluster's name: its own pods, Services and Secrets, never the live Cluster's. */
  scratchName: string;
  /** The ObjectStore holding the backups and WAL, and the server name they are kept under. */
  objectStore: string;
  serverName: string;
  imageName: string;
  storageSize: string;
  storageClass?: string;
  /** Where the outcome goes (POST: only the series pushed are replaced), and the site label it carries. */
  pushgatewayUrl: string;
  site: string;
  timeoutMs: number;
  pollMs: number;
  /** Reach the restored database here instead of through the scratch Cluster's Secrets (tests). */
  databaseUrl?: string;
}

export function settingsFromEnv(env: NodeJS.ProcessEnv = process.env): RestoreTestSettings {
  const need = (name: string) => {
    const v = env[name];
    if (!v) throw new Error(`restore test: ${name} is not set`);
    return v;
  };
  return {
    apiUrl: env.KUBERNETES_API_URL ?? 'https://kubernetes.default.svc',
    token: env.KUBERNETES_TOKEN ?? readFileSync(`${SERVICE_ACCOUNT}/token`, 'utf8').trim(),
    namespace: need('RESTORE_NAMESPACE'),
    scratchName: need('RESTORE_SCRATCH_CLUSTER'),
    objectStore: need('RESTORE_OBJECT_STORE'),
    serverName: need('RESTORE_SERVER_NAME'),
    imageName: need('RESTORE_IMAGE_NAME'),
    storageSize: need('RESTORE_STORAGE_SIZE'),
    storageClass: env.RESTORE_STORAGE_CLASS || undefined,
    pushgatewayUrl: need('PUSHGATEWAY_URL').replace(/\/+$/, ''),
    site: need('RESTORE_SITE'),
    timeoutMs: Number(env.RESTORE_TIMEOUT_SECONDS ?? 4 * 3600) * 1000,
    pollMs: Number(env.RESTORE_POLL_MS ?? 15_000),
    databaseUrl: env.RESTORE_DATABASE_URL || undefined,
  };
}

/**
 * The scratch Cluster: one instance bootstrapped from the latest backup and the WAL archived after
 * it (no recovery target: as far as the archive reaches). It names no archive of its own, so it
 * never writes into the live Cluster's object store, and no replica settings, so it never follows it.
 */
export function scratchCluster(s: RestoreTestSettings): Record<string, unknown> {
  return {
    apiVersion: 'postgresql.cnpg.io/v1',
    kind: 'Cluster',
    metadata: {
      name: s.scratchName,
      namespace: s.namespace,
      labels: { 'app.kubernetes.io/name': 'back-office-restore-test', 'app.kubernetes.io/part-of': 'back-office' },
    },
    spec: {
      instances: 1,
      imageName: s.imageName,
      bootstrap: { recovery: { source: 'origin', database: 'backoffice', owner: 'back_office' } },
      externalClusters: [{ name: 'origin', plugin: { name: BARMAN_PLUGIN, parameters: { barmanObjectName: s.objectStore, serverName: s.serverName } } }],
      storage: { size: s.storageSize, ...(s.storageClass ? { storageClass: s.storageClass } : {}) },
    },
  };
}

interface ClusterStatus {
  phase?: string;
  conditions?: Array<{ type: string; status: string; message?: string }>;
}

class Kubernetes {
  readonly s: RestoreTestSettings;
  constructor(s: RestoreTestSettings) {
    this.s = s;
  }

  async call(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
    const res = await fetch(`${this.s.apiUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${this.s.token}`, accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    let json: any;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = { message: text };
    }
    return { status: res.status, json };
  }

  clusterPath(name?: string): string {
    return `/apis/postgresql.cnpg.io/v1/namespaces/${this.s.namespace}/clusters${name ? `/${name}` : ''}`;
  }

  async secret(name: string): Promise<Record<string, string>> {
    const r = await this.call('GET', `/api/v1/namespaces/${this.s.namespace}/secrets/${name}`);
    if (r.status !== 200) throw new Error(`reading Secret ${name}: ${r.status} ${r.json?.message ?? ''}`);
    return Object.fromEntries(Object.entries((r.json.data ?? {}) as Record<string, string>).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const say = (msg: string, fields: Record<string, unknown> = {}) => console.log(JSON.stringify({ time: new Date().toISOString(), msg, ...fields }));

/** Deletes the scratch Cluster (left by an earlier run, or this one's) and waits until it is gone. */
async function deleteScratch(k: Kubernetes, s: RestoreTestSettings): Promise<void> {
  const r = await k.call('DELETE', k.clusterPath(s.scratchName));
  if (r.status === 404) return;
  if (r.status >= 300) throw new Error(`deleting Cluster ${s.scratchName}: ${r.status} ${r.json?.message ?? ''}`);
  const until = Date.now() + 10 * 60_000;
  while (Date.now() < until) {
    if ((await k.call('GET', k.clusterPath(s.scratchName))).status === 404) return;
    await sleep(Math.min(s.pollMs, 5_000));
  }
  throw new Error(`Cluster ${s.scratchName} still there 10 minutes after its deletion`);
}

async function waitReady(k: Kubernetes, s: RestoreTestSettings, started: number): Promise<void> {
  let lastPhase = '';
  while (Date.now() - started < s.timeoutMs) {
    const r = await k.call('GET', k.clusterPath(s.scratchName));
    if (r.status !== 200) throw new Error(`reading Cluster ${s.scratchName}: ${r.status} ${r.json?.message ?? ''}`);
    const status = (r.json.status ?? {}) as ClusterStatus;
    if (status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')) return;
    if (status.phase && status.phase !== lastPhase) say('restore test: scratch cluster', { phase: status.phase });
    lastPhase = status.phase ?? lastPhase;
    await sleep(s.pollMs);
  }
  throw new Error(`the scratch Cluster was not ready within ${Math.round(s.timeoutMs / 1000)} s (last phase: ${lastPhase || 'none'})`);
}

/** The restored database: the scratch Cluster's -rw Service, with the owner's Secret and the Cluster's CA. */
async function scratchPool(k: Kubernetes, s: RestoreTestSettings): Promise<pg.Pool> {
  if (s.databaseUrl) return new pg.Pool({ connectionString: s.databaseUrl, max: 2 });
  const app = await k.secret(`${s.scratchName}-app`);
  const ca = (await k.secret(`${s.scratchName}-ca`))['ca.crt'];
  if (!ca) throw new Error(`Secret ${s.scratchName}-ca has no ca.crt`);
  const host = `${s.scratchName}-rw.${s.namespace}.svc`;
  return new pg.Pool({
    host,
    port: Number(app.port ?? 5432),
    database: app.dbname ?? 'backoffice',
    user: app.username ?? app.user,
    password: app.password,
    ssl: { ca, servername: host },
    max: 2,
  });
}

export interface RestoreTestOutcome {
  ok: boolean;
  /** From the scratch Cluster's creation to ready: what a restore of this size takes (the RTO's restore part). */
  restoreSeconds?: number;
  /** The newest money movement the restored copy holds (how far the backup and archive reached). */
  recoveredTo?: number;
  ledgerIssues?: number;
  error?: string;
}

/** The Pushgateway's text format: POST replaces the series named, so a failure keeps the last success's time. */
export function pushBody(o: RestoreTestOutcome, now: number): string {
  const lines = [
    '# TYPE bo_restore_test_ok gauge',
    `bo_restore_test_ok ${o.ok ? 1 : 0}`,
    '# TYPE bo_restore_test_last_run_timestamp_seconds gauge',
    `bo_restore_test_last_run_timestamp_seconds ${now}`,
  ];
  if (o.ok) lines.push('# TYPE bo_restore_test_last_success_timestamp_seconds gauge', `bo_restore_test_last_success_timestamp_seconds ${now}`);
  if (o.restoreSeconds !== undefined) lines.push('# TYPE bo_restore_test_duration_seconds gauge', `bo_restore_test_duration_seconds ${o.restoreSeconds}`);
  if (o.recoveredTo !== undefined)
    lines.push('# TYPE bo_restore_test_recovered_to_timestamp_seconds gauge', `bo_restore_test_recovered_to_timestamp_seconds ${o.recoveredTo}`);
  if (o.ledgerIssues !== undefined) lines.push('# TYPE bo_restore_test_ledger_issues gauge', `bo_restore_test_ledger_issues ${o.ledgerIssues}`);
  return `${lines.join('\n')}\n`;
}

export async function runRestoreTest(s: RestoreTestSettings): Promise<RestoreTestOutcome> {
  const k = new Kubernetes(s);
  const outcome: RestoreTestOutcome = { ok: false };
  try {
    await deleteScratch(k, s);
    const started = Date.now();
    const created = await k.call('POST', k.clusterPath(), scratchCluster(s));
    if (created.status >= 300) throw new Error(`creating Cluster ${s.scratchName}: ${created.status} ${created.json?.message ?? ''}`);
    say('restore test: restoring the latest backup', { cluster: s.scratchName, objectStore: s.objectStore, serverName: s.serverName });
    await waitReady(k, s, started);
    outcome.restoreSeconds = Math.round((Date.now() - started) / 1000);
    const pool = await scratchPool(k, s);
    try {
      const verification = await verifyLedger(sqlOnPool(pool));
      outcome.ledgerIssues = verification.mismatches.length + verification.unbalancedTransactions.length;
      const newest = await pool.query<{ at: string | null }>('select extract(epoch from max(created_at))::bigint::text as at from wallet.ledger_transactions');
      if (newest.rows[0]?.at) outcome.recoveredTo = Number(newest.rows[0].at);
      outcome.ok = verification.ok;
      say('restore test: ledger verification', {
        ok: verification.ok,
        mismatches: verification.mismatches.slice(0, 20),
        unbalanced: verification.unbalancedTransactions.slice(0, 20),
        restoreSeconds: outcome.restoreSeconds,
        recoveredTo: outcome.recoveredTo ? new Date(outcome.recoveredTo * 1000).toISOString() : null,
      });
    } finally {
      await pool.end();
    }
  } catch (err) {
    outcome.error = (err as Error).message;
    say('restore test: failed', { error: outcome.error });
  } finally {
    await deleteScratch(k, s).catch((err: Error) => say('restore test: the scratch Cluster could not be deleted; delete it by hand', { error: err.message }));
  }
  return outcome;
}

export async function pushOutcome(s: RestoreTestSettings, o: RestoreTestOutcome, now = Math.floor(Date.now() / 1000)): Promise<void> {
  const url = `${s.pushgatewayUrl}/metrics/job/back-office-restore-test/site/${encodeURIComponent(s.site)}`;
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'text/plain; version=0.0.4' }, body: pushBody(o, now) });
  if (!res.ok) throw new Error(`pushing to ${url}: ${res.status} ${await res.text()}`);
}

if (import.meta.main) {
  const s = settingsFromEnv();
  const outcome = await runRestoreTest(s);
  try {
    await pushOutcome(s, outcome);
  } catch (err) {
    // Nothing reached Prometheus: PostgresRestoreTestStale says so within 30 hours.
    say('restore test: the outcome could not be pushed', { error: (err as Error).message });
    process.exit(1);
  }
  process.exit(outcome.ok ? 0 : 1);
}
