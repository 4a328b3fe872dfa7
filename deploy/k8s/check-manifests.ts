// Offline checks of the manifests (no cluster needed): every file parses, kustomization lists
// them, the pods keep the security and drain settings, each component's command exists, and the
// ConfigMap plus the Secret's keys pass each component's own config schema. Run from the
// repository root: `node deploy/k8s/check-manifests.ts` (exit 1 on any failure).
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import type { TObject } from '@sinclair/typebox';
import { loadConfig } from '@bo/service-kit';
import { GatewayConfigSchema } from '../../services/gateway/src/config.ts';
import { PlayersConfigSchema } from '../../services/players/src/config.ts';
import { WalletConfigSchema } from '../../services/wallet/src/config.ts';
import { PaymentsConfigSchema } from '../../services/payments/src/config.ts';
import { WebhooksConfigSchema } from '../../services/webhooks/src/config.ts';

type Doc = Record<string, any>;
const DIR = new URL('./', import.meta.url);
const REPO = new URL('../../', import.meta.url);
const SECRET_TEMPLATE = 'secret.template.yaml';
const COMPONENTS: Record<string, TObject> = {
  gateway: GatewayConfigSchema, players: PlayersConfigSchema, wallet: WalletConfigSchema,
  payments: PaymentsConfigSchema, webhooks: WebhooksConfigSchema,
};
// Keys whose defaults are development values: a component that reads one must get it from the Secret.
const SECRET_KEYS = ['DATABASE_URL', 'ADMIN_TOKEN', 'SECRETS_MASTER_KEY', 'LEDGER_CURSOR_SECRET'];
// Read by Node or the logger rather than a config schema.
const RUNTIME_KEYS = ['NODE_ENV', 'LOG_LEVEL'];

const failures: string[] = [];
let passed = 0;
function check(ok: unknown, what: string): void {
  if (ok) passed++;
  else failures.push(what);
}

// 1. Every YAML file parses without errors or warnings.
const files = readdirSync(DIR).filter((f) => f.endsWith('.yaml')).sort();
const docsByFile = new Map<string, Doc[]>();
for (const file of files) {
  const parsed = parseAllDocuments(readFileSync(new URL(file, DIR), 'utf8'));
  const list = Array.isArray(parsed) ? parsed : [parsed];
  for (const d of list) {
    check(d.errors.length === 0, `${file}: ${d.errors.map((e) => e.message).join('; ')}`);
    check(d.warnings.length === 0, `${file}: ${d.warnings.map((e) => e.message).join('; ')}`);
  }
  docsByFile.set(file, list.map((d) => d.toJS() as Doc).filter(Boolean));
}

// 2. kustomization.yaml lists every manifest but the Secret template, and only existing files.
const kustomization = docsByFile.get('kustomization.yaml')?.[0] ?? {};
const resources: string[] = kustomization.resources ?? [];
for (const r of resources) check(existsSync(new URL(r, DIR)), `kustomization lists missing file ${r}`);
for (const f of files) {
  if (f === 'kustomization.yaml') continue;
  if (f === SECRET_TEMPLATE) check(!resources.includes(f), `${f} must not be applied by kustomize`);
  else check(resources.includes(f), `kustomization.yaml does not list ${f}`);
}

const all = [...docsByFile.entries()].filter(([f]) => f !== 'kustomization.yaml').flatMap(([file, ds]) => ds.map((d) => ({ file, d })));
const ofKind = (kind: string) => all.filter(({ d }) => d.kind === kind).map(({ d }) => d);
for (const { file, d } of all) check(d.apiVersion && d.kind && d.metadata?.name, `${file}: a document lacks apiVersion, kind or metadata.name`);

// 3. Secret template and ConfigMap.
const secret = ofKind('Secret').find((s) => s.metadata.name === 'back-office-secrets');
check(secret, 'no back-office-secrets Secret template');
const secretKeys = Object.keys(secret?.stringData ?? {});
for (const k of SECRET_KEYS) check(secretKeys.includes(k), `Secret template lacks ${k}`);
for (const [k, v] of Object.entries<string>(secret?.stringData ?? {})) check(/REPLACE-ME/.test(v), `Secret template value ${k} is not a placeholder`);
const configMap = ofKind('ConfigMap').find((c) => c.metadata.name === 'back-office-config');
check(configMap, 'no back-office-config ConfigMap');
const configData: Record<string, string> = configMap?.data ?? {};
for (const [k, v] of Object.entries(configData)) check(typeof v === 'string', `ConfigMap value ${k} must be a string (quote it)`);
for (const k of Object.keys(configData)) {
  check(SECRET_KEYS.indexOf(k) === -1, `ConfigMap holds secret key ${k}`);
  check(RUNTIME_KEYS.includes(k) || Object.values(COMPONENTS).some((s) => k in s.properties), `ConfigMap key ${k} is read by no component`);
}

// 4. Workloads: security, resources, drain, probes.
const workloads = [...ofKind('Deployment'), ...ofKind('StatefulSet')];
for (const w of workloads) {
  const name = `${w.kind} ${w.metadata.name}`;
  const pod = w.spec?.template?.spec ?? {};
  check(pod.securityContext?.runAsNonRoot === true, `${name}: pod must run as non-root`);
  check(pod.securityContext?.seccompProfile?.type === 'RuntimeDefault', `${name}: seccomp RuntimeDefault`);
  check(typeof pod.terminationGracePeriodSeconds === 'number' && pod.terminationGracePeriodSeconds >= 20, `${name}: terminationGracePeriodSeconds ≥ 20 for a graceful drain`);
  check(pod.automountServiceAccountToken === false, `${name}: no service account token needed`);
  const labels = w.spec?.template?.metadata?.labels ?? {};
  for (const [k, v] of Object.entries(w.spec?.selector?.matchLabels ?? {})) check(labels[k] === v, `${name}: selector ${k}=${v} does not match the pod labels`);
  for (const c of pod.containers ?? []) {
    const cn = `${name}/${c.name}`;
    check(c.securityContext?.readOnlyRootFilesystem === true, `${cn}: read-only root filesystem`);
    check(c.securityContext?.allowPrivilegeEscalation === false, `${cn}: no privilege escalation`);
    check((c.securityContext?.capabilities?.drop ?? []).includes('ALL'), `${cn}: drop all capabilities`);
    check(c.resources?.requests?.cpu && c.resources?.requests?.memory && c.resources?.limits?.memory, `${cn}: cpu/memory requests and a memory limit`);
    for (const e of c.env ?? []) {
      const ref = e.valueFrom?.secretKeyRef;
      if (ref) check(ref.name === 'back-office-secrets' && secretKeys.includes(ref.key), `${cn}: env ${e.name} refers to unknown secret key ${ref.name}/${ref.key}`);
    }
  }
}

// 5. Application components: one image, their own entry point, two replicas, config that loads.
for (const [component, schema] of Object.entries(COMPONENTS)) {
  const dep = ofKind('Deployment').find((d) => d.metadata.name === component);
  check(dep, `no Deployment for ${component}`);
  if (!dep) continue;
  const c = dep.spec.template.spec.containers[0];
  check(dep.spec.replicas === 2, `${component}: 2 replicas`);
  check(c.image === 'back-office:1.1.0', `${component}: image back-office:1.1.0`);
  check(JSON.stringify(c.command) === JSON.stringify(['node', `services/${component}/src/main.ts`]), `${component}: command node services/${component}/src/main.ts`);
  check(existsSync(new URL(`services/${component}/src/main.ts`, REPO)), `${component}: services/${component}/src/main.ts exists`);
  check((c.envFrom ?? []).some((e: Doc) => e.configMapRef?.name === 'back-office-config'), `${component}: env from back-office-config`);
  const fromSecret = (c.env ?? []).filter((e: Doc) => e.valueFrom?.secretKeyRef).map((e: Doc) => e.name as string);
  for (const k of SECRET_KEYS) {
    if (k in schema.properties) check(fromSecret.includes(k), `${component} reads ${k} but does not get it from the Secret (it would run on a development default)`);
    else check(!fromSecret.includes(k), `${component} gets ${k} it does not need`);
  }
  // The component's own schema accepts the ConfigMap plus the Secret's keys (placeholders are well-formed).
  const env: Record<string, string> = { ...configData };
  for (const k of fromSecret) env[k] = secret?.stringData?.[k];
  try { loadConfig(schema, env); passed++; } catch (err) { failures.push(`${component}: ${(err as Error).message}`); }
  check(ofKind('PodDisruptionBudget').some((p) => p.spec?.selector?.matchLabels?.['app.kubernetes.io/name'] === component), `${component}: PodDisruptionBudget`);
}

// 6. Gateway specifics: probes, the public and admin Services.
const gw = ofKind('Deployment').find((d) => d.metadata.name === 'gateway')?.spec.template.spec.containers[0];
check(gw?.readinessProbe?.httpGet?.path === '/readyz', 'gateway readiness probe /readyz');
check(gw?.livenessProbe?.httpGet?.path === '/healthz', 'gateway liveness probe /healthz');
check(configData.HOST === '0.0.0.0' && configData.ADMIN_HOST === '0.0.0.0', 'gateway listens on all interfaces in the pod');
const svc = (port: number) => ofKind('Service').find((s) => s.spec?.selector?.['app.kubernetes.io/name'] === 'gateway' && s.spec.ports?.some((p: Doc) => p.port === port));
check(svc(3000), 'a Service for the gateway public port 3000');
check(svc(3001)?.spec?.type === 'ClusterIP' && svc(3001) !== svc(3000), 'a separate ClusterIP Service for the admin port 3001');

// 7. NATS: JetStream on a volume, fsync on every write, a server ≥ 2.10.
const nats = ofKind('StatefulSet').find((s) => s.metadata.name === 'nats');
const natsConf: string = ofKind('ConfigMap').find((c) => c.metadata.name === 'nats-config')?.data?.['nats.conf'] ?? '';
check(/jetstream\s*\{[^}]*sync_interval:\s*always/s.test(natsConf), 'nats.conf: jetstream { sync_interval: always }');
check(/store_dir:\s*\/data/.test(natsConf), 'nats.conf: store_dir on the data volume');
check(nats?.spec?.volumeClaimTemplates?.some((v: Doc) => v.metadata.name === 'data'), 'nats: data PVC');
const natsImage: string = nats?.spec?.template?.spec?.containers?.[0]?.image ?? '';
const m = /^nats:(\d+)\.(\d+)/.exec(natsImage);
check(m && (Number(m[1]) > 2 || (Number(m[1]) === 2 && Number(m[2]) >= 10)), `nats image ${natsImage} must be 2.10 or newer (sync_interval)`);

if (failures.length > 0) {
  console.error(failures.map((f) => `not ok - ${f}`).join('\n'));
  console.error(`${passed} passed, ${failures.length} failed`);
  process.exit(1);
}
console.log(`${files.length} files, ${all.length} documents: ${passed} passed, 0 failed`);
