// The kit's durable consumer against the real NATS: messages in order, a consumer deleted under it
// is recreated and consuming goes on, a set-up that fails is retried until it works (readiness
// says why meanwhile), and stop() waits for the message being handled and takes no other.
import t, { type Test } from 'tap';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager, RetentionPolicy, StorageType, type JsMsg } from '@nats-io/jetstream';
import { createLogger, startDurableConsumer } from '../src/index.ts';
import { testNatsUrl, testPrefix, waitFor } from '../src/testing.ts';

const log = createLogger('durable-consumer-test', 'silent');

async function withStream(t: Test): Promise<{ nc: NatsConnection; stream: string; subject: string; name: string }> {
  const prefix = testPrefix('dc');
  const stream = `${prefix}_S`;
  const subject = `${prefix}.msg`;
  const nc = await connect({ servers: testNatsUrl() });
  const jsm = await jetstreamManager(nc);
  await jsm.streams.add({ name: stream, subjects: [subject], storage: StorageType.Memory, retention: RetentionPolicy.Limits });
  t.teardown(async () => {
    await jsm.streams.delete(stream).catch(() => undefined);
    await nc.close();
  });
  return { nc, stream, subject, name: `${prefix}_c` };
}

t.test('consumes in order, and a consumer deleted under it is recreated', async (t) => {
  const { nc, stream, subject, name } = await withStream(t);
  const seen: string[] = [];
  const task = startDurableConsumer({
    name: 'test consumer',
    nc,
    consumer: { stream, name, filterSubject: subject, ackWaitMs: 30_000, replicas: 1 },
    ensureStream: async () => undefined,
    maxMessages: 8,
    onMessage: (m: JsMsg) => {
      seen.push(m.string());
      m.ack();
    },
    log,
    restartMs: 50,
  });
  t.teardown(() => task.stop());
  t.equal(task.problem(), 'not consuming yet', 'unready until it consumes');
  const js = jetstream(nc);
  for (const n of ['1', '2', '3']) await js.publish(subject, n);
  await waitFor(async () => seen.length === 3, { what: 'three messages' });
  t.same(seen, ['1', '2', '3'], 'in order');
  t.equal(task.problem(), undefined, 'ready while consuming');

  const jsm = await jetstreamManager(nc);
  await jsm.consumers.delete(stream, name);
  await js.publish(subject, '4');
  // The recreated consumer starts from the stream's start: the earlier messages come again, then 4.
  await waitFor(async () => seen.includes('4'), { what: 'the message after the deletion' });
  t.same(seen.slice(-4), ['1', '2', '3', '4'], 'the recreated consumer delivers from the start, in order');
  t.ok(await jsm.consumers.info(stream, name), 'the consumer exists again');
});

t.test('a set-up that fails is retried, with its reason for readiness, until it works', async (t) => {
  const { nc, stream, subject, name } = await withStream(t);
  let tries = 0;
  const problems: Array<string | undefined> = [];
  const seen: string[] = [];
  const task = startDurableConsumer({
    name: 'test consumer',
    nc,
    consumer: { stream, name, filterSubject: subject, ackWaitMs: 30_000, replicas: 1 },
    ensureStream: async () => {
      tries++;
      if (tries <= 2) throw new Error(`not yet (${tries})`);
    },
    maxMessages: 8,
    onMessage: (m) => {
      seen.push(m.string());
      m.ack();
    },
    log,
    restartMs: 20,
    maxRestartMs: 40,
  });
  t.teardown(() => task.stop());
  await waitFor(
    async () => {
      problems.push(task.problem());
      return tries >= 2;
    },
    { what: 'two failed set-ups', intervalMs: 1 },
  );
  t.ok(
    problems.some((p) => p?.startsWith('test consumer failed: not yet')),
    'readiness names the failure',
  );
  await jetstream(nc).publish(subject, 'after');
  await waitFor(async () => seen.includes('after'), { what: 'consuming once the set-up works' });
  t.equal(tries, 3, 'set up again until it worked, then not again');
  t.equal(task.problem(), undefined);
});

t.test('stop() waits for the message being handled, then no more are taken', async (t) => {
  const { nc, stream, subject, name } = await withStream(t);
  const order: string[] = [];
  let release!: () => void;
  const gate = new Promise<void>((r) => {
    release = r;
  });
  let handling!: () => void;
  const started = new Promise<void>((r) => {
    handling = r;
  });
  const task = startDurableConsumer({
    name: 'test consumer',
    nc,
    consumer: { stream, name, filterSubject: subject, ackWaitMs: 30_000, replicas: 1 },
    ensureStream: async () => undefined,
    maxMessages: 8,
    onMessage: async (m) => {
      order.push(`handling ${m.string()}`);
      handling();
      await gate;
      m.ack();
      order.push(`handled ${m.string()}`);
    },
    log,
  });
  const js = jetstream(nc);
  await js.publish(subject, 'a');
  await js.publish(subject, 'b');
  await started;
  const stopped = task.stop().then(() => order.push('stopped'));
  release();
  await stopped;
  t.same(order, ['handling a', 'handled a', 'stopped'], 'the message under way finished first; b was not taken');
});

t.test('in parallel: keys side by side, each key in stream order, never more than max at once', async (t) => {
  const { nc, stream, subject, name } = await withStream(t);
  // Messages "key:n". Key a's first handling waits until b's last has run: a consumer that handled
  // one message at a time would never get there (the wait below would time out).
  let releaseA!: () => void;
  const aMayGo = new Promise<void>((r) => (releaseA = r));
  const order: string[] = [];
  let running = 0;
  let most = 0;
  const task = startDurableConsumer({
    name: 'test consumer',
    nc,
    consumer: { stream, name, filterSubject: subject, ackWaitMs: 30_000, replicas: 1 },
    ensureStream: async () => undefined,
    maxMessages: 16,
    inParallel: { max: 3, keyOf: (m) => m.string().split(':')[0]! },
    onMessage: async (m: JsMsg) => {
      running++;
      most = Math.max(most, running);
      const body = m.string();
      if (body === 'a:1') await aMayGo;
      if (body === 'b:3') releaseA();
      order.push(body);
      running--;
      m.ack();
    },
    log,
    restartMs: 50,
  });
  t.teardown(() => task.stop());
  const js = jetstream(nc);
  for (const body of ['a:1', 'a:2', 'b:1', 'b:2', 'b:3', 'a:3']) await js.publish(subject, body);
  await waitFor(async () => order.length === 6, { what: 'six messages' });
  t.same(
    order.filter((b) => b.startsWith('a:')),
    ['a:1', 'a:2', 'a:3'],
    "key a's messages in order, though a:1 waited for b",
  );
  t.same(
    order.filter((b) => b.startsWith('b:')),
    ['b:1', 'b:2', 'b:3'],
    "key b's in order",
  );
  t.ok(order.indexOf('b:3') < order.indexOf('a:1'), 'b went on while a:1 was held: keys side by side');
  t.ok(most <= 3, `at most 3 at once (saw ${most})`);
});
