// `npm run check:manifests` passes on the manifests as they are, and fails, naming the fault, on
// copies of deploy/k8s with one thing broken: a secret a service reads not wired from the Secret,
// a provider's credential required rather than optional, a provider's egress opened to the internet,
// a probe missing, the default-deny NetworkPolicy gone, NATS a single node or R1, Postgres without a
// synchronous standby or not at its -rw address, an image tag that is not the API version, a
// workspace the gateway runs left out of the image, the SDK's README (the portal serves it) left
// out, the SDK's sources let in, a process or a NATS node not scraped, the ingress example routed to
// the admin port or its hops not TRUST_PROXY, traces let out to anywhere, a component without its
// NATS identity or the NATS CA, the NATS permissions edited by hand (a gateway allowed a wallet
// credit), routes that do not verify each other; and (issue #67) backups not encrypted, the monthly
// copy not standalone, the second site archiving into the primary's store, the restore test able to
// reach or delete the live Cluster, a mirror addressing its own domain, the leafnode open to anyone.
import t, { type Test } from 'tap';
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleOwnCode } from '../../scripts/test-service-bundles.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const K8S = path.join(ROOT, 'deploy/k8s');

function run(cmd: string, args: string[]): Promise<{ code: number | null; out: string }> {
  const child = spawn(cmd, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  child.stderr.on('data', (d) => {
    out += d;
  });
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, out })));
}

// The copies are checked by check-manifests.ts bundled into one file (as `npm test` bundles the services):
// the same code for under half the CPU of a start from its sources, 36 times over. The real manifests are
// checked from the sources, through the npm script. The bundle is made inside the repository, where Node
// finds the packages it leaves outside (pg).
mkdirSync(path.join(ROOT, '.data'), { recursive: true });
const bundleDir = mkdtempSync(path.join(ROOT, '.data', 'check-manifests-'));
t.teardown(() => rmSync(bundleDir, { recursive: true, force: true }));
t.before(() => bundleOwnCode({ 'check-manifests': path.join(K8S, 'check-manifests.ts') }, bundleDir));

/**
 * check-manifests.ts on a copy of deploy/k8s where `file` (from deploy/k8s: the second site's overlays
 * are `../second-site/…`, copied beside it) had `from` replaced by `to`.
 */
async function checkBroken(t: Test, file: string, from: string | RegExp, to: string) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bo-k8s-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  cpSync(path.dirname(K8S), dir, { recursive: true });
  const k8s = path.join(dir, 'k8s');
  const before = readFileSync(path.join(k8s, file), 'utf8');
  const after = before.replace(from, to);
  t.not(after, before, `${file} was changed`);
  writeFileSync(path.join(k8s, file), after);
  return run(process.execPath, [path.join(bundleDir, 'check-manifests.mjs'), k8s]);
}

t.test('the real manifests pass, through the npm script on the pinned Node', async (t) => {
  const r = await run('npm', ['run', '-s', 'check:manifests']);
  t.equal(r.code, 0, 'exit 0');
  t.match(r.out, / passed, 0 failed/);
});

t.test('a copy with one fault fails, naming it', async (t) => {
  const noSecret = await checkBroken(
    t,
    'wallet.yaml',
    /\n {12}- name: GAME_LAUNCH_SECRET\n {14}valueFrom:\n {16}secretKeyRef:\n {18}name: back-office-secrets\n {18}key: GAME_LAUNCH_SECRET/,
    '',
  );
  t.equal(noSecret.code, 1);
  t.match(noSecret.out, /not ok - wallet reads GAME_LAUNCH_SECRET but does not get it from the Secret/);

  const notInTemplate = await checkBroken(t, 'secret.template.yaml', /\n {2}GAME_LAUNCH_SECRET: .*/, '');
  t.equal(notInTemplate.code, 1);
  t.match(notInTemplate.out, /not ok - Secret template lacks GAME_LAUNCH_SECRET/);

  // A provider's credential: from its own Secret, optional (the pod starts while the simulator answers).
  const required = await checkBroken(t, 'players.yaml', /(key: SPA_TOKEN\n) {18}optional: true\n/, '$1');
  t.equal(required.code, 1);
  t.match(required.out, /not ok - players: SPA_TOKEN must be optional \(absent while the simulator answers\)/);

  const wideOpen = await checkBroken(t, 'network-policies.yaml', 'cidr: 192.0.2.10/32', 'cidr: 0.0.0.0/0');
  t.equal(wideOpen.code, 1);
  t.match(wideOpen.out, /not ok - NetworkPolicy players-spa-egress: 0\.0\.0\.0\/0 is wider than a \/16/);

  const noProbe = await checkBroken(t, 'payments.yaml', 'path: /readyz', 'path: /metrics');
  t.equal(noProbe.code, 1);
  t.match(noProbe.out, /not ok - payments: readiness probe GET \/readyz on the metrics port/);

  const noDefaultDeny = await checkBroken(
    t,
    'network-policies.yaml',
    /^apiVersion: networking.k8s.io\/v1\nkind: NetworkPolicy\nmetadata:\n {2}name: default-deny\n[\s\S]*?---\n/m,
    '',
  );
  t.equal(noDefaultDeny.code, 1);
  t.match(noDefaultDeny.out, /not ok - NetworkPolicy: default deny of ingress and egress/);

  // The topology that survives a lost node (issue #30): NATS three nodes and R3, Postgres at the -rw address.
  const oneNats = await checkBroken(t, 'nats.yaml', 'replicas: 3', 'replicas: 1');
  t.equal(oneNats.code, 1);
  t.match(oneNats.out, /not ok - nats: a StatefulSet of 3/);

  const r1 = await checkBroken(t, 'configmap.yaml', 'NATS_REPLICAS: "3"', 'NATS_REPLICAS: "1"');
  t.equal(r1.code, 1);
  t.match(r1.out, /not ok - ConfigMap: NATS_REPLICAS "3"/);

  const oneNode = await checkBroken(t, 'configmap.yaml', /NATS_URL: .*/, 'NATS_URL: nats://nats:4222');
  t.equal(oneNode.code, 1);
  t.match(oneNode.out, /not ok - ConfigMap: NATS_URL lists every NATS node/);

  const asyncPostgres = await checkBroken(t, 'postgres-cluster.example.yaml', /\n {2}minSyncReplicas: 1/, '');
  t.equal(asyncPostgres.code, 1);
  t.match(asyncPostgres.out, /not ok - postgres-cluster.example.yaml: a primary and a synchronous standby/);

  const primaryOnly = await checkBroken(t, 'secret.template.yaml', 'back-office-db-rw.back-office-db', 'back-office-db-1.back-office-db');
  t.equal(primaryOnly.code, 1);
  t.match(primaryOnly.out, /not ok - Secret template: DATABASE_URL at the Cluster's -rw Service/);

  const oldTag = await checkBroken(t, 'kustomization.yaml', /newTag: .*/, 'newTag: 1.0.0');
  t.equal(oldTag.code, 1);
  t.match(oldTag.out, /not ok - kustomization.yaml: image tag \d+\.\d+\.\d+ \(API_VERSION in packages\/contracts\)/);

  // The gateway mounts the launch page from packages/play: an image without it would not start.
  const noPlay = await checkBroken(t, 'Dockerfile', /^COPY packages\/play \.\/packages\/play\n/m, '');
  t.equal(noPlay.code, 1);
  t.match(noPlay.out, /not ok - Dockerfile: the runtime stage copies packages\/play \(a service runs it\)/);

  // The portal reads the SDK's README at start-up; the README is the one file of the SDK allowed in.
  const noReadme = await checkBroken(t, 'Dockerfile', /^COPY packages\/sdk\/README\.md \.\/packages\/sdk\/\n/m, '');
  t.equal(noReadme.code, 1);
  t.match(noReadme.out, /not ok - Dockerfile: the runtime stage copies packages\/sdk\/README\.md \(the portal serves it\)/);
  // NATS with identities (issue #40): each component its user and password, the CA alone; the
  // server's authorization block only as nats-identities.ts renders it; TLS on clients and routes.
  const noNatsPassword = await checkBroken(
    t,
    'wallet.yaml',
    /\n {12}- name: NATS_PASSWORD\n {14}valueFrom:\n {16}secretKeyRef:\n {18}name: back-office-nats-credentials\n {18}key: NATS_PASSWORD_WALLET/,
    '',
  );
  t.equal(noNatsPassword.code, 1);
  t.match(noNatsPassword.out, /not ok - wallet: NATS_PASSWORD from back-office-nats-credentials\/NATS_PASSWORD_WALLET/);
  const othersPassword = await checkBroken(t, 'gateway.yaml', 'key: NATS_PASSWORD_GATEWAY', 'key: NATS_PASSWORD_PAYMENTS');
  t.equal(othersPassword.code, 1);
  t.match(othersPassword.out, /not ok - gateway: NATS_PASSWORD from back-office-nats-credentials\/NATS_PASSWORD_GATEWAY/);
  const noCa = await checkBroken(t, 'payments.yaml', /\n {12}- name: nats-ca\n {14}mountPath: \/etc\/nats-ca\n {14}readOnly: true/, '');
  t.equal(noCa.code, 1);
  t.match(noCa.out, /not ok - payments: the NATS CA mounted at NATS_TLS_CA_FILE/);
  const serverKey = await checkBroken(t, 'operators.yaml', /\n {12}items:\n {14}- key: ca\.crt\n {16}path: ca\.crt/, '');
  t.equal(serverKey.code, 1);
  t.match(serverKey.out, /not ok - operators: a volume with the ca\.crt of nats-server-tls alone/);
  const widened = await checkBroken(t, 'nats.yaml', '"bo.rpc.players.create", ', '"bo.rpc.wallet.credit", "bo.rpc.players.create", ');
  t.equal(widened.code, 1);
  t.match(widened.out, /not ok - nats\.conf: the authorization block is what nats-identities\.ts renders/);
  const noVerify = await checkBroken(t, 'nats.yaml', /verify: true/, 'verify: false');
  t.equal(noVerify.code, 1);
  t.match(noVerify.out, /not ok - nats\.conf: routes verify each other/);
  const noClientTls = await checkBroken(
    t,
    'nats.yaml',
    /\n {4}tls \{\n {6}cert_file: \/etc\/nats-tls\/tls\.crt\n {6}key_file: \/etc\/nats-tls\/tls\.key\n {6}ca_file: \/etc\/nats-tls\/ca\.crt\n {6}timeout: 5\n {4}\}/,
    '',
  );
  t.equal(noClientTls.code, 1);
  t.match(noClientTls.out, /not ok - nats\.conf: client TLS cert_file/);

  const sdkSources = await checkBroken(t, 'Dockerfile', /^COPY packages\/sdk\/README\.md \.\/packages\/sdk\/$/m, 'COPY packages/sdk ./packages/sdk');
  t.equal(sdkSources.code, 1);
  t.match(sdkSources.out, /not ok - Dockerfile: no test, tool or SDK sources in the image/);
  // Monitoring (issue #45): every process scraped, NATS through its exporter, the ingress example's
  // hop count is TRUST_PROXY, traces reach the collector only.
  const unscraped = await checkBroken(t, 'monitoring/pod-monitors.yaml', '"wallet", ', '');
  t.equal(unscraped.code, 1);
  t.match(unscraped.out, /not ok - wallet: a PodMonitor scrapes it/);

  const nodeUnwatched = await checkBroken(t, 'monitoring/nats-exporter.yaml', 'http://nats-2.nats-headless:8222', 'http://nats-1.nats-headless:8222');
  t.equal(nodeUnwatched.code, 1);
  t.match(nodeUnwatched.out, /not ok - nats-exporter: a container reads nats-2\.nats-headless:8222/);

  const toAdmin = await checkBroken(t, 'ingress.example.yaml', 'number: 3000', 'number: 3001');
  t.equal(toAdmin.code, 1);
  t.match(toAdmin.out, /not ok - ingress\.example\.yaml: api\.back-office\.example\.com\/ goes to the gateway's public port 3000, never the admin API/);

  const hops = await checkBroken(t, 'configmap.yaml', 'TRUST_PROXY: "1"', 'TRUST_PROXY: "2"');
  t.equal(hops.code, 1);
  t.match(hops.out, /not ok - ConfigMap: TRUST_PROXY "2" is the ingress's proxy hops/);

  const otlpAnywhere = await checkBroken(
    t,
    'otel-egress.yaml',
    /- namespaceSelector:\n {12}matchLabels:\n {14}kubernetes\.io\/metadata\.name: observability\n {10}podSelector:\n {12}matchLabels:\n {14}app\.kubernetes\.io\/name: opentelemetry-collector/,
    '- ipBlock:\n            cidr: 0.0.0.0/0',
  );
  t.equal(otlpAnywhere.code, 1);
  t.match(otlpAnywhere.out, /not ok - players never reaches an OTLP endpoint on the internet/);
});

t.test('the backups, the second site and the restore test (issue #67): a copy with one fault fails, naming it', async (t) => {
  const unencrypted = await checkBroken(t, 'postgres-cluster.example.yaml', /\n {6}encryption: aws:kms\n {6}maxParallel/, '\n      maxParallel');
  t.equal(unencrypted.code, 1);
  t.match(unencrypted.out, /not ok - postgres-cluster.example.yaml: WAL and base backups encrypted at rest/);

  const unkept = await checkBroken(t, 'postgres-cluster.example.yaml', '- --target=standalone', '- --target=full');
  t.equal(unkept.code, 1);
  t.match(unkept.out, /not ok - postgres-cluster.example.yaml: the monthly mark keeps a standalone backup/);

  // The second site must never archive into the primary site's store.
  const sharedArchive = await checkBroken(
    t,
    'postgres-replica-cluster.example.yaml',
    /(isWALArchiver: true\n {6}parameters:\n {8}barmanObjectName: )back-office-db-site-b/,
    '$1back-office-db-site-a',
  );
  t.equal(sharedArchive.code, 1);
  t.match(sharedArchive.out, /not ok - postgres-replica-cluster.example.yaml: archives into its own bucket and server name, never the primary's/);

  const liveReached = await checkBroken(t, 'restore-test.example.yaml', 'cnpg.io/cluster: back-office-db-restore-test', 'cnpg.io/cluster: back-office-db');
  t.equal(liveReached.code, 1);
  t.match(liveReached.out, /not ok - restore test never reaches the live Cluster/);

  const liveDeletable = await checkBroken(
    t,
    'restore-test.example.yaml',
    'resourceNames: ["back-office-db-restore-test"]',
    'resourceNames: ["back-office-db-restore-test", "back-office-db"]',
  );
  t.equal(liveDeletable.code, 1);
  t.match(liveDeletable.out, /not ok - restore-test.example.yaml: the Role reaches the scratch Cluster and its Secrets only/);

  const ownDomain = await checkBroken(
    t,
    '../second-site/active/nats-mirrors.yaml',
    /"api": "\$JS\.site-a\.API", "deliver": "bo\.mirror\.bo_EVENTS"/,
    '"api": "$JS.site-b.API", "deliver": "bo.mirror.bo_EVENTS"',
  );
  t.equal(ownDomain.code, 1);
  t.match(ownDomain.out, /not ok - deploy\/second-site\/active: bo_EVENTS mirrors the primary site's bo_EVENTS through its domain's API/);

  // A second site in standby runs no application (it would write to a database in recovery).
  const standbyRuns = await checkBroken(t, '../second-site/standby/kustomization.yaml', /value: 0/, 'value: 2');
  t.equal(standbyRuns.code, 1);
  t.match(standbyRuns.out, /not ok - deploy\/second-site\/standby: the active site with no autoscaler and no application replica/);

  const leafFromAnywhere = await checkBroken(
    t,
    'network-policies.yaml',
    "# PLACEHOLDER: the other site's address range (RFC 5737 documentation range until known).\n        - ipBlock:\n            cidr: 198.51.100.0/24",
    "# PLACEHOLDER: the other site's address range (RFC 5737 documentation range until known).\n        - ipBlock:\n            cidr: 0.0.0.0/0",
  );
  t.equal(leafFromAnywhere.code, 1);
  t.match(leafFromAnywhere.out, /not ok - nats: the other site reaches the leafnode port alone, and nobody else reaches it/);
});
