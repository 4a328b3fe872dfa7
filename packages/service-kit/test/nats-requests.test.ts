// settledRequestsEndQuietly against a real nats-server: answered requests end with one shared
// error (no Error built per request), and a request that ends before its answer (no responder,
// a timeout, a closed connection) is still rejected with an error of its own.
import t from 'tap';
import { connect } from '@nats-io/transport-node';
import { RequestOne } from '@nats-io/nats-core/internal';
import { settledRequestsEndQuietly } from '../src/nats.ts';
import { testNatsUrl, testPrefix } from '../src/testing.ts';

// Every error the library's cancel receives, recorded beneath the change (installed first, so the
// change wraps it): what the original cancel would build or was handed.
const proto = (RequestOne as unknown as { prototype: { cancel(err?: Error): void } }).prototype;
const libraryCancel = proto.cancel;
const handed: (Error | undefined)[] = [];
proto.cancel = function (this: unknown, err?: Error) {
  handed.push(err);
  libraryCancel.call(this, err);
};

t.test('answered requests share one error; unanswered ones keep their own', async (t) => {
  t.equal(settledRequestsEndQuietly(), true, "nats.js' internals have the shape it relies on");
  t.equal(settledRequestsEndQuietly(), true, 'a second call changes nothing more');
  const nc = await connect({ servers: testNatsUrl(), noAsyncTraces: true });
  t.teardown(() => nc.close());
  const subject = `${testPrefix('reqs')}.echo`;
  nc.subscribe(subject, {
    callback: (_err, m) => {
      m.respond(`re:${m.string()}`);
    },
  });
  await nc.flush();

  handed.length = 0;
  const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => nc.request(subject, String(i), { timeout: 5000 })));
  t.same(
    answers.map((m) => m.string()),
    Array.from({ length: 20 }, (_, i) => `re:${i}`),
    'every request gets its own answer',
  );
  t.equal(handed.length, 20, 'each answered request was ended once');
  t.ok(handed[0] instanceof Error && handed[0].message === 'cancelled', 'with the library’s own kind of error');
  t.ok(
    handed.every((e) => e === handed[0]),
    'the same error instance each time: none built per request',
  );

  // What the caller sees when the request ends without an answer: an error of its own.
  const shared = handed[0];
  const failure = (p: Promise<unknown>) =>
    p.then(
      () => undefined,
      (err: unknown) => err as Error,
    );
  const noResponder = await failure(nc.request(`${testPrefix('reqs')}.nobody`, 'x', { timeout: 5000 }));
  t.ok(noResponder instanceof Error && noResponder !== shared, `no responder: rejected with its own error (${noResponder?.message})`);
  const quiet = `${testPrefix('reqs')}.silent`;
  nc.subscribe(quiet, { callback: () => undefined });
  await nc.flush();
  const timedOut = await failure(nc.request(quiet, 'x', { timeout: 200 }));
  t.ok(timedOut instanceof Error && timedOut !== shared && /timeout/i.test(timedOut.message), `no answer in time: a timeout (${timedOut?.message})`);

  const closing = await connect({ servers: testNatsUrl(), noAsyncTraces: true });
  const silent = `${testPrefix('reqs')}.closing`;
  closing.subscribe(silent, { callback: () => undefined });
  await closing.flush();
  const pending = closing.request(silent, 'x', { timeout: 30_000 });
  await closing.close();
  const closed = await failure(pending);
  t.ok(closed instanceof Error && closed !== shared, `a request pending when its connection closes is rejected (${closed?.message})`);
});
