// The kit on a NATS cluster of three (support/nats-cluster.ts, what deploy/k8s/nats.yaml runs):
// streams are created, or raised, to NATS_REPLICAS; request-reply goes on when the node a
// responder is connected to is killed (the connection moves to another node given in NATS_URL); a
// start that creates its streams while JetStream has no quorum waits for it instead of failing.
import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { jetstreamManager, RetentionPolicy, StorageType } from '@nats-io/jetstream';
import { callOperation, eventsStreamName, eventsWildcard, internalStreamName } from '@bo/contracts';
import { connectNats, createLogger, ensureEventsStream, ensureInternalStream, handle, serveOperations, waitForJetStream } from '@bo/service-kit';
import { testPrefix, waitFor } from '@bo/service-kit/testing';
import { startNatsCluster } from './support/nats-cluster.ts';

// A cluster of its own, removed with its store at the end (so are the streams the tests create).
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bo-nats-cluster-'));
const cluster = await startNatsCluster({ dataDir, log: () => undefined });
t.teardown(async () => {
  await cluster.stop();
  rmSync(dataDir, { recursive: true, force: true });
});
const log = createLogger('nats-cluster-test', 'silent');

t.test('streams are created with NATS_REPLICAS, and one created with fewer is raised to it', async (t) => {
  const nc = await connectNats(cluster.url, 'replicas-test');
  t.teardown(() => nc.close());
  const jsm = await jetstreamManager(nc);
  const prefix = testPrefix('replicas');
  // The events stream as a single server's deployment left it: one replica.
  await waitForJetStream(() =>
    jsm.streams.add({
      name: eventsStreamName(prefix),
      subjects: [eventsWildcard(prefix)],
      storage: StorageType.File,
      retention: RetentionPolicy.Limits,
      num_replicas: 1,
    }),
  );
  // As a start does (service.ts): once JetStream answers.
  await waitForJetStream(() => ensureEventsStream(nc, prefix, 3));
  await waitForJetStream(() => ensureInternalStream(nc, prefix, 3));
  t.equal((await jsm.streams.info(eventsStreamName(prefix))).config.num_replicas, 3, 'the existing stream is raised to R3');
  t.equal((await jsm.streams.info(internalStreamName(prefix))).config.num_replicas, 3, 'a new stream is created R3');
});

t.test('request-reply goes on when the node the responder is connected to is killed', async (t) => {
  const prefix = testPrefix('failover');
  const responder = await connectNats(cluster.url, 'responder');
  const caller = await connectNats(cluster.url, 'caller');
  const server = serveOperations({
    nc: responder,
    prefix,
    service: 'failover',
    log,
    handlers: handle({ subject: 'failover.echo' }, async (req) => ({ body: { echo: req.body } })),
  });
  t.teardown(async () => {
    await server.stop();
    await responder.close();
    await caller.close();
  });
  await responder.flush();
  const call = () =>
    callOperation<{ echo: unknown }>(
      caller,
      'failover.echo',
      { ctx: { requestId: 'req_failover', scope: { kind: 'internal', service: 'test' } }, params: {}, query: {}, body: 'hi' },
      { prefix, timeoutMs: 2000 },
    );
  // The responder's interest reaches the caller's node over the cluster's routes a moment after its
  // own node has it (flush): on a busy machine the first call can come before it.
  const before = await waitFor(() => call().catch(() => undefined), { timeoutMs: 30_000, what: 'an answer before the loss' });
  t.same(before, { echo: 'hi' }, 'answered before the loss');
  const port = responder.getServer().split(':').pop();
  const node = cluster.nodes.find((n) => n.url.endsWith(`:${port}`))!;
  await node.kill();
  // The responder reconnects to another node and its subscription follows; calls get through again.
  const answer = await waitFor(() => call().catch(() => undefined), { timeoutMs: 30_000, what: 'an answer after the node was lost' });
  t.same(answer, { echo: 'hi' });
  t.not(responder.getServer().split(':').pop(), port, 'the responder moved to another node');
  await node.start();
});

t.test('a start while JetStream has no quorum waits for it, then creates its stream R3', async (t) => {
  const nc = await connectNats(cluster.url, 'start-test');
  t.teardown(() => nc.close());
  const prefix = testPrefix('quorum');
  // Two of three lost: no stream can be created or read until they are back.
  const [a, b] = cluster.nodes.filter((n) => !n.url.endsWith(`:${nc.getServer().split(':').pop()}`));
  await Promise.all([a!.kill(), b!.kill()]);
  let settled = false;
  const starting = waitForJetStream(() => ensureEventsStream(nc, prefix, 3), log).finally(() => {
    settled = true;
  });
  // Long enough for JetStream requests to fail (their timeout); a start that gives up has settled by then.
  await new Promise((r) => setTimeout(r, 6000));
  const waiting = !settled;
  await Promise.all([a!.start(), b!.start()]);
  await starting;
  t.ok(waiting, 'still waiting while JetStream had no quorum');
  const jsm = await jetstreamManager(nc);
  t.equal((await jsm.streams.info(eventsStreamName(prefix))).config.num_replicas, 3, 'the stream was created R3 once it had');
});
