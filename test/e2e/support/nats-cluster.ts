// Three `nats-server -js` processes clustered with routes on loopback (what deploy/k8s/nats.yaml runs
// as a StatefulSet), each with its own store, for `CHAOS_NATS_CLUSTER=3 npm run chaos`: a node is
// killed (SIGKILL) and started again on the same ports and store, and the clients (given every
// URL) move to the nodes that are left. JetStream streams and buckets are R3 across the three.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { freePort } from '../../../scripts/local-infra.ts';

export interface NatsNode {
  name: string;
  url: string;
  /** SIGKILL: the node is gone at once, as a lost machine is (its store stays). */
  kill(): Promise<void>;
  /** Starts it again on its ports and store; resolves once it is back in the cluster with JetStream current. */
  start(): Promise<void>;
}

export interface NatsCluster {
  /** Every node's URL, comma-separated: NATS_URL for the services. */
  url: string;
  started: true;
  nodes: NatsNode[];
  describe: string;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Whether JetStream answers through this node alone (the cluster has a meta leader and the node is part of it). */
async function jetStreamAnswers(url: string): Promise<boolean> {
  const nc = await connect({ servers: url, reconnect: false, timeout: 2000 }).catch(() => undefined);
  if (!nc) return false;
  try {
    await (await jetstreamManager(nc, { timeout: 2000 })).getAccountInfo();
    return true;
  } catch {
    return false;
  } finally {
    await nc.close().catch(() => undefined);
  }
}

/** The node's own word that it is healthy (JetStream current with the cluster, `/healthz`) and knows the cluster's JetStream leader (`/jsz`). */
async function healthy(monitorPort: number): Promise<boolean> {
  const res = await fetch(`http://127.0.0.1:${monitorPort}/healthz`).catch(() => undefined);
  if (res?.ok !== true) return false;
  const jsz = (await (await fetch(`http://127.0.0.1:${monitorPort}/jsz`).catch(() => undefined))?.json().catch(() => undefined)) as
    | { meta_cluster?: { leader?: string } }
    | undefined;
  return Boolean(jsz?.meta_cluster?.leader);
}

export async function startNatsCluster(opts: { dataDir: string; size?: number; log: (msg: string) => void }): Promise<NatsCluster> {
  const size = opts.size ?? 3;
  const ports = [];
  for (let i = 0; i < size; i++) ports.push({ client: await freePort(), route: await freePort(), monitor: await freePort() });
  const routes = ports.map((p) => `nats://127.0.0.1:${p.route}`).join(',');

  const nodes: Array<NatsNode & { child?: ChildProcess; exited?: Promise<void>; stderr: string }> = ports.map((p, i) => {
    const name = `n${i + 1}`;
    const storeDir = path.join(opts.dataDir, `nats-${name}`);
    mkdirSync(storeDir, { recursive: true });
    const url = `nats://127.0.0.1:${p.client}`;
    const node: NatsNode & { child?: ChildProcess; exited?: Promise<void>; stderr: string } = {
      name,
      url,
      stderr: '',
      async kill() {
        const child = node.child;
        if (!child || child.exitCode !== null || child.signalCode !== null) return;
        child.kill('SIGKILL');
        await node.exited;
      },
      async start() {
        const child = spawn(
          'nats-server',
          [
            '-js',
            '-n',
            name,
            '-a',
            '127.0.0.1',
            '-p',
            String(p.client),
            '-m',
            String(p.monitor),
            '-sd',
            storeDir,
            '--cluster_name',
            'bo-chaos',
            '--cluster',
            `nats://127.0.0.1:${p.route}`,
            '--routes',
            routes,
          ],
          { stdio: ['ignore', 'ignore', 'pipe'] },
        );
        node.child = child;
        node.stderr = '';
        child.stderr!.on('data', (d: Buffer) => {
          node.stderr = (node.stderr + d.toString()).slice(-4000);
        });
        node.exited = new Promise((resolve) => child.once('close', () => resolve()));
        for (let i = 0; ; i++) {
          if (child.exitCode !== null || child.signalCode !== null) throw new Error(`nats-server ${name} exited at start:\n${node.stderr.trim()}`);
          if ((await healthy(p.monitor)) && (await jetStreamAnswers(url))) return;
          if (i > 600) throw new Error(`nats-server ${name} did not become healthy in 60 s:\n${node.stderr.trim()}`);
          await sleep(100);
        }
      },
    };
    return node;
  });
  // All at once: a node's JetStream is healthy only once the cluster has a meta leader.
  await Promise.all(nodes.map((n) => n.start()));
  opts.log(`NATS cluster of ${size}: ${nodes.map((n) => `${n.name} ${n.url}`).join(', ')}`);
  return {
    url: nodes.map((n) => n.url).join(','),
    started: true,
    nodes,
    describe: `nats-server cluster of ${size} (${nodes.map((n) => n.url).join(', ')})`,
    async stop() {
      await Promise.all(
        nodes.map(async (n) => {
          const child = n.child;
          if (!child || child.exitCode !== null || child.signalCode !== null) return;
          child.kill('SIGTERM');
          await n.exited;
        }),
      );
    },
  };
}

/** Every stream (KV buckets included) of a NATS prefix: its replicas and the node that leads it. */
export async function jetStreamReplicas(url: string, prefix: string): Promise<Array<{ stream: string; replicas: number; leader?: string }>> {
  const nc = await connect({ servers: url.split(',') });
  try {
    const out: Array<{ stream: string; replicas: number; leader?: string }> = [];
    for await (const info of (await jetstreamManager(nc)).streams.list()) {
      if (info.config.name.includes(prefix)) out.push({ stream: info.config.name, replicas: info.config.num_replicas, leader: info.cluster?.leader });
    }
    return out.sort((a, b) => a.stream.localeCompare(b.stream));
  } finally {
    await nc.close();
  }
}
