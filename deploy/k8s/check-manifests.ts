// Offline checks of the manifests (no cluster needed): every file parses, kustomization lists
// them, the pods keep the security and drain settings, each component's command exists, every
// secret its config schema reads comes from the Secret, production mode is on everywhere, the
// probes, autoscalers and NetworkPolicies are in place, the image is built for production, holds
// every workspace a service runs and is tagged with the API version; the monitoring folder scrapes every
// process and NATS, and the ingress example matches TRUST_PROXY. `npm run check:manifests` (part of `npm test`); a directory
// argument checks a copy of deploy/k8s instead (the test does). Exit 1 on any failure.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { API_VERSION, eventsStreamName, eventsWildcard, internalEventsWildcard } from '@bo/contracts';
import { loadConfig, productionRefusal, providerSecretsOf, secretSettingsOf } from '@bo/service-kit';
import { GatewayConfigSchema } from '../../services/gateway/src/config.ts';
import { PlayersConfigSchema } from '../../services/players/src/config.ts';
import { WalletConfigSchema } from '../../services/wallet/src/config.ts';
import { PaymentsConfigSchema } from '../../services/payments/src/config.ts';
import { WebhooksConfigSchema } from '../../services/webhooks/src/config.ts';
import { OperatorsConfigSchema } from '../../services/operators/src/config.ts';
import { ComplianceConfigSchema } from '../../services/compliance/src/config.ts';
import { allowsEgress, allowsIngress, type Flow, type Labels, type NetworkPolicy, type Peer } from './network-policy-flows.ts';
import {
  AUTH_BEGIN,
  MIRROR_USER,
  RESTORE_USER,
  NATS_COMPONENTS,
  mirrorDeliverPrefix,
  mirroredStreams,
  natsPasswordVariable,
  withGeneratedAuthorization,
  type NatsComponent,
} from './nats-identities.ts';

type Doc = Record<string, any>;
const REPO = path.resolve(import.meta.dirname, '../..');
const DIR = path.resolve(process.argv[2] ?? import.meta.dirname);
const SECRET_TEMPLATE = 'secret.template.yaml';
/** The providers' credentials (the real adapters'), in a Secret of their own the pods refer to as optional. */
const PROVIDER_TEMPLATE = 'provider-secrets.template.yaml';
const PROVIDER_SECRET_NAME = 'back-office-provider-secrets';
/** Each component's NATS password (nats-identities.ts), in a Secret of its own that the NATS servers read whole. */
const NATS_TEMPLATE = 'nats-credentials.template.yaml';
const NATS_SECRET_NAME = 'back-office-nats-credentials';
/** cert-manager's Secret of the NATS servers' certificate (nats-tls.yaml); the components mount its ca.crt alone. */
const NATS_TLS_SECRET = 'nats-server-tls';
/** Examples applied by hand (the Postgres operator's Cluster), never by kustomize. */
const POSTGRES_EXAMPLE = 'postgres-cluster.example.yaml';
/** How the public API enters (TLS at an ingress controller), applied by hand. */
const INGRESS_EXAMPLE = 'ingress.example.yaml';
/** The second site (issue #67): its replica Cluster, applied there by hand, and its kustomize overlays
 * (deploy/second-site: standby and active), which hold its NATS side and the mirrors. */
const REPLICA_EXAMPLE = 'postgres-replica-cluster.example.yaml';
const SECOND_SITE = path.resolve(DIR, '../second-site');
const NATS_SECOND_SITE = 'deploy/second-site/active';
/** The scheduled restore test: a Role in the database's namespace, applied by hand. */
const RESTORE_TEST_EXAMPLE = 'restore-test.example.yaml';
const RESTORE_TEST_SCRIPT = 'restore-test.ts';
const BARMAN_PLUGIN = 'barman-cloud.cloudnative-pg.io';
/** Applied by hand, never by kustomize. */
const BY_HAND = [SECRET_TEMPLATE, PROVIDER_TEMPLATE, NATS_TEMPLATE, POSTGRES_EXAMPLE, INGRESS_EXAMPLE, REPLICA_EXAMPLE, RESTORE_TEST_EXAMPLE];
/** Examples whose objects are not the primary site's back-office namespace's (their own checks below). */
const OTHER_PLACES = [POSTGRES_EXAMPLE, INGRESS_EXAMPLE, REPLICA_EXAMPLE, RESTORE_TEST_EXAMPLE];
/** The Prometheus Operator's resources and the dashboards: a kustomization of its own. */
const MONITORING = 'monitoring';
/** Files of the monitoring folder that are no Kubernetes resource: the alerts' plain rules and their promtool tests. */
const notResource = (file: string) => /\.rules(\.test)?\.yaml$/.test(file);
const NATS_NODES = 3;
const SECRET_NAME = 'back-office-secrets';
const CONFIG_NAME = 'back-office-config';
const IMAGE = `back-office:${API_VERSION}`;
/** A component's config schema (the gateway's has no DATABASE_URL: the edge keeps no data). */
type ComponentSchema = Parameters<typeof secretSettingsOf>[0];
const COMPONENTS: Record<string, ComponentSchema> = {
  gateway: GatewayConfigSchema,
  players: PlayersConfigSchema,
  wallet: WalletConfigSchema,
  payments: PaymentsConfigSchema,
  webhooks: WebhooksConfigSchema,
  operators: OperatorsConfigSchema,
  compliance: ComplianceConfigSchema,
};
// What each component's config schema declares secret (service-kit production-secrets.ts): they
// must come from the Secret, and production refuses their development defaults.
const secretsOf = (schema: ComponentSchema) => secretSettingsOf(schema).map((s) => s.name);
const SECRET_KEYS = [...new Set(Object.values(COMPONENTS).flatMap(secretsOf))].sort();
// The providers' credentials each schema declares (`providerSecret`): absent while a simulator answers.
const PROVIDER_KEYS = [...new Set(Object.values(COMPONENTS).flatMap(providerSecretsOf))].sort();
/**
 * The egress NetworkPolicy of each real adapter's provider: its service alone reaches it, on 443.
 * Its address is the policy's own (a documentation-range placeholder until a provider is contracted).
 */
const PROVIDER_EGRESS: Record<string, { policy: string; key: string }> = {
  players: { policy: 'players-spa-egress', key: 'SPA_TOKEN' },
  payments: { policy: 'payments-psp-egress', key: 'PSP_TOKEN' },
  compliance: { policy: 'compliance-screening-egress', key: 'SCREENING_API_KEY' },
};
// Read by Node, libraries and the kit's production rule rather than by a config schema.
const RUNTIME_KEYS = ['NODE_ENV'];

const failures: string[] = [];
let passed = 0;
function check(ok: unknown, what: string): void {
  if (ok) passed++;
  else failures.push(what);
}
const read = (file: string) => readFileSync(path.join(DIR, file), 'utf8');
/** A file of the second site's overlays, parsed (none when absent). */
const secondSite = (rel: string): Doc[] => {
  const f = path.join(SECOND_SITE, rel);
  if (!existsSync(f)) return [];
  const list = parseAllDocuments(readFileSync(f, 'utf8'));
  for (const d of list) check(d.errors.length === 0 && d.warnings.length === 0, `deploy/second-site/${rel}: ${[...d.errors, ...d.warnings].map((e) => e.message).join('; ')}`);
  return list.map((d) => d.toJS() as Doc).filter(Boolean);
};

// 1. Every YAML file parses without errors or warnings.
const files = readdirSync(DIR)
  .filter((f) => f.endsWith('.yaml'))
  .sort();
const docsByFile = new Map<string, Doc[]>();
for (const file of files) {
  const list = parseAllDocuments(read(file));
  for (const d of Array.isArray(list) ? list : [list]) {
    check(d.errors.length === 0, `${file}: ${d.errors.map((e) => e.message).join('; ')}`);
    check(d.warnings.length === 0, `${file}: ${d.warnings.map((e) => e.message).join('; ')}`);
  }
  docsByFile.set(file, (Array.isArray(list) ? list : [list]).map((d) => d.toJS() as Doc).filter(Boolean));
}

// 2. kustomization.yaml lists every manifest but the Secret templates, and only existing files
// (what `kubectl kustomize` would render: it is not installed here, so the files are read directly).
const kustomization = docsByFile.get('kustomization.yaml')?.[0] ?? {};
const resources: string[] = kustomization.resources ?? [];
for (const r of resources) check(existsSync(path.join(DIR, r)), `kustomization lists missing file ${r}`);
for (const f of files) {
  if (f === 'kustomization.yaml') continue;
  if (BY_HAND.includes(f)) check(!resources.includes(f), `${f} must not be applied by kustomize`);
  else check(resources.includes(f), `kustomization.yaml does not list ${f}`);
}

// 2b. The monitoring folder: its kustomization lists each of its resources and every dashboard.
const monitoringDir = path.join(DIR, MONITORING);
const monitoringFiles = existsSync(monitoringDir)
  ? readdirSync(monitoringDir)
      .filter((f) => f.endsWith('.yaml') && !notResource(f))
      .sort()
  : [];
check(monitoringFiles.length > 0, `${MONITORING}/: the monitoring resources (PodMonitors, the NATS exporter, the PrometheusRule)`);
const monitoringDocs = new Map<string, Doc[]>();
for (const file of monitoringFiles) {
  const list = parseAllDocuments(readFileSync(path.join(monitoringDir, file), 'utf8'));
  for (const d of list) check(d.errors.length === 0 && d.warnings.length === 0, `${MONITORING}/${file}: ${[...d.errors, ...d.warnings].map((e) => e.message).join('; ')}`);
  monitoringDocs.set(
    file,
    list.map((d) => d.toJS() as Doc).filter(Boolean),
  );
}
const monitoringKustomization = monitoringDocs.get('kustomization.yaml')?.[0] ?? {};
const monitoringResources: string[] = monitoringKustomization.resources ?? [];
for (const f of monitoringFiles) if (f !== 'kustomization.yaml') check(monitoringResources.includes(f), `${MONITORING}/kustomization.yaml does not list ${f}`);
for (const r of monitoringResources) check(existsSync(path.join(monitoringDir, r)), `${MONITORING}/kustomization.yaml lists missing file ${r}`);
const dashboardGenerator = (monitoringKustomization.configMapGenerator ?? []).find((g: Doc) => g.options?.labels?.grafana_dashboard === '1');
const dashboardFiles = existsSync(path.join(monitoringDir, 'dashboards')) ? readdirSync(path.join(monitoringDir, 'dashboards')).filter((f) => f.endsWith('.json')) : [];
check(dashboardFiles.length > 0, `${MONITORING}/dashboards: the Grafana dashboards`);
for (const f of dashboardFiles)
  check(dashboardGenerator?.files?.includes(`dashboards/${f}`), `${MONITORING}/kustomization.yaml: dashboards/${f} in the ConfigMap labelled grafana_dashboard`);

const all = [...docsByFile.entries()]
  .filter(([f]) => f !== 'kustomization.yaml' && !OTHER_PLACES.includes(f))
  .flatMap(([file, ds]) => ds.map((d) => ({ file, d })))
  .concat(
    [...monitoringDocs.entries()]
      .filter(([f]) => f !== 'kustomization.yaml')
      .flatMap(([file, ds]) => ds.map((d) => ({ file: `${MONITORING}/${file}`, d }))),
  );
const ofKind = (kind: string) => all.filter(({ d }) => d.kind === kind).map(({ d }) => d);
for (const { file, d } of all) check(d.apiVersion && d.kind && d.metadata?.name, `${file}: a document lacks apiVersion, kind or metadata.name`);

// 3. Secret template and ConfigMap; production mode.
const secret = ofKind('Secret').find((s) => s.metadata.name === SECRET_NAME);
check(secret, `no ${SECRET_NAME} Secret template`);
const secretData: Record<string, string> = secret?.stringData ?? {};
const secretKeys = Object.keys(secretData);
for (const k of SECRET_KEYS) check(secretKeys.includes(k), `Secret template lacks ${k}, which a config schema reads as a secret`);
for (const k of secretKeys) check(SECRET_KEYS.includes(k), `Secret template key ${k} is no component's secret`);
for (const [k, v] of Object.entries(secretData)) check(/REPLACE-ME/.test(v), `Secret template value ${k} is not a placeholder`);
const providerSecret = ofKind('Secret').find((s) => s.metadata.name === PROVIDER_SECRET_NAME);
check(providerSecret, `no ${PROVIDER_SECRET_NAME} Secret template (${PROVIDER_TEMPLATE})`);
const providerData: Record<string, string> = providerSecret?.stringData ?? {};
const providerKeys = Object.keys(providerData);
for (const k of PROVIDER_KEYS) check(providerKeys.includes(k), `provider Secret template lacks ${k}, which a config schema reads as a provider's credential`);
for (const k of providerKeys) check(PROVIDER_KEYS.includes(k), `provider Secret template key ${k} is no component's provider credential`);
for (const [k, v] of Object.entries(providerData)) check(/REPLACE-ME/.test(v), `provider Secret template value ${k} is not a placeholder`);
const natsSecret = ofKind('Secret').find((s) => s.metadata.name === NATS_SECRET_NAME);
check(natsSecret, `no ${NATS_SECRET_NAME} Secret template (${NATS_TEMPLATE})`);
const natsData: Record<string, string> = natsSecret?.stringData ?? {};
// Each component's password, the `mirror` user's (the other site's NATS over the leafnode) and the
// `restore` user's (a restore to a point in time makes JetStream forget with it).
const NATS_KEYS = [...NATS_COMPONENTS, MIRROR_USER, RESTORE_USER].map(natsPasswordVariable);
for (const k of NATS_KEYS) check(Object.keys(natsData).includes(k), `NATS credentials template lacks ${k}`);
for (const k of Object.keys(natsData)) check(NATS_KEYS.includes(k), `NATS credentials template key ${k} is no component's NATS password`);
for (const [k, v] of Object.entries(natsData)) check(/REPLACE-?ME/.test(v), `NATS credentials template value ${k} is not a placeholder`);
const configMap = ofKind('ConfigMap').find((c) => c.metadata.name === CONFIG_NAME);
check(configMap, `no ${CONFIG_NAME} ConfigMap`);
const configData: Record<string, string> = configMap?.data ?? {};
for (const [k, v] of Object.entries(configData)) check(typeof v === 'string', `ConfigMap value ${k} must be a string (quote it)`);
for (const k of Object.keys(configData)) {
  check(!SECRET_KEYS.includes(k) && !PROVIDER_KEYS.includes(k), `ConfigMap holds secret key ${k}`);
  check(RUNTIME_KEYS.includes(k) || Object.values(COMPONENTS).some((s) => k in s.properties), `ConfigMap key ${k} is read by no component`);
}
check(configData.NODE_ENV === 'production', 'ConfigMap sets NODE_ENV=production (production mode refuses development secrets)');

// 4. Workloads: security, resources, drain.
const workloads = [...ofKind('Deployment'), ...ofKind('StatefulSet')];
// The batch pods of every file (the examples' too: the restore test, the monthly archival mark, the
// mirrors' Job) keep the same pod and container security settings and resources.
const everyDoc = [...docsByFile.entries()]
  .flatMap(([file, ds]) => ds.map((d) => ({ file, d })))
  .concat(secondSite('active/nats-mirrors.yaml').map((d) => ({ file: 'deploy/second-site/active/nats-mirrors.yaml', d })));
for (const { file, d } of everyDoc.filter(({ d }) => d.kind === 'Job' || d.kind === 'CronJob')) {
  const name = `${file}: ${d.kind} ${d.metadata?.name}`;
  const pod = (d.kind === 'CronJob' ? d.spec?.jobTemplate?.spec?.template?.spec : d.spec?.template?.spec) ?? {};
  check(pod.securityContext?.runAsNonRoot === true, `${name}: pod must run as non-root`);
  check(pod.securityContext?.seccompProfile?.type === 'RuntimeDefault', `${name}: seccomp RuntimeDefault`);
  for (const c of pod.containers ?? []) {
    check(c.securityContext?.readOnlyRootFilesystem === true, `${name}/${c.name}: read-only root filesystem`);
    check(c.securityContext?.allowPrivilegeEscalation === false, `${name}/${c.name}: no privilege escalation`);
    check((c.securityContext?.capabilities?.drop ?? []).includes('ALL'), `${name}/${c.name}: drop all capabilities`);
    check(c.resources?.requests?.cpu && c.resources?.requests?.memory && c.resources?.limits?.memory, `${name}/${c.name}: cpu/memory requests and a memory limit`);
  }
}
for (const w of workloads) {
  const name = `${w.kind} ${w.metadata.name}`;
  const pod = w.spec?.template?.spec ?? {};
  check(pod.securityContext?.runAsNonRoot === true, `${name}: pod must run as non-root`);
  check(pod.securityContext?.seccompProfile?.type === 'RuntimeDefault', `${name}: seccomp RuntimeDefault`);
  check(
    typeof pod.terminationGracePeriodSeconds === 'number' && pod.terminationGracePeriodSeconds >= 20,
    `${name}: terminationGracePeriodSeconds ≥ 20 for a graceful drain`,
  );
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
      if (ref)
        check(
          (ref.name === SECRET_NAME && secretKeys.includes(ref.key)) ||
            (ref.name === PROVIDER_SECRET_NAME && providerKeys.includes(ref.key)) ||
            (ref.name === NATS_SECRET_NAME && NATS_KEYS.includes(ref.key)),
          `${cn}: env ${e.name} refers to unknown secret key ${ref.name}/${ref.key}`,
        );
    }
  }
}

// 5. Application components: one image, their own entry point, secrets from the Secret, production
// mode, probes on the metrics port, an autoscaler and a disruption budget.
const metricsPort = Number(configData.METRICS_PORT);
check(metricsPort > 0 && configData.METRICS_HOST === '0.0.0.0', 'ConfigMap: METRICS_PORT set and METRICS_HOST 0.0.0.0 (the probes are served there)');
for (const [component, schema] of Object.entries(COMPONENTS)) {
  const dep = ofKind('Deployment').find((d) => d.metadata.name === component);
  check(dep, `no Deployment for ${component}`);
  if (!dep) continue;
  const c = dep.spec.template.spec.containers[0];
  check(c.image === IMAGE, `${component}: image ${IMAGE} (the API version)`);
  check(
    JSON.stringify(c.command) === JSON.stringify(['node', `services/${component}/src/main.ts`]),
    `${component}: command node services/${component}/src/main.ts`,
  );
  check(existsSync(path.join(REPO, `services/${component}/src/main.ts`)), `${component}: services/${component}/src/main.ts exists`);
  check(
    (c.envFrom ?? []).some((e: Doc) => e.configMapRef?.name === CONFIG_NAME),
    `${component}: env from ${CONFIG_NAME}`,
  );
  check(!(c.env ?? []).some((e: Doc) => e.name === 'NODE_ENV'), `${component}: NODE_ENV comes from the ConfigMap, never overridden`);

  // Secrets: every one the schema reads comes from the Secret, by key or with the whole Secret.
  const byKey: string[] = (c.env ?? []).filter((e: Doc) => e.valueFrom?.secretKeyRef?.name === SECRET_NAME).map((e: Doc) => e.name as string);
  const wholeSecret = (c.envFrom ?? []).some((e: Doc) => e.secretRef?.name === SECRET_NAME);
  const wired = wholeSecret ? secretKeys : byKey;
  const reads = secretsOf(schema);
  for (const k of reads) check(wired.includes(k), `${component} reads ${k} but does not get it from the Secret (production refuses to start without it)`);
  for (const k of byKey) check(reads.includes(k), `${component} gets ${k} it does not read`);
  // Its own NATS identity: NATS_USER its name, NATS_PASSWORD its key of the NATS credentials
  // (required: the servers take no one else), and the servers' CA mounted where NATS_TLS_CA_FILE says.
  const natsUser = (c.env ?? []).find((e: Doc) => e.name === 'NATS_USER');
  check(natsUser?.value === component, `${component}: NATS_USER ${component} (its NATS identity)`);
  const natsRef = (c.env ?? []).find((e: Doc) => e.name === 'NATS_PASSWORD')?.valueFrom?.secretKeyRef;
  check(
    natsRef?.name === NATS_SECRET_NAME && natsRef.key === natsPasswordVariable(component as NatsComponent) && natsRef.optional !== true,
    `${component}: NATS_PASSWORD from ${NATS_SECRET_NAME}/${natsPasswordVariable(component as NatsComponent)} (its NATS credentials)`,
  );
  const podSpec = dep.spec.template.spec;
  const caVolume = (podSpec.volumes ?? []).find((v: Doc) => v.secret?.secretName === NATS_TLS_SECRET);
  check(
    caVolume && JSON.stringify((caVolume.secret.items ?? []).map((i: Doc) => i.key)) === '["ca.crt"]',
    `${component}: a volume with the ca.crt of ${NATS_TLS_SECRET} alone (never the servers' key)`,
  );
  const caMount = (c.volumeMounts ?? []).find((m: Doc) => m.name === caVolume?.name);
  const caFile = configData.NATS_TLS_CA_FILE ?? '';
  check(
    caMount && caFile === `${caMount.mountPath}/${caVolume?.secret?.items?.[0]?.path}`,
    `${component}: the NATS CA mounted at NATS_TLS_CA_FILE (${caFile || 'unset'}) for TLS to NATS`,
  );
  const env: Record<string, string | undefined> = { ...configData };
  for (const k of wired) env[k] = secretData[k];
  env.NATS_USER = natsUser?.value;
  env.NATS_PASSWORD = natsData[natsPasswordVariable(component as NatsComponent)];
  // The schema accepts the ConfigMap plus the Secret's keys (placeholders are well-formed) ...
  try {
    loadConfig(schema, env);
    passed++;
  } catch (err) {
    failures.push(`${component}: ${(err as Error).message}`);
  }
  // ... and production refuses the placeholders themselves, and nothing once real values are in.
  check(productionRefusal(schema, env)?.includes('NATS_PASSWORD'), `${component}: production must refuse the NATS credentials template's placeholder`);
  check(
    reads.every((k) => productionRefusal(schema, env)?.includes(k)),
    `${component}: production must refuse every placeholder of the Secret template (${productionRefusal(schema, env) ?? 'nothing refused'})`,
  );
  const real = {
    ...Object.fromEntries(
      wired.map((k) => [k, k === 'DATABASE_URL' ? 'postgres://u:a-real-password@db.internal:5432/backoffice' : `a-real-${k}-of-enough-length-0000`]),
    ),
    NATS_PASSWORD: 'pARealNatsPasswordOfEnoughLength0000',
  };
  check(
    productionRefusal(schema, { ...env, ...real }) === undefined,
    `${component}: with real secrets the ConfigMap passes production mode (${productionRefusal(schema, { ...env, ...real })})`,
  );
  // Providers' credentials: from the provider Secret by key, optional (the pod starts while a
  // simulator answers and that Secret is absent); production refuses the template's placeholder.
  for (const k of providerSecretsOf(schema)) {
    const ref = (c.env ?? []).find((e: Doc) => e.name === k)?.valueFrom?.secretKeyRef;
    check(ref?.name === PROVIDER_SECRET_NAME && ref.key === k, `${component} reads ${k} but does not get it from the ${PROVIDER_SECRET_NAME} Secret`);
    check(ref?.optional === true, `${component}: ${k} must be optional (absent while the simulator answers)`);
    check(
      productionRefusal(schema, { ...env, ...real, [k]: providerData[k] })?.includes(k),
      `${component}: production must refuse the provider Secret template's placeholder of ${k}`,
    );
  }

  // Probes on the internal metrics port (service-kit metrics.ts).
  const port = (c.ports ?? []).find((p: Doc) => p.name === 'metrics');
  check(port?.containerPort === metricsPort, `${component}: container port "metrics" is METRICS_PORT ${metricsPort}`);
  const onMetrics = (probe: Doc | undefined, p: string) =>
    probe?.httpGet?.path === p && (probe.httpGet.port === 'metrics' || probe.httpGet.port === metricsPort);
  check(onMetrics(c.livenessProbe, '/livez'), `${component}: liveness probe GET /livez on the metrics port`);
  check(onMetrics(c.readinessProbe, '/readyz'), `${component}: readiness probe GET /readyz on the metrics port`);
  check(onMetrics(c.startupProbe, '/livez'), `${component}: startup probe GET /livez on the metrics port (migrations run first)`);

  // Autoscaling: the HPA owns the replica count.
  const hpa = ofKind('HorizontalPodAutoscaler').find((h) => h.spec?.scaleTargetRef?.kind === 'Deployment' && h.spec.scaleTargetRef.name === component);
  check(hpa?.apiVersion === 'autoscaling/v2', `${component}: a HorizontalPodAutoscaler (autoscaling/v2)`);
  check(hpa?.spec?.minReplicas >= 2 && hpa?.spec?.maxReplicas >= hpa?.spec?.minReplicas, `${component}: HPA keeps at least 2 replicas`);
  check(
    (hpa?.spec?.metrics ?? []).some((m: Doc) => m.type === 'Resource' && m.resource?.name === 'cpu' && m.resource?.target?.type === 'Utilization'),
    `${component}: HPA on CPU utilization`,
  );
  check(c.resources?.requests?.cpu, `${component}: a CPU request (the HPA's utilization is relative to it)`);
  check(dep.spec.replicas === undefined, `${component}: no spec.replicas (an apply would reset what the HPA set)`);
  check(
    ofKind('PodDisruptionBudget').some((p) => p.spec?.selector?.matchLabels?.['app.kubernetes.io/name'] === component),
    `${component}: PodDisruptionBudget`,
  );
}

// 6. Gateway specifics: the public and admin Services.
check(configData.HOST === '0.0.0.0' && configData.ADMIN_HOST === '0.0.0.0', 'gateway listens on all interfaces in the pod');
const svc = (port: number) =>
  ofKind('Service').find((s) => s.spec?.selector?.['app.kubernetes.io/name'] === 'gateway' && s.spec.ports?.some((p: Doc) => p.port === port));
check(svc(3000), 'a Service for the gateway public port 3000');
check(svc(3001)?.spec?.type === 'ClusterIP' && svc(3001) !== svc(3000), 'a separate ClusterIP Service for the admin port 3001');

// 7. NATS: JetStream on a volume, fsync on every write, a server ≥ 2.10.
const nats = ofKind('StatefulSet').find((s) => s.metadata.name === 'nats');
const natsConf: string = ofKind('ConfigMap').find((c) => c.metadata.name === 'nats-config')?.data?.['nats.conf'] ?? '';
check(/jetstream\s*\{[^}]*sync_interval:\s*always/s.test(natsConf), 'nats.conf: jetstream { sync_interval: always }');
check(/store_dir:\s*\/data/.test(natsConf), 'nats.conf: store_dir on the data volume');
check(
  nats?.spec?.volumeClaimTemplates?.some((v: Doc) => v.metadata.name === 'data'),
  'nats: data PVC',
);
const natsImage: string = nats?.spec?.template?.spec?.containers?.[0]?.image ?? '';
const m = /^nats:(\d+)\.(\d+)/.exec(natsImage);
check(m && (Number(m[1]) > 2 || (Number(m[1]) === 2 && Number(m[2]) >= 10)), `nats image ${natsImage} must be 2.10 or newer (sync_interval)`);
// Only known identities speak: the authorization block is the one nats-identities.ts renders (a
// user per component, its permissions), each password from the NATS credentials Secret; clients and
// routes over TLS with cert-manager's certificate.
const natsYaml = read('nats.yaml');
const natsPrefix = configData.NATS_PREFIX ?? '';
let generated = '';
try {
  generated = withGeneratedAuthorization(natsYaml, natsPrefix);
} catch (err) {
  failures.push(`nats.yaml: ${(err as Error).message}`);
}
check(generated === natsYaml, 'nats.conf: the authorization block is what nats-identities.ts renders (run node deploy/k8s/nats-identities.ts --write)');
check(natsConf.includes(AUTH_BEGIN) && /^\s*authorization\s*\{/m.test(natsConf), 'nats.conf: an authorization block');
for (const c of NATS_COMPONENTS) {
  check(new RegExp(`user: ${c}\\n\\s*password: \\$${natsPasswordVariable(c)}\\n`).test(natsConf), `nats.conf: a user ${c} with its password from $${natsPasswordVariable(c)}`);
}
const natsContainer = nats?.spec?.template?.spec?.containers?.[0] ?? {};
check(
  (natsContainer.envFrom ?? []).some((e: Doc) => e.secretRef?.name === NATS_SECRET_NAME && e.secretRef.optional !== true),
  `nats: every component's password from ${NATS_SECRET_NAME} (envFrom)`,
);
const tlsBlock = (conf: string) => /tls\s*\{([^}]*)\}/.exec(conf)?.[1] ?? '';
const natsTlsVolume = (nats?.spec?.template?.spec?.volumes ?? []).find((v: Doc) => v.secret?.secretName === NATS_TLS_SECRET);
const natsTlsDir = (natsContainer.volumeMounts ?? []).find((m: Doc) => m.name === natsTlsVolume?.name)?.mountPath;
check(natsTlsDir, `nats: ${NATS_TLS_SECRET} mounted`);
const clientTls = tlsBlock(natsConf.slice(0, natsConf.search(/^\s*cluster\s*\{/m)));
const routeTls = tlsBlock(/^\s*cluster\s*\{([\s\S]*?)\n\s{4}\}/m.exec(natsConf)?.[1] ?? '');
for (const [what, block] of [
  ['client', clientTls],
  ['route', routeTls],
] as const) {
  for (const [key, file] of [
    ['cert_file', 'tls.crt'],
    ['key_file', 'tls.key'],
    ['ca_file', 'ca.crt'],
  ])
    check(new RegExp(`${key}:\\s*${natsTlsDir}/${file}`).test(block), `nats.conf: ${what} TLS ${key} ${natsTlsDir}/${file}`);
}
check(/verify:\s*true/.test(routeTls), 'nats.conf: routes verify each other (cluster tls verify: true)');
const serverCert = ofKind('Certificate').find((c) => c.spec?.secretName === NATS_TLS_SECRET);
check(serverCert?.apiVersion === 'cert-manager.io/v1', `a cert-manager Certificate making ${NATS_TLS_SECRET}`);
for (const name of ['nats', `*.${nats?.spec?.serviceName}`])
  check((serverCert?.spec?.dnsNames ?? []).includes(name), `the NATS certificate names ${name} (the clients' and routes' addresses)`);
check(
  ['server auth', 'client auth'].every((u) => (serverCert?.spec?.usages ?? []).includes(u)),
  'the NATS certificate serves clients and routes (server auth, client auth)',
);
check(
  ofKind('Issuer').some((i) => i.metadata.name === serverCert?.spec?.issuerRef?.name),
  "the NATS certificate's issuer is in the manifests",
);
// A cluster of three that survives losing a node: routes between every pod, one pod per
// Kubernetes node, two kept through disruptions, R3 streams and buckets, every node given to clients.
check(nats?.spec?.replicas === NATS_NODES, `nats: a StatefulSet of ${NATS_NODES}`);
const natsPods = Array.from({ length: NATS_NODES }, (_, i) => `nats-${i}.${nats?.spec?.serviceName}`);
const clusterBlock = /^\s*cluster\s*\{([^}]*)\}/m.exec(natsConf)?.[1] ?? '';
check(/listen:\s*0\.0\.0\.0:6222/.test(clusterBlock), 'nats.conf: cluster { listen: 0.0.0.0:6222 }');
for (const pod of natsPods) check(clusterBlock.includes(`nats://${pod}:6222`), `nats.conf: a route to ${pod}:6222`);
const natsPod = nats?.spec?.template?.spec ?? {};
check(
  natsPod.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.some(
    (t: Doc) => t.topologyKey === 'kubernetes.io/hostname' && t.labelSelector?.matchLabels?.['app.kubernetes.io/name'] === 'nats',
  ),
  'nats: required pod anti-affinity per Kubernetes node',
);
check(
  natsPod.containers?.[0]?.ports?.some((p: Doc) => p.containerPort === 6222) &&
    ofKind('Service')
      .find((s) => s.metadata.name === nats?.spec?.serviceName)
      ?.spec?.ports?.some((p: Doc) => p.port === 6222),
  'nats: the cluster port 6222 on the pods and the headless Service',
);
const natsPdb = ofKind('PodDisruptionBudget').find((p) => p.spec?.selector?.matchLabels?.['app.kubernetes.io/name'] === 'nats');
check(natsPdb?.spec?.minAvailable === Math.floor(NATS_NODES / 2) + 1, `nats: a PodDisruptionBudget that keeps ${Math.floor(NATS_NODES / 2) + 1} (a majority)`);
check(configData.NATS_REPLICAS === String(NATS_NODES), `ConfigMap: NATS_REPLICAS "${NATS_NODES}" (R${NATS_NODES} stream and buckets)`);
check(
  (configData.NATS_URL ?? '').split(',').sort().join(',') ===
    natsPods
      .map((p) => `nats://${p}:4222`)
      .sort()
      .join(','),
  'ConfigMap: NATS_URL lists every NATS node',
);
// R3 everywhere: no stream, bucket or consumer is created but with the configured replicas.
for (const file of jetStreamSources()) {
  const text = readFileSync(file, 'utf8');
  const where = path.relative(REPO, file);
  for (const [call] of text.matchAll(/new Kvm\([^)]*\)\.create\([^;]*\)/g)) check(/\breplicas\b/.test(call), `${where}: a KV bucket created without replicas`);
  if (/streams\.add\(/.test(text)) check(/num_replicas:\s*replicas\b/.test(text), `${where}: a stream created without num_replicas: replicas`);
  check(!/num_replicas:\s*1\b|replicas\s*=\s*1\b/.test(text), `${where}: one replica (or a default of one) where NATS_REPLICAS must decide`);
}

// 7b. Postgres: the example Cluster keeps a synchronous standby on another node, and the Secret's
// DATABASE_URL is its `-rw` Service, which follows the primary through a failover.
const pg = docsByFile.get(POSTGRES_EXAMPLE)?.find((d) => d.kind === 'Cluster');
check(pg?.apiVersion === 'postgresql.cnpg.io/v1', `${POSTGRES_EXAMPLE}: a CloudNativePG Cluster`);
check(pg?.spec?.instances >= 2 && pg?.spec?.minSyncReplicas >= 1, `${POSTGRES_EXAMPLE}: a primary and a synchronous standby (minSyncReplicas ≥ 1)`);
check(pg?.spec?.affinity?.podAntiAffinityType === 'required', `${POSTGRES_EXAMPLE}: instances on different nodes`);
const databaseHost = (() => {
  try {
    return new URL(secretData.DATABASE_URL ?? '').host;
  } catch {
    return '';
  }
})();
check(databaseHost === `${pg?.metadata?.name}-rw.${pg?.metadata?.namespace}:5432`, `Secret template: DATABASE_URL at the Cluster's -rw Service (${databaseHost})`);

// 7c. Backups and the second site (issue #67; docs/continuity.md). The primary site's Cluster archives
// every WAL segment and its base backups through the Barman Cloud plugin into an ObjectStore of its
// own, encrypted, with a point-in-time window; a ScheduledBackup takes one a day; a monthly Job marks
// the newest backup of that store archival (kept five years); and the second site's replica Cluster
// follows this one from its archive (and by streaming), archives into a store of its own, and keeps the
// same role Secret, so promoting it changes nothing for the applications.
const docsOf = (file: string, kind: string) => (docsByFile.get(file) ?? []).filter((d) => d.kind === kind);
const secondSiteActive = secondSite('active/kustomization.yaml')[0] ?? {};
const secondSiteStandby = secondSite('standby/kustomization.yaml')[0] ?? {};
const secondSiteMirrors = secondSite('active/nats-mirrors.yaml');
const secondSiteOf = (kind: string) => secondSiteMirrors.filter((d) => d.kind === kind);
check(
  JSON.stringify(secondSiteActive.resources) === JSON.stringify(['../../k8s', 'nats-mirrors.yaml']) &&
    (secondSiteActive.patches ?? []).some((x: Doc) => x.path === 'nats-site.yaml'),
  'deploy/second-site/active: the primary site\'s manifests, its mirrors and its nats-site',
);
check(
  JSON.stringify(secondSiteStandby.resources) === JSON.stringify(['../active']) &&
    (secondSiteStandby.patches ?? []).some((x: Doc) => x.target?.kind === 'HorizontalPodAutoscaler' && /\$patch: delete/.test(x.patch ?? '')) &&
    (secondSiteStandby.patches ?? []).some((x: Doc) => x.target?.kind === 'Deployment' && /path: \/spec\/replicas\s+value: 0/.test(x.patch ?? '')),
  'deploy/second-site/standby: the active site with no autoscaler and no application replica',
);
const archiverOf = (cluster: Doc | undefined) =>
  (cluster?.spec?.plugins ?? []).find((x: Doc) => x.name === BARMAN_PLUGIN && x.isWALArchiver === true)?.parameters ?? {};
const storeNamed = (file: string, name: string | undefined) => docsOf(file, 'ObjectStore').find((o) => o.metadata?.name === name);
const externalNamed = (cluster: Doc | undefined, name: string | undefined) => (cluster?.spec?.externalClusters ?? []).find((e: Doc) => e.name === name);
const checkBackups = (file: string, cluster: Doc | undefined) => {
  const archiver = archiverOf(cluster);
  const store = storeNamed(file, archiver.barmanObjectName);
  check(store?.apiVersion === 'barmancloud.cnpg.io/v1', `${file}: the Cluster archives its WAL through the Barman Cloud plugin into an ObjectStore of the file (${archiver.barmanObjectName})`);
  check(archiver.serverName && archiver.serverName !== cluster?.metadata?.name, `${file}: the archive's serverName names the site (${archiver.serverName}), not the Cluster both sites share`);
  const cfg = store?.spec?.configuration ?? {};
  check(/^s3:\/\//.test(cfg.destinationPath ?? ''), `${file}: ${archiver.barmanObjectName} is a bucket (destinationPath)`);
  check(/^\d+d$/.test(store?.spec?.retentionPolicy ?? ''), `${file}: ${archiver.barmanObjectName} has a point-in-time window (retentionPolicy "30d")`);
  check(cfg.wal?.encryption && cfg.data?.encryption, `${file}: WAL and base backups encrypted at rest (wal.encryption, data.encryption)`);
  check(cfg.wal?.compression, `${file}: WAL compressed`);
  check(cluster?.spec?.postgresql?.parameters?.archive_timeout, `${file}: archive_timeout set (what a restore from the archive alone can lose)`);
  const daily = docsOf(file, 'ScheduledBackup').find((b) => b.spec?.cluster?.name === cluster?.metadata?.name);
  check(
    daily?.spec?.method === 'plugin' && daily.spec.pluginConfiguration?.name === BARMAN_PLUGIN,
    `${file}: a ScheduledBackup of the Cluster through the Barman Cloud plugin`,
  );
  check(String(daily?.spec?.schedule ?? '').trim().split(/\s+/).length === 6, `${file}: the ScheduledBackup's schedule has CloudNativePG's six fields (seconds first)`);
  const keep = docsOf(file, 'CronJob').find((j) => (j.spec?.jobTemplate?.spec?.template?.spec?.containers?.[0]?.command ?? [])[0] === 'barman-cloud-backup-keep');
  const keepArgs: string[] = keep?.spec?.jobTemplate?.spec?.template?.spec?.containers?.[0]?.command ?? [];
  check(keep && String(keep.spec.schedule).trim().split(/\s+/).length === 5, `${file}: a monthly CronJob marks a backup archival (barman-cloud-backup-keep)`);
  check(
    keepArgs.includes('--target=standalone') && keepArgs.includes(cfg.destinationPath) && keepArgs.includes(archiver.serverName),
    `${file}: the monthly mark keeps a standalone backup of the Cluster's own store and server name`,
  );
  return { archiver, cfg };
};
const primarySite = checkBackups(POSTGRES_EXAMPLE, pg);
const replicaPg = docsOf(REPLICA_EXAMPLE, 'Cluster')[0];
check(replicaPg, `${REPLICA_EXAMPLE}: the second site's Cluster`);
const secondSiteBackups = checkBackups(REPLICA_EXAMPLE, replicaPg);
check(
  replicaPg?.metadata?.name === pg?.metadata?.name && replicaPg?.metadata?.namespace === pg?.metadata?.namespace,
  `${REPLICA_EXAMPLE}: the same Cluster name and namespace as the primary's, so DATABASE_URL is the same on both sites`,
);
check(pg?.spec?.replica?.self && pg.spec.replica.primary === pg.spec.replica.self, `${POSTGRES_EXAMPLE}: the primary of the distributed topology (replica.primary is itself)`);
check(
  replicaPg?.spec?.replica?.primary === pg?.spec?.replica?.self && replicaPg?.spec?.replica?.self !== pg?.spec?.replica?.self,
  `${REPLICA_EXAMPLE}: a member of the same topology that follows the primary site (replica.primary ${pg?.spec?.replica?.self})`,
);
check(pg?.spec?.replica?.source === replicaPg?.spec?.replica?.self, `${POSTGRES_EXAMPLE}: once demoted, it follows the second site (replica.source)`);
const followed = externalNamed(replicaPg, replicaPg?.spec?.replica?.source);
const followedStore = storeNamed(REPLICA_EXAMPLE, followed?.plugin?.parameters?.barmanObjectName);
check(
  followedStore?.spec?.configuration?.destinationPath === primarySite.cfg.destinationPath && followed?.plugin?.parameters?.serverName === primarySite.archiver.serverName,
  `${REPLICA_EXAMPLE}: it reads the primary site's archive (its bucket and server name)`,
);
check(followed?.connectionParameters?.host && followed?.sslCert && followed?.sslRootCert, `${REPLICA_EXAMPLE}: and streams from the primary site over TLS with a client certificate`);
check(!followedStore?.spec?.retentionPolicy, `${REPLICA_EXAMPLE}: the primary's archive is read from here, its retention left to the primary site`);
check(replicaPg?.spec?.bootstrap?.recovery?.source === replicaPg?.spec?.replica?.source, `${REPLICA_EXAMPLE}: bootstrapped from the primary site's backups`);
check(
  secondSiteBackups.cfg.destinationPath !== primarySite.cfg.destinationPath && secondSiteBackups.archiver.serverName !== primarySite.archiver.serverName,
  `${REPLICA_EXAMPLE}: archives into its own bucket and server name, never the primary's`,
);
check(
  replicaPg?.spec?.bootstrap?.recovery?.secret?.name === pg?.spec?.bootstrap?.initdb?.secret?.name,
  `${REPLICA_EXAMPLE}: the same role Secret as the primary (${pg?.spec?.bootstrap?.initdb?.secret?.name}): the password is unchanged when promoted`,
);
check(
  replicaPg?.spec?.instances >= 2 && replicaPg?.spec?.minSyncReplicas >= 1 && replicaPg?.spec?.affinity?.podAntiAffinityType === 'required',
  `${REPLICA_EXAMPLE}: once promoted, a primary with a synchronous standby on another node`,
);
// The restore test: the application image runs its script on this site's archive, into a scratch
// Cluster of its own name; its Role cannot touch the live Cluster.
const restoreJob = docsOf(RESTORE_TEST_EXAMPLE, 'CronJob')[0];
const restorePod = restoreJob?.spec?.jobTemplate?.spec?.template?.spec ?? {};
const restoreContainer = restorePod.containers?.[0] ?? {};
const restoreEnv = Object.fromEntries((restoreContainer.env ?? []).map((e: Doc) => [e.name, e.value]));
check(restoreContainer.image === IMAGE, `${RESTORE_TEST_EXAMPLE}: the restore test runs the application image ${IMAGE}`);
check(
  JSON.stringify(restoreContainer.command) === JSON.stringify(['node', `deploy/k8s/${RESTORE_TEST_SCRIPT}`]) && existsSync(path.join(DIR, RESTORE_TEST_SCRIPT)),
  `${RESTORE_TEST_EXAMPLE}: the restore test runs node deploy/k8s/${RESTORE_TEST_SCRIPT}`,
);
check(
  restoreEnv.RESTORE_OBJECT_STORE === primarySite.archiver.barmanObjectName && restoreEnv.RESTORE_SERVER_NAME === primarySite.archiver.serverName,
  `${RESTORE_TEST_EXAMPLE}: it restores this site's archive (${primarySite.archiver.barmanObjectName}, ${primarySite.archiver.serverName})`,
);
check(restoreEnv.RESTORE_NAMESPACE === pg?.metadata?.namespace, `${RESTORE_TEST_EXAMPLE}: its scratch Cluster in the database's namespace (where the ObjectStore is)`);
const scratchName = restoreEnv.RESTORE_SCRATCH_CLUSTER;
check(scratchName && scratchName !== pg?.metadata?.name, `${RESTORE_TEST_EXAMPLE}: the scratch Cluster has a name of its own (${scratchName})`);
check(restoreEnv.RESTORE_IMAGE_NAME === pg?.spec?.imageName, `${RESTORE_TEST_EXAMPLE}: the scratch Cluster runs the live Cluster's Postgres image`);
const restoreRole = docsOf(RESTORE_TEST_EXAMPLE, 'Role')[0];
check(restoreRole?.metadata?.namespace === pg?.metadata?.namespace, `${RESTORE_TEST_EXAMPLE}: its Role is in the database's namespace`);
for (const rule of restoreRole?.rules ?? []) {
  const names: string[] | undefined = rule.resourceNames;
  check(
    names ? names.every((n) => n === scratchName || n.startsWith(`${scratchName}-`)) : JSON.stringify(rule.verbs) === '["create"]',
    `${RESTORE_TEST_EXAMPLE}: the Role reaches the scratch Cluster and its Secrets only (${JSON.stringify(rule)})`,
  );
}
const restoreBinding = docsOf(RESTORE_TEST_EXAMPLE, 'RoleBinding')[0];
check(
  restoreBinding?.roleRef?.name === restoreRole?.metadata?.name &&
    restoreBinding?.subjects?.some((x: Doc) => x.kind === 'ServiceAccount' && x.name === restorePod.serviceAccountName && x.namespace === restoreJob?.metadata?.namespace),
  `${RESTORE_TEST_EXAMPLE}: the Role is bound to the restore test's ServiceAccount`,
);
const dockerfileText = existsSync(path.join(DIR, 'Dockerfile')) ? read('Dockerfile') : '';
check(
  new RegExp(`^COPY deploy/k8s/${RESTORE_TEST_SCRIPT.replace('.', '\\.')} \\./deploy/k8s/$`, 'm').test(dockerfileText) &&
    new RegExp(`^!deploy/k8s/${RESTORE_TEST_SCRIPT.replace('.', '\\.')}$`, 'm').test(existsSync(path.join(DIR, 'Dockerfile.dockerignore')) ? read('Dockerfile.dockerignore') : ''),
  `Dockerfile: the image carries deploy/k8s/${RESTORE_TEST_SCRIPT} (the restore test's CronJob runs it)`,
);

// 8. NetworkPolicies: who may connect to whom.
// The restore test's and the mirrors' Job's policies apply in the same namespace (applied by hand).
const policies = [...ofKind('NetworkPolicy'), ...docsOf(RESTORE_TEST_EXAMPLE, 'NetworkPolicy'), ...secondSiteOf('NetworkPolicy')] as NetworkPolicy[];
const NS: Labels = { 'kubernetes.io/metadata.name': kustomization.namespace ?? 'back-office' };
const podLabels = (name: string): Labels => workloads.find((w) => w.metadata.name === name)?.spec?.template?.metadata?.labels ?? {};
const inCluster = (name: string): Peer => ({ namespace: NS, pod: podLabels(name) });
const outside: Peer = { namespace: { 'kubernetes.io/metadata.name': 'ingress-nginx' }, pod: { 'app.kubernetes.io/name': 'ingress-nginx' } };
const monitoring: Peer = { namespace: { 'kubernetes.io/metadata.name': 'monitoring' }, pod: { 'app.kubernetes.io/name': 'prometheus' } };
const adminTools: Peer = { namespace: { 'kubernetes.io/metadata.name': 'ops', 'back-office/admin-access': 'true' }, pod: { app: 'vpn' } };
const dns: Peer = { namespace: { 'kubernetes.io/metadata.name': 'kube-system' }, pod: { 'k8s-app': 'kube-dns' } };
const postgres: Peer = { ip: '10.20.30.40' };
// CloudNativePG labels each instance with its Cluster and its role (a pooler's pods are `pooler`).
const postgresInCluster: Peer = {
  namespace: { 'kubernetes.io/metadata.name': pg?.metadata?.namespace ?? '' },
  pod: { 'cnpg.io/cluster': pg?.metadata?.name ?? '', 'cnpg.io/podRole': 'instance' },
};
const internet: Peer = { ip: '93.184.216.34' };
const cloudMetadata: Peer = { ip: '169.254.169.254' };
const tcp = (port: number): Flow => ({ port });
/** From a peer to a pod of ours: the peer's egress (when it is ours) and the pod's ingress. */
const reaches = (from: Peer, to: string, flow: Flow, fromName?: string) =>
  (fromName === undefined || allowsEgress(policies, NS, podLabels(fromName), inCluster(to), flow)) && allowsIngress(policies, NS, podLabels(to), from, flow);
const egress = (from: string, to: Peer, flow: Flow) => allowsEgress(policies, NS, podLabels(from), to, flow);

check(
  policies.some(
    (p) =>
      Object.keys(p.spec.podSelector ?? {}).length === 0 &&
      ['Ingress', 'Egress'].every((t) => p.spec.policyTypes?.includes(t)) &&
      !p.spec.ingress &&
      !p.spec.egress,
  ),
  'NetworkPolicy: default deny of ingress and egress for the namespace',
);
check(reaches(outside, 'gateway', tcp(3000)) && allowsIngress(policies, NS, podLabels('gateway'), internet, tcp(3000)), 'gateway 3000 open to anywhere');
check(!reaches(outside, 'gateway', tcp(3001)) && !reaches(inCluster('players'), 'gateway', tcp(3001), 'players'), 'gateway admin port 3001 closed to the rest');
check(reaches(adminTools, 'gateway', tcp(3001)), 'gateway admin port 3001 open to namespaces labelled back-office/admin-access=true');
check(!reaches(outside, 'nats', tcp(4222)), 'nats closed to other namespaces');
check(reaches(inCluster('nats'), 'nats', tcp(6222), 'nats'), 'nats routes 6222 between nats pods (cluster)');
for (const app of Object.keys(COMPONENTS)) {
  check(reaches(monitoring, app, tcp(metricsPort)), `${app}: metrics ${metricsPort} open to the monitoring namespace`);
  check(!reaches(outside, app, tcp(metricsPort)), `${app}: metrics closed to other namespaces`);
  check(reaches(inCluster(app), 'nats', tcp(4222), app), `${app} reaches nats 4222`);
  if (app === 'gateway') {
    // The edge keeps no data (issue #43): no database to reach.
    check(!egress(app, postgres, tcp(5432)) && !egress(app, postgresInCluster, tcp(5432)), `${app} never reaches Postgres`);
  } else {
    check(egress(app, postgres, tcp(5432)), `${app} reaches Postgres 5432`);
    check(egress(app, postgresInCluster, tcp(5432)), `${app} reaches the example Cluster's Postgres pods 5432`);
  }
  check(egress(app, dns, { port: 53, protocol: 'UDP' }) && egress(app, dns, tcp(53)), `${app} reaches DNS`);
  check(!egress(app, cloudMetadata, tcp(80)), `${app} never reaches the cloud metadata address`);
  if (app !== 'gateway') {
    check(!reaches(outside, app, tcp(3000)) && !reaches(inCluster('gateway'), app, tcp(3000), 'gateway'), `${app}: nothing but metrics may connect to it`);
  }
  // Only the webhooks service delivers to the internet (operators' URLs, any port they name).
  const internetOk = egress(app, internet, tcp(443)) && egress(app, internet, tcp(8443));
  check(app === 'webhooks' ? internetOk : !egress(app, internet, tcp(443)), `${app}: ${app === 'webhooks' ? 'reaches' : 'never reaches'} the internet`);
}
check(!egress('webhooks', { ip: '10.0.0.1' }, tcp(443)), 'webhooks never reaches private addresses (except Postgres on 5432)');
// The real adapters' providers: each service reaches its own on 443 only, at an address range no
// wider than a /16 (a placeholder that reaches nothing until the provider is contracted).
for (const [app, { policy, key }] of Object.entries(PROVIDER_EGRESS)) {
  check(providerSecretsOf(COMPONENTS[app]!).includes(key), `${app}: ${key} is its provider's credential (${policy})`);
  const p = policies.find((n) => n.metadata.name === policy);
  const blocks = (p?.spec.egress ?? []).flatMap((r) => (r.to ?? []).map((to) => to.ipBlock)).filter((b) => b !== undefined);
  check(p && blocks.length > 0, `NetworkPolicy ${policy}: an egress rule to its provider's address`);
  for (const b of blocks) {
    const [address, bits] = b.cidr.split('/');
    check(Number(bits) >= 16, `NetworkPolicy ${policy}: ${b.cidr} is wider than a /16 (name the provider's range)`);
    const provider: Peer = { ip: address! };
    check(egress(app, provider, tcp(443)), `${app} reaches its provider ${b.cidr} on 443`);
    check(!egress(app, provider, tcp(80)), `${app} reaches its provider on 443 only`);
    // (The webhooks service reaches every public address: operators' URLs may be anywhere.)
    for (const other of Object.keys(COMPONENTS)) {
      if (other !== app && other !== 'webhooks') check(!egress(other, provider, tcp(443)), `${other} never reaches ${app}'s provider (${policy})`);
    }
  }
}

// 8b. Traces: every process reaches the OpenTelemetry collector on OTLP's ports (otel-egress.yaml), and nothing more.
const collector: Peer = {
  namespace: { 'kubernetes.io/metadata.name': 'observability' },
  pod: { 'app.kubernetes.io/name': 'opentelemetry-collector' },
};
for (const app of Object.keys(COMPONENTS)) {
  check(egress(app, collector, tcp(4317)) && egress(app, collector, tcp(4318)), `${app} reaches the OTLP collector on 4317 and 4318`);
  check(!egress(app, collector, tcp(80)), `${app} reaches the OTLP collector on OTLP's ports only`);
  if (app !== 'webhooks') check(!egress(app, internet, tcp(4318)), `${app} never reaches an OTLP endpoint on the internet (name the collector's range, never 0.0.0.0/0)`);
}

// 8c. The restore test reaches its scratch Cluster (never the live one), the Pushgateway and the
// Kubernetes API, and nothing reaches it.
const restoreLabels: Labels = restorePod && restoreJob ? (restoreJob.spec.jobTemplate.spec.template.metadata?.labels ?? {}) : {};
const restoreEgress = (to: Peer, flow: Flow) => allowsEgress(policies, NS, restoreLabels, to, flow);
const scratchPods: Peer = {
  namespace: { 'kubernetes.io/metadata.name': pg?.metadata?.namespace ?? '' },
  pod: { 'cnpg.io/cluster': scratchName ?? '', 'cnpg.io/podRole': 'instance' },
};
// A Cluster restored beside the live one (docs/runbook.md, "Restore from backup"): the services reach it without a policy change.
for (const app of Object.keys(COMPONENTS).filter((a) => a !== 'gateway'))
  check(egress(app, { ...postgresInCluster, pod: { 'cnpg.io/cluster': 'back-office-db-restored', 'cnpg.io/podRole': 'instance' } }, tcp(5432)), `${app} reaches a Cluster restored beside the live one`);
const pushgateway: Peer = { namespace: { 'kubernetes.io/metadata.name': 'monitoring' }, pod: { 'app.kubernetes.io/name': 'prometheus-pushgateway' } };
check(restoreEgress(scratchPods, tcp(5432)), 'restore test reaches its scratch Cluster on 5432');
check(!restoreEgress(postgresInCluster, tcp(5432)) && !restoreEgress(postgres, tcp(5432)), 'restore test never reaches the live Cluster (nor any other Postgres)');
check(restoreEgress(pushgateway, tcp(9091)), 'restore test reaches the Pushgateway on 9091');
const apiBlocks = (policies.find((x) => x.metadata.name === 'restore-test')?.spec.egress ?? []).flatMap((r) => (r.to ?? []).map((t) => t.ipBlock)).filter((b) => b !== undefined);
check(apiBlocks.length > 0 && apiBlocks.every((b) => Number(b.cidr.split('/')[1]) >= 16), 'restore test: the Kubernetes API by its address range (no wider than a /16)');
for (const b of apiBlocks) check(restoreEgress({ ip: b.cidr.split('/')[0]! }, tcp(443)), `restore test reaches the Kubernetes API ${b.cidr} on 443`);
check(!restoreEgress(internet, tcp(443)) && !restoreEgress(inCluster('nats'), tcp(4222)), 'restore test reaches neither the internet nor NATS');
check(!allowsIngress(policies, NS, restoreLabels, monitoring, tcp(9464)) && !allowsIngress(policies, NS, restoreLabels, inCluster('gateway'), tcp(3000)), 'nothing connects to the restore test');

// 8d. JetStream on the second site (deploy/second-site): each site a JetStream domain of its
// own (nats-site), the leafnode between them on 7422 from and to the other site's range alone, the
// `mirror` user in the authorization block, and the mirrors of the streams the services create.
const primaryNatsSite = ofKind('ConfigMap').find((c) => c.metadata?.name === 'nats-site')?.data ?? {};
const secondNatsSite = secondSite('active/nats-site.yaml').find((c) => c.kind === 'ConfigMap' && c.metadata?.name === 'nats-site')?.data ?? {};
const domainOf = (site: Record<string, string>) => /^\s*domain:\s*(\S+)\s*$/m.exec(site['jetstream.conf'] ?? '')?.[1];
const primaryDomain = domainOf(primaryNatsSite);
check(primaryDomain && domainOf(secondNatsSite) && primaryDomain !== domainOf(secondNatsSite), `nats-site: each site its own JetStream domain (${primaryDomain}, ${domainOf(secondNatsSite)})`);
// nats-server resolves an include from the config file's folder: the site's files must be where the StatefulSet mounts nats-site.
const natsMounts: Doc[] = natsContainer.volumeMounts ?? [];
const natsVolumes: Doc[] = nats?.spec?.template?.spec?.volumes ?? [];
const mountOf = (configMap: string) => natsMounts.find((m) => natsVolumes.some((v) => v.name === m.name && v.configMap?.name === configMap))?.mountPath;
const jsBlock = /jetstream\s*\{([^}]*)\}/s.exec(natsConf)?.[1] ?? '';
for (const [what, text, file] of [
  ['the JetStream domain', jsBlock, 'jetstream.conf'],
  ['the leafnode', natsConf.replace(jsBlock, ''), 'leafnodes.conf'],
] as const) {
  const included = /include\s+"([^"]+)"/.exec(text)?.[1] ?? '';
  const at = path.posix.join(mountOf('nats-config') ?? '', included);
  check(included && at === path.posix.join(mountOf('nats-site') ?? '-', file), `nats.conf: includes ${what} from nats-site's ${file} (resolved from the config's folder: ${at})`);
}
check(/leafnodes\s*\{[^]*listen:\s*0\.0\.0\.0:7422[^]*tls\s*\{/.test(primaryNatsSite['leafnodes.conf'] ?? ''), 'nats-site: the primary site listens for leafnodes on 7422 over TLS');
check(/remotes:[^]*url:\s*\$NATS_LEAFNODE_URL[^]*ca_file:/.test(secondNatsSite['leafnodes.conf'] ?? ''), `${NATS_SECOND_SITE}: the second site's leafnode connects to the primary's ($NATS_LEAFNODE_URL), verifying its CA`);
check(natsContainer.ports?.some((x: Doc) => x.containerPort === 7422), 'nats: the leafnode port 7422 on the pods');
check(new RegExp(`user: ${MIRROR_USER}\\n\\s*password: \\$${natsPasswordVariable(MIRROR_USER)}\\n\\s*allowed_connection_types: \\["STANDARD", "LEAFNODE"\\]`).test(natsConf), `nats.conf: the ${MIRROR_USER} user, its password from $${natsPasswordVariable(MIRROR_USER)}`);
const otherSite: Peer = { ip: (policies.find((x) => x.metadata.name === 'nats')?.spec.ingress ?? []).flatMap((r) => (r.from ?? []).map((f) => f.ipBlock?.cidr)).find(Boolean)?.split('/')[0] ?? '' };
check('ip' in otherSite && otherSite.ip !== '', 'nats: the other site named by its address range');
check(allowsIngress(policies, NS, podLabels('nats'), otherSite, tcp(7422)) && egress('nats', otherSite, tcp(7422)), 'nats: the leafnode 7422 open from and to the other site');
check(!allowsIngress(policies, NS, podLabels('nats'), otherSite, tcp(4222)) && !allowsIngress(policies, NS, podLabels('nats'), internet, tcp(7422)), "nats: the other site reaches the leafnode port alone, and nobody else reaches it");
check(!egress('nats', internet, tcp(443)), 'nats reaches nothing on the internet');
const leafService = ofKind('Service').find((x) => x.spec?.ports?.some((p: Doc) => p.port === 7422));
check(leafService?.spec?.type === 'LoadBalancer' && leafService.spec.externalTrafficPolicy === 'Local' && (leafService.spec.loadBalancerSourceRanges ?? []).length > 0, 'nats-leafnodes: a load balancer for the other site only (source ranges, client address kept)');
const outboxText = readFileSync(path.join(REPO, 'packages/service-kit/src/outbox.ts'), 'utf8');
const outboxNanos = (field: string) => {
  const expr = new RegExp(`${field}:\\s*([\\d_ *]+),`).exec(outboxText)?.[1] ?? '';
  return expr ? expr.split('*').reduce((a, x) => a * Number(x.trim().replaceAll('_', '')), 1) : NaN;
};
const streamConfigs = secondSiteOf('ConfigMap').find((c) => c.metadata?.name === 'nats-mirror-streams')?.data ?? {};
for (const stream of mirroredStreams(natsPrefix)) {
  const parse = (key: string) => {
    try {
      return JSON.parse(streamConfigs[key] ?? '') as Doc;
    } catch {
      return undefined;
    }
  };
  const mirror = parse(`${stream}.mirror.json`);
  const promoted = parse(`${stream}.promoted.json`);
  check(
    mirror?.name === stream && mirror.mirror?.name === stream && !mirror.subjects && mirror.mirror?.external?.api === `$JS.${primaryDomain}.API`,
    `${NATS_SECOND_SITE}: ${stream} mirrors the primary site's ${stream} through its domain's API`,
  );
  check(String(mirror?.mirror?.external?.deliver ?? '').startsWith(`${mirrorDeliverPrefix(natsPrefix)}.`), `${NATS_SECOND_SITE}: ${stream}'s messages delivered where the ${MIRROR_USER} user may receive them`);
  const wildcard = stream === eventsStreamName(natsPrefix) ? eventsWildcard(natsPrefix) : internalEventsWildcard(natsPrefix);
  check(promoted?.name === stream && !promoted.mirror && JSON.stringify(promoted.subjects) === JSON.stringify([wildcard]), `${NATS_SECOND_SITE}: ${stream} promoted takes the services' subjects (${wildcard})`);
  for (const c of [mirror, promoted]) {
    check(
      c?.storage === 'file' && c.retention === 'limits' && c.max_age === outboxNanos('max_age') && c.duplicate_window === outboxNanos('duplicate_window') && String(c.num_replicas) === configData.NATS_REPLICAS,
      `${NATS_SECOND_SITE}: ${stream} kept as outbox.ts creates it (file, limits, max_age, duplicate window, NATS_REPLICAS)`,
    );
  }
}
const mirrorJob = secondSiteOf('Job').find((j) => j.metadata?.name === 'nats-mirror-streams')?.spec?.template?.spec?.containers?.[0] ?? {};
const mirrorJobEnv = (name: string) => (mirrorJob.env ?? []).find((e: Doc) => e.name === name);
check(
  mirrorJobEnv('NATS_USER')?.value === MIRROR_USER &&
    mirrorJobEnv('NATS_PASSWORD')?.valueFrom?.secretKeyRef?.name === NATS_SECRET_NAME &&
    mirrorJobEnv('NATS_PASSWORD')?.valueFrom?.secretKeyRef?.key === natsPasswordVariable(MIRROR_USER),
  `${NATS_SECOND_SITE}: the mirrors' Job connects as ${MIRROR_USER} with its password from ${NATS_SECRET_NAME}`,
);
const mirrorJobLabels: Labels = secondSiteOf('Job').find((j) => j.metadata?.name === 'nats-mirror-streams')?.spec?.template?.metadata?.labels ?? {};
const promoteJob = secondSiteOf('Job').find((j) => j.metadata?.name === 'nats-promote-mirrors');
check(promoteJob?.spec?.suspend === true, `${NATS_SECOND_SITE}: the mirrors' promotion waits, suspended, for the runbook to start it`);
check(
  JSON.stringify(promoteJob?.spec?.template?.metadata?.labels) === JSON.stringify(mirrorJobLabels) && /stream edit "\$s" --config "\/streams\/\$s\.promoted\.json"/.test(String(promoteJob?.spec?.template?.spec?.containers?.[0]?.command)),
  `${NATS_SECOND_SITE}: the promotion edits each mirror into its promoted configuration, under the mirrors' Job's NetworkPolicies`,
);
check(
  allowsEgress(policies, NS, mirrorJobLabels, inCluster('nats'), tcp(4222)) && allowsIngress(policies, NS, podLabels('nats'), { namespace: NS, pod: mirrorJobLabels }, tcp(4222)),
  `${NATS_SECOND_SITE}: the mirrors' Job reaches NATS on 4222`,
);
check(!allowsEgress(policies, NS, mirrorJobLabels, internet, tcp(443)), `${NATS_SECOND_SITE}: the mirrors' Job reaches nothing else`);

// 10. Monitoring: every process scraped as its own job, NATS's monitoring endpoint through the
// exporter (one container per node), the rules and the flows that scraping needs.
const podMonitors = ofKind('PodMonitor');
const selects = (selector: Doc | undefined, labels: Labels) =>
  !!selector &&
  Object.entries(selector.matchLabels ?? {}).every(([k, v]) => labels[k] === v) &&
  (selector.matchExpressions ?? []).every((e: Doc) => (e.operator === 'In' ? e.values.includes(labels[e.key]) : e.operator === 'Exists' ? e.key in labels : false));
for (const app of Object.keys(COMPONENTS)) {
  const pm = podMonitors.find((p) => selects(p.spec?.selector, podLabels(app)));
  check(pm, `${app}: a PodMonitor scrapes it`);
  check(
    (pm?.spec?.podMetricsEndpoints ?? []).some((e: Doc) => e.port === 'metrics' && e.path === '/metrics'),
    `${app}: its PodMonitor scrapes /metrics on the "metrics" port`,
  );
  check(pm?.spec?.jobLabel === 'app.kubernetes.io/name' && podLabels(app)['app.kubernetes.io/name'] === app, `${app}: scraped as job "${app}" (the rules select on it)`);
}
check(/^\s*http:\s*0\.0\.0\.0:8222\s*$/m.test(natsConf), 'nats.conf: the monitoring endpoint on 8222');
const exporter = ofKind('Deployment').find((d) => d.metadata.name === 'nats-exporter');
check(exporter, 'a nats-exporter Deployment (prometheus-nats-exporter)');
const exporterContainers: Doc[] = exporter?.spec?.template?.spec?.containers ?? [];
const natsMonitor = podMonitors.find((p) => selects(p.spec?.selector, podLabels('nats-exporter')));
check(natsMonitor, 'a PodMonitor scrapes the nats-exporter');
for (const pod of natsPods) {
  const c = exporterContainers.find((x) => (x.args ?? []).includes(`http://${pod}:8222`));
  check(c && ['-varz', '-jsz=all'].every((f) => c.args.includes(f)), `nats-exporter: a container reads ${pod}:8222 (-varz, -jsz=all)`);
  const port = c?.ports?.[0];
  check(port?.name && String(c?.args).includes(`-port=${port.containerPort}`), `nats-exporter: the container for ${pod} serves its named port`);
  const endpoint = (natsMonitor?.spec?.podMetricsEndpoints ?? []).find((e: Doc) => e.port === port?.name);
  check(
    endpoint && (endpoint.relabelings ?? []).some((r: Doc) => r.targetLabel === 'job' && r.replacement === 'nats'),
    `${pod}: scraped through the exporter as job "nats"`,
  );
  check(reaches(monitoring, 'nats-exporter', tcp(port?.containerPort ?? 0)), `nats-exporter ${port?.containerPort}: open to the monitoring namespace`);
}
check(reaches(inCluster('nats-exporter'), 'nats', tcp(8222), 'nats-exporter'), 'nats-exporter reaches the nats monitoring port 8222');
check(!reaches(inCluster('players'), 'nats', tcp(8222), 'players') && !reaches(outside, 'nats', tcp(8222)), 'the nats monitoring port is closed to all but the exporter');
check(!egress('nats-exporter', internet, tcp(443)) && !egress('nats-exporter', inCluster('nats'), tcp(4222)), 'nats-exporter reaches nothing but the monitoring port');
const postgresMonitor = podMonitors.find((x) => x.spec?.selector?.matchLabels?.['cnpg.io/cluster'] === pg?.metadata?.name);
check(
  postgresMonitor?.spec?.namespaceSelector?.matchNames?.includes(pg?.metadata?.namespace) &&
    (postgresMonitor.spec.podMetricsEndpoints ?? []).some(
      (e: Doc) => e.port === 'metrics' && (e.relabelings ?? []).some((r: Doc) => r.targetLabel === 'job' && r.replacement === 'postgres'),
    ),
  "a PodMonitor scrapes the database's instances (CloudNativePG's exporter, the backup plugin's series) as job \"postgres\"",
);
const prometheusRule = ofKind('PrometheusRule')[0];
check(
  (prometheusRule?.spec?.groups ?? []).some((g: Doc) => (g.rules ?? []).some((r: Doc) => r.alert && /^docs\/runbook\.md#/.test(r.annotations?.runbook_url ?? ''))),
  'a PrometheusRule of alerts, each naming its runbook section',
);

// 11. The ingress example: TLS at the controller, to the public port only, and TRUST_PROXY counts its hop.
const ingress = (docsByFile.get(INGRESS_EXAMPLE) ?? []).find((d) => d.kind === 'Ingress');
check(ingress, `${INGRESS_EXAMPLE}: an Ingress`);
const tlsHosts: string[] = (ingress?.spec?.tls ?? []).flatMap((x: Doc) => (x.secretName ? (x.hosts ?? []) : []));
const publicService = svc(3000);
for (const rule of ingress?.spec?.rules ?? []) {
  check(tlsHosts.includes(rule.host), `${INGRESS_EXAMPLE}: ${rule.host} is served over TLS (a tls entry with its secret)`);
  for (const p of rule.http?.paths ?? []) {
    const backend = p.backend?.service ?? {};
    const port = publicService?.spec?.ports?.find((x: Doc) => x.port === backend.port?.number || x.name === backend.port?.name);
    check(backend.name === publicService?.metadata?.name && port?.port === 3000, `${INGRESS_EXAMPLE}: ${rule.host}${p.path} goes to the gateway's public port 3000, never the admin API`);
  }
}
check((ingress?.spec?.rules ?? []).length > 0, `${INGRESS_EXAMPLE}: routes a host`);
check(ingress?.metadata?.annotations?.['nginx.ingress.kubernetes.io/force-ssl-redirect'] === 'true', `${INGRESS_EXAMPLE}: plain HTTP is redirected to HTTPS`);
check(
  ingress?.metadata?.annotations?.['back-office/trusted-proxy-hops'] === configData.TRUST_PROXY,
  `ConfigMap: TRUST_PROXY "${configData.TRUST_PROXY}" is the ingress's proxy hops (${INGRESS_EXAMPLE}: back-office/trusted-proxy-hops)`,
);

// 9. The image: built for production, tagged with the API version.
check(
  kustomization.images?.find((i: Doc) => i.name === 'back-office')?.newTag === API_VERSION,
  `kustomization.yaml: image tag ${API_VERSION} (API_VERSION in packages/contracts)`,
);
const dockerfile = existsSync(path.join(DIR, 'Dockerfile')) ? read('Dockerfile') : '';
const stages = dockerfile.split(/^FROM /m).slice(1);
const runtime = stages.at(-1) ?? '';
const install = stages.slice(0, -1).join('FROM ');
const installName = /^\S+\s+AS\s+(\S+)/i.exec(stages[0] ?? '')?.[1];
check(stages.length >= 2, 'Dockerfile: multi-stage (an install stage, a runtime stage)');
check(
  stages.every((s) => /^node:24[\w.-]*\b/.test(s)),
  'Dockerfile: every stage on node:24',
);
check(
  /npm ci\b/.test(install) && /runtime-dependencies\.ts --prune/.test(install),
  'Dockerfile: the install stage runs npm ci, then prunes to the runtime dependencies',
);
check(new RegExp(`COPY --from=${installName} /app/node_modules`).test(runtime), 'Dockerfile: the runtime stage takes the pruned node_modules');
check(!/npm (ci|install|i)\b/.test(runtime), 'Dockerfile: nothing is installed in the runtime stage');
check(/^ENV NODE_ENV=production$/m.test(runtime), 'Dockerfile: NODE_ENV=production in the image');
check(/^USER (node|1000)$/m.test(runtime), 'Dockerfile: runs as the non-root node user');
check(!/COPY (packages\/(sdk(?!\/README\.md )|test-support)|test|scripts|bench)\b/.test(runtime), 'Dockerfile: no test, tool or SDK sources in the image');
// The files the portal reads at start-up (packages/portal/src/public-docs.ts): it does not start without them.
for (const file of ['docs/CHANGELOG.md', 'packages/sdk/README.md']) {
  check(new RegExp(`^COPY ${file.replaceAll('.', '\\.')} \\./${path.dirname(file)}/$`, 'm').test(runtime), `Dockerfile: the runtime stage copies ${file} (the portal serves it)`);
}
const workspaces = (JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')).workspaces as string[]).flatMap((w) =>
  w.endsWith('/*') ? readdirSync(path.join(REPO, w.slice(0, -2))).map((d) => `${w.slice(0, -2)}/${d}`) : [w],
);
const manifestOf = (w: string) => JSON.parse(readFileSync(path.join(REPO, w, 'package.json'), 'utf8')) as { name: string; dependencies?: Record<string, string> };
const installed = workspaces.filter((w) => existsSync(path.join(REPO, w, 'package.json')));
for (const w of installed) {
  check(dockerfile.includes(`COPY ${w}/package.json ${w}/`), `Dockerfile: copies ${w}/package.json (npm ci needs every workspace's)`);
}
// The runtime stage copies the sources of every workspace a service runs: the services and, through
// their dependencies, the packages they import (a missing one fails only when the image starts).
const workspaceNamed = new Map(installed.map((w) => [manifestOf(w).name, w]));
const run = installed.filter((w) => w.startsWith('services/'));
for (let i = 0; i < run.length; i++) {
  for (const dep of Object.keys(manifestOf(run[i]!).dependencies ?? {})) {
    const w = workspaceNamed.get(dep);
    if (w && !run.includes(w)) run.push(w);
  }
}
for (const w of run) {
  const copied = [w, path.dirname(w)].some((from) => new RegExp(`^COPY ${from} \\./${from}$`, 'm').test(runtime));
  check(copied, `Dockerfile: the runtime stage copies ${w} (a service runs it)`);
}
check(
  /^!deploy\/k8s\/runtime-dependencies\.ts$/m.test(existsSync(path.join(DIR, 'Dockerfile.dockerignore')) ? read('Dockerfile.dockerignore') : ''),
  'Dockerfile.dockerignore lets the pruning script in',
);
// Every version the docs give the image and the API is the current one.
for (const [file, text] of [
  ['deploy/k8s/README.md', existsSync(path.join(DIR, 'README.md')) ? read('README.md') : ''],
  ['deploy/k8s/Dockerfile', dockerfile],
  ['README.md', readFileSync(path.join(REPO, 'README.md'), 'utf8')],
] as const) {
  for (const [, v] of text.matchAll(/back-office:(\d+\.\d+\.\d+)/g))
    check(v === API_VERSION, `${file}: back-office:${v} is not the API version ${API_VERSION}`);
  for (const [, v] of text.matchAll(/API v(\d+\.\d+\.\d+)/g)) check(v === API_VERSION, `${file}: API v${v} is not the API version ${API_VERSION}`);
}
check(readFileSync(path.join(REPO, 'README.md'), 'utf8').includes(`Contract: API v${API_VERSION}`), `README.md says "Contract: API v${API_VERSION}"`);

/** Sources that create JetStream streams, buckets or consumers. */
function jetStreamSources(): string[] {
  const roots = ['packages', 'services'].flatMap((d) => readdirSync(path.join(REPO, d)).map((p) => path.join(REPO, d, p, 'src')));
  const found: string[] = [];
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ts') && /Kvm|jetstreamManager/.test(readFileSync(p, 'utf8'))) found.push(p);
    }
  };
  for (const r of roots) walk(r);
  return found;
}

if (failures.length > 0) {
  console.error(failures.map((f) => `not ok - ${f}`).join('\n'));
  console.error(`${passed} passed, ${failures.length} failed`);
  process.exit(1);
}
console.log(`${files.length} files, ${all.length} documents: ${passed} passed, 0 failed`);
