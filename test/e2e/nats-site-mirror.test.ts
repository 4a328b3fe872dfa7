// JetStream on the second site (issue #67; docs/continuity.md): the machine's nats-server as the two
// sites, each with the authorization block deploy/k8s/nats.yaml carries (nats-identities.ts, the
// `mirror` user included), its JetStream domain and leafnode side from the manifests' nats-site
// ConfigMaps (nats.yaml's for the primary site, deploy/second-site/active's for the second), the
// leafnode over TLS as the `mirror` user. The mirrors the second site's Job creates, from that file's
// own stream configurations, copy the streams the services create on the primary site with every
// message and its Nats-Msg-Id (a re-sent event keeps its id), and the leafnode carries nothing else:
// a second-site component cannot call a primary-site service, nor publish into its streams.
// Promoting a mirror needs nats-server 2.12 (the machine's is older): not run here.
import t, { type Test } from 'tap';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { connect, headers, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { eventsStreamName, eventSubject, internalEventSubject, internalStreamName } from '@bo/contracts';
import { ensureEventsStream, ensureInternalStream } from '@bo/service-kit';
import { waitFor } from '@bo/service-kit/testing';
import { freePort } from '../../scripts/local-infra.ts';
import { MIRROR_USER, NATS_COMPONENTS, natsAuthorization, type NatsComponent } from '../../deploy/k8s/nats-identities.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const K8S = path.join(ROOT, 'deploy/k8s');
const NATS_SERVER = '/usr/sbin/nats-server';
const dir = mkdtempSync(path.join(os.tmpdir(), 'bo-nats-site-mirror-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string) => path.join(dir, name);

const docs = (name: string) =>
  parseAllDocuments(readFileSync(path.join(K8S, name), 'utf8'))
    .map((d) => d.toJS())
    .filter(Boolean) as Array<Record<string, any>>;
const configMap = (name: string, cm: string) => docs(name).find((d) => d.kind === 'ConfigMap' && d.metadata.name === cm)!.data as Record<string, string>;
const SECOND_SITE = '../second-site/active';
const prefix = /^\s*NATS_PREFIX:\s*"?([\w-]+)"?\s*$/m.exec(readFileSync(path.join(K8S, 'configmap.yaml'), 'utf8'))![1]!;
const primarySite = configMap('nats.yaml', 'nats-site');
const secondSite = configMap(`${SECOND_SITE}/nats-site.yaml`, 'nats-site');
const streamConfigs = configMap(`${SECOND_SITE}/nats-mirrors.yaml`, 'nats-mirror-streams');

// A CA and a certificate for 127.0.0.1: the primary site's leafnode listener (nats-tls.yaml's in the cluster).
const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'ignore' });
openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=site-a test CA', '-keyout', file('ca.key'), '-out', file('ca.crt'));
openssl('req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=nats', '-keyout', file('tls.key'), '-out', file('server.csr'));
writeFileSync(file('san.ext'), 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth,clientAuth\n');
openssl(
  'x509',
  '-req',
  '-in',
  file('server.csr'),
  '-CA',
  file('ca.crt'),
  '-CAkey',
  file('ca.key'),
  '-CAcreateserial',
  '-days',
  '1',
  '-extfile',
  file('san.ext'),
  '-out',
  file('tls.crt'),
);

const passwords = Object.fromEntries([...NATS_COMPONENTS, MIRROR_USER].map((c) => [c, `p${randomBytes(24).toString('hex')}`])) as Record<
  NatsComponent | 'mirror',
  string
>;

interface Site {
  url: string;
  log(): string;
}
const servers: ChildProcess[] = [];
t.teardown(async () => {
  for (const s of servers) {
    if (s.exitCode !== null) continue;
    s.kill('SIGTERM');
    await new Promise((r) => s.once('exit', r));
  }
});

/** A site's nats-server: its nats-site files as the manifests have them (paths and ports made local), included as nats.yaml includes them. */
async function startSite(name: string, site: Record<string, string>, leafPort: number, env: NodeJS.ProcessEnv = {}): Promise<Site> {
  const port = await freePort();
  const siteDir = path.join(dir, name, 'nats-site');
  const configDir = path.join(dir, name, 'nats-config');
  mkdirSync(siteDir, { recursive: true });
  mkdirSync(configDir, { recursive: true });
  const local = (text: string) =>
    text.replaceAll('/etc/nats-tls/', `${dir}/`).replaceAll('/etc/nats-peer-ca/', `${dir}/`).replace('0.0.0.0:7422', `127.0.0.1:${leafPort}`);
  for (const f of ['jetstream.conf', 'leafnodes.conf']) writeFileSync(path.join(siteDir, f), local(site[f]!));
  writeFileSync(
    path.join(configDir, 'nats.conf'),
    [
      `server_name: ${name}`,
      `listen: 127.0.0.1:${port}`,
      `jetstream {\n  store_dir: ${JSON.stringify(path.join(dir, name, 'js'))}\n  include "../nats-site/jetstream.conf"\n}`,
      'include "../nats-site/leafnodes.conf"',
      natsAuthorization(prefix, passwords),
    ].join('\n'),
  );
  let log = '';
  const server = spawn(NATS_SERVER, ['-c', path.join(configDir, 'nats.conf')], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  servers.push(server);
  for (const s of [server.stdout!, server.stderr!])
    s.on('data', (d: Buffer) => {
      log += d;
    });
  await waitFor(async () => log.includes('Server is ready') || server.exitCode !== null || undefined, { what: `${name}'s nats-server to be ready` });
  if (server.exitCode !== null) throw new Error(`${name}'s nats-server did not start:\n${log}`);
  return { url: `nats://127.0.0.1:${port}`, log: () => log };
}

async function as(t: Test, site: Site, user: NatsComponent | 'mirror'): Promise<NatsConnection> {
  const nc = await connect({ servers: site.url, user, pass: passwords[user], inboxPrefix: `_INBOX_${user}`, name: `test-${user}` });
  t.teardown(() => nc.close());
  return nc;
}

t.test('the second site mirrors the primary site’s streams over the leafnode, and nothing else crosses', async (t) => {
  const primaryLeafPort = await freePort();
  const siteA = await startSite('site-a', primarySite, primaryLeafPort);
  const siteB = await startSite('site-b', secondSite, await freePort(), {
    NATS_LEAFNODE_URL: `tls://${MIRROR_USER}:${passwords.mirror}@127.0.0.1:${primaryLeafPort}`,
  });
  await waitFor(async () => /Leafnode connection created/.test(siteB.log()) || undefined, { what: 'the second site’s leafnode to connect' });
  t.match(siteA.log(), /Domain:\s+site-a/, 'the primary site is JetStream domain site-a');
  t.match(siteB.log(), /Domain:\s+site-b/, 'the second site is site-b');

  // The primary site's streams, as the services make them (one node here: one replica).
  const players = await as(t, siteA, 'players');
  await ensureEventsStream(players, prefix, 1);
  await ensureInternalStream(players, prefix, 1);

  // The second site's Job: the mirrors from its own configurations, as the mirror user.
  const mirror = await as(t, siteB, 'mirror');
  const jsmB = await jetstreamManager(mirror);
  for (const stream of [eventsStreamName(prefix), internalStreamName(prefix)]) {
    const config = JSON.parse(streamConfigs[`${stream}.mirror.json`]!);
    await jsmB.streams.add({ ...config, num_replicas: 1 });
  }

  const js = jetstream(players);
  const eventIds = ['evt_mirror_1', 'evt_mirror_2', 'evt_mirror_3'];
  for (const id of eventIds) await js.publish(eventSubject(prefix, 'production', 'deposit.confirmed'), JSON.stringify({ id }), { msgID: id });
  await js.publish(internalEventSubject(prefix, 'audit.recorded'), JSON.stringify({ id: 'evt_mirror_internal' }), { msgID: 'evt_mirror_internal' });

  const mirrored = await waitFor(
    async () => {
      const info = await jsmB.streams.info(eventsStreamName(prefix));
      return info.state.messages === eventIds.length ? info : undefined;
    },
    { what: 'the events to reach the second site' },
  );
  t.equal(mirrored.state.last_seq, eventIds.length, 'the same sequence numbers as the primary site');
  await waitFor(async () => (await jsmB.streams.info(internalStreamName(prefix))).state.messages === 1 || undefined, {
    what: 'the internal event to reach the second site',
  });
  const second = await jsmB.streams.getMessage(eventsStreamName(prefix), { seq: 2 });
  t.equal(second?.header?.get('Nats-Msg-Id'), 'evt_mirror_2', 'each event keeps its id (Nats-Msg-Id)');
  t.same(JSON.parse(new TextDecoder().decode(second?.data)), { id: 'evt_mirror_2' });

  // Nothing but the mirrors crosses: a second-site gateway cannot reach a primary-site service, nor a
  // second-site service publish into the primary site's streams.
  const walletA = await as(t, siteA, 'wallet');
  let heard = 0;
  walletA.subscribe(`${prefix}.rpc.wallet.credit`, {
    callback: () => {
      heard++;
    },
  });
  await walletA.flush();
  const gatewayB = await as(t, siteB, 'gateway');
  gatewayB.publish(`${prefix}.rpc.wallet.credit`, '{}');
  await gatewayB.flush();
  const playersB = await as(t, siteB, 'players');
  const msgId = headers();
  msgId.set('Nats-Msg-Id', 'evt_from_b');
  playersB.publish(eventSubject(prefix, 'production', 'deposit.confirmed'), JSON.stringify({ id: 'evt_from_b' }), { headers: msgId });
  await playersB.flush();
  await new Promise((r) => setTimeout(r, 1000));
  t.equal(heard, 0, 'the primary site’s wallet heard nothing from the second site');
  const jsmA = await jetstreamManager(players);
  t.equal(
    (await jsmA.streams.info(eventsStreamName(prefix))).state.messages,
    eventIds.length,
    'nothing of the second site’s reached the primary site’s events',
  );
  t.same(
    siteA
      .log()
      .split('\n')
      .filter((l) => /Violation/.test(l) && !/test-/.test(l)),
    [],
    'no permission violation at the primary site but the test’s own attempts',
  );
});
