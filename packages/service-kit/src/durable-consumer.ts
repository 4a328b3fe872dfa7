// The one way a service consumes a durable JetStream consumer: make sure the stream and the
// consumer exist, consume, hand each message to `onMessage` in order (awaited, so a slow handler
// holds the next), and, when the consumer is lost (deleted, its stream gone) or anything fails,
// start again on the kit's loop (loop.ts): after `restartMs`, doubled per failure in a row up to
// `maxRestartMs`. `stop()` stops consuming, waits for the message being handled and hands back
// (nak) those pulled but not handled yet. Readiness reads `problem()`: unready until consuming, and
// while it is being restarted.
import type { NatsConnection } from '@nats-io/transport-node';
import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager, type ConsumerMessages, type JsMsg } from '@nats-io/jetstream';
import { startLoop } from './loop.ts';
import { SpanKind } from '@opentelemetry/api';
import { withLogContext, type Logger } from './log.ts';
import { REQUEST_ID_HEADER, withSpanFrom } from './telemetry.ts';
import type { BackgroundTask } from './service.ts';

export interface DurableConsumerConfig {
  stream: string;
  /** The durable name, shared by every replica (they share its messages). */
  name: string;
  filterSubject: string;
  /** How long a delivered message may stay unacknowledged before JetStream sends it again. */
  ackWaitMs: number;
  maxAckPending?: number;
  /** JetStream replicas of the consumer (NATS_REPLICAS): as many as its stream, so its position survives a node loss. */
  replicas: number;
}

/** Creates the durable consumer (explicit acks, from the stream's start, redelivered forever) unless it exists. */
async function ensureDurableConsumer(nc: NatsConnection, c: DurableConsumerConfig): Promise<void> {
  const jsm = await jetstreamManager(nc);
  try {
    await jsm.consumers.add(c.stream, {
      durable_name: c.name,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      filter_subject: c.filterSubject,
      ack_wait: c.ackWaitMs * 1_000_000,
      max_deliver: -1,
      ...(c.maxAckPending !== undefined ? { max_ack_pending: c.maxAckPending } : {}),
      num_replicas: c.replicas,
    });
  } catch (e) {
    // Another replica created it first (or it exists from an earlier run).
    await jsm.consumers.info(c.stream, c.name).catch(() => {
      throw e;
    });
  }
}

export interface DurableConsumerOptions {
  /** What the logs and readiness call it ("events consumer"). */
  name: string;
  nc: NatsConnection;
  consumer: DurableConsumerConfig;
  /** Makes sure the stream exists (the consumer is made sure of after it); run before every (re)start. */
  ensureStream(): Promise<void>;
  /** Messages pulled at a time. */
  maxMessages: number;
  onMessage(m: JsMsg): Promise<void> | void;
  /**
   * Handle up to `max` messages at once, those of one `keyOf` (a player, say) one after another in
   * stream order. Without it, one at a time. A handler that throws here has its message redelivered
   * (nak) and the others go on; handlers should settle their own messages.
   */
  inParallel?: { max: number; keyOf(m: JsMsg): string };
  log: Logger;
  /** First restart after this (default 1 s); doubled per failure in a row, at most `maxRestartMs` (default 15 s). */
  restartMs?: number;
  maxRestartMs?: number;
}

/**
 * Runs a message's handling in a consumer span, child of the trace the message's headers carry
 * (outbox.ts), with the request id they carry on every log line.
 */
function handleInContext(name: string, m: JsMsg, fn: () => Promise<void> | void): Promise<void> {
  const carrier: Record<string, string> = {};
  for (const [k, v] of m.headers ?? []) if (v[0] !== undefined) carrier[k.toLowerCase()] = v[0];
  const requestId = carrier[REQUEST_ID_HEADER];
  return withLogContext(requestId ? { requestId } : {}, () =>
    withSpanFrom(`consume ${m.subject}`, SpanKind.CONSUMER, carrier, async () => fn(), {
      'messaging.system': 'nats',
      'messaging.destination.name': m.subject,
      'messaging.operation.type': 'process',
      'messaging.operation.name': 'consume',
      'messaging.consumer.group.name': name,
    }),
  );
}

/**
 * Runs tasks at most `max` at a time, those of one key in the order added. `add` resolves once the
 * task is under way or queued behind its key and a slot is free (the caller's back-pressure).
 */
function keyedLanes(max: number) {
  const running = new Set<Promise<void>>();
  const tails = new Map<string, Promise<void>>();
  return {
    async add(key: string, task: () => Promise<void>): Promise<void> {
      // A task settles its own errors (the consumer's wrapper logs and naks); whatever still escapes
      // must not stop the key's lane or reject the caller's wait.
      const run = (tails.get(key) ?? Promise.resolve()).then(task).catch(() => undefined);
      tails.set(key, run);
      running.add(run);
      void run.finally(() => {
        running.delete(run);
        if (tails.get(key) === run) tails.delete(key);
      });
      while (running.size >= max) await Promise.race(running);
    },
    async drain(): Promise<void> {
      await Promise.all(running);
    },
  };
}

export function startDurableConsumer(o: DurableConsumerOptions): BackgroundTask {
  const js = jetstream(o.nc);
  let stopped = false;
  let state: string | undefined = 'not consuming yet';
  let messages: ConsumerMessages | undefined;

  async function consumeUntilLost(): Promise<void> {
    try {
      await o.ensureStream();
      await ensureDurableConsumer(o.nc, o.consumer);
      const consumer = await js.consumers.get(o.consumer.stream, o.consumer.name);
      const current = await consumer.consume({ max_messages: o.maxMessages });
      messages = current;
      // stop() may have run while the consumer was being set up.
      if (stopped) current.stop();
      state = undefined;
      void (async () => {
        for await (const s of await current.status()) {
          if (s.type === 'consumer_deleted' || s.type === 'consumer_not_found' || s.type === 'stream_not_found') {
            o.log.warn({ status: s.type }, `${o.name} lost; recreating it`);
            current.stop();
            return;
          }
        }
      })().catch(() => undefined);
      const lanes = o.inParallel ? keyedLanes(o.inParallel.max) : undefined;
      for await (const m of current) {
        // Stopping: what was pulled but not handled goes back at once, for another replica.
        if (stopped) m.nak();
        else if (!lanes) await handleInContext(o.name, m, () => o.onMessage(m));
        else {
          await lanes.add(o.inParallel!.keyOf(m), () =>
            handleInContext(o.name, m, () => o.onMessage(m)).catch((err) => {
              o.log.warn({ err, subject: m.subject, seq: m.seq }, `${o.name}: handling failed; redelivered`);
              m.nak(1000);
            }),
          );
        }
      }
      await lanes?.drain();
      state = `${o.name} lost; recreating it`;
    } catch (err) {
      state = `${o.name} failed: ${(err as Error).message}; restarting`;
      throw err;
    }
  }

  const loop = startLoop({
    name: o.name,
    intervalMs: o.restartMs ?? 1000,
    maxBackoffMs: o.maxRestartMs ?? 15_000,
    log: o.log,
    run: consumeUntilLost,
  });
  return {
    name: o.name,
    problem: () => state,
    async stop() {
      stopped = true;
      messages?.stop();
      await loop.stop();
    },
  };
}
