// A stream the server refuses to create fails the start with everything the server said (a clean-clone
// run once failed there with a JetStream API error whose message was empty, so nobody could tell why).
// Here a stream of another name already takes the events' subjects: the server answers 10065.
import t from 'tap';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { eventsWildcard } from '@bo/contracts';
import { ensureEventsStream } from '../src/index.ts';
import { cleanupNatsPrefix, testNatsUrl, testPrefix } from '../src/testing.ts';

t.test("a refused stream: the server's code and description in the error", async (t) => {
  const prefix = testPrefix('refused');
  const nc = await connect({ servers: testNatsUrl() });
  const jsm = await jetstreamManager(nc);
  const squatter = `${prefix}_SQUATTER`;
  await jsm.streams.add({ name: squatter, subjects: [eventsWildcard(prefix)] });
  t.teardown(async () => {
    await jsm.streams.delete(squatter).catch(() => undefined);
    await cleanupNatsPrefix(prefix);
    await nc.close();
  });
  const refused = await ensureEventsStream(nc, prefix, 1).then(
    () => undefined,
    (e: Error) => e,
  );
  t.match(refused?.message, /^creating the stream \S+ was refused: subjects overlap with an existing stream; the server said \{.*"err_code":10065/);
  t.equal((refused?.cause as { code?: number } | undefined)?.code, 10065, 'the API error stays the cause');
});
