// coalesceWrites against a real nats-server: what several callbacks of one event-loop turn publish
// leaves in one socket write, every message still arrives in order, and nothing queued is lost
// when the connection closes right after a publish.
import t from 'tap';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { coalesceWrites } from '../src/index.ts';
import { testNatsUrl, testPrefix } from '../src/testing.ts';

/** Counts the writes the connection's transport makes (nats.js internals, as coalesceWrites uses them). */
function countWrites(nc: NatsConnection): () => number {
  const transport = (nc as unknown as { protocol: { transport: { send(frame: Uint8Array): void } } }).protocol.transport;
  const send = transport.send.bind(transport);
  let writes = 0;
  transport.send = (frame) => {
    writes++;
    send(frame);
  };
  return () => writes;
}

/**
 * Publishes `n` messages, each from its own callback of one turn of the event loop (immediates
 * queued together run in one check phase, microtasks drained after each, as I/O callbacks do).
 */
function publishFromSeparateCallbacks(nc: NatsConnection, subject: string, n: number): Promise<void> {
  return new Promise((resolve) => {
    let done = 0;
    for (let i = 0; i < n; i++) {
      setImmediate(() => {
        nc.publish(subject, String(i));
        if (++done === n) resolve();
      });
    }
  });
}

async function receive(nc: NatsConnection, subject: string, n: number): Promise<() => Promise<string[]>> {
  const sub = nc.subscribe(subject, { max: n });
  await nc.flush();
  return async () => {
    const got: string[] = [];
    for await (const m of sub) got.push(m.string());
    return got;
  };
}

t.test('coalesceWrites: one write per event-loop turn, every message delivered in order', async (t) => {
  const subject = `${testPrefix('kitw')}.writes`;
  const reader = await connect({ servers: testNatsUrl() });
  const writer = await connect({ servers: testNatsUrl() });
  t.teardown(async () => {
    await writer.close();
    await reader.close();
  });
  t.equal(coalesceWrites(writer), true, "nats.js' internals have the shape it relies on");
  await writer.flush();

  const received = await receive(reader, subject, 5);
  const writes = countWrites(writer);
  await publishFromSeparateCallbacks(writer, subject, 5);
  await writer.flush();
  t.equal(writes(), 1, 'five publishes from five callbacks of one turn, and the PING of the flush, in one write');
  t.same(await received(), ['0', '1', '2', '3', '4'], 'all five arrive, in order');

  // A request and its reply still work through the deferred writes.
  const replier = writer.subscribe(`${subject}.echo`, {
    callback: (_e, m) => {
      m.respond(`echo ${m.string()}`);
    },
  });
  await writer.flush();
  const reply = await reader.request(`${subject}.echo`, 'x', { timeout: 10_000 });
  t.equal(reply.string(), 'echo x');
  replier.unsubscribe();
});

t.test('without coalesceWrites the same publishes take one write each (what it saves)', async (t) => {
  const subject = `${testPrefix('kitw')}.plain`;
  const plain = await connect({ servers: testNatsUrl() });
  t.teardown(() => plain.close());
  await plain.flush();
  const writes = countWrites(plain);
  await publishFromSeparateCallbacks(plain, subject, 5);
  await plain.flush();
  t.equal(writes(), 6, 'five publishes and the PING, six writes');
});

t.test('a publish just before close() is written, not lost', async (t) => {
  const subject = `${testPrefix('kitw')}.close`;
  const reader = await connect({ servers: testNatsUrl() });
  t.teardown(() => reader.close());
  const writer = await connect({ servers: testNatsUrl() });
  coalesceWrites(writer);
  const received = await receive(reader, subject, 1);
  writer.publish(subject, 'last words');
  await writer.close();
  t.same(await received(), ['last words']);
});

t.test('coalesceWrites leaves a connection it does not recognise alone', async (t) => {
  t.equal(coalesceWrites({} as NatsConnection), false);
  t.equal(coalesceWrites({ protocol: { flushPending() {} } } as unknown as NatsConnection), false);
});
