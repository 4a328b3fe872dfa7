// The harm feed (issue #68): durable consumers of its own on the events stream (deposits,
// withdrawals, players' events: JetStream 2.9 filters a consumer on one subject), shared by the
// replicas. Each deposit, declined deposit, cancelled withdrawal, limit the player loosened and
// refusal by a limit, of any operator's player (both environments, apart: a player is of one), is
// counted once into the player's day in the operator's time zone, and the player marked for
// assessment, in ONE statement (atomic on its own): a redelivery counts nothing. A deposit is also
// counted as one after a loss when the wallet says the player's play in the operator's
// `chasingMinutes` before it ended in a loss (one question per batch). The message is
// acked after that statement. The assessments loop (harm-assessments.ts) assesses each marked
// player once, however many events came.
//
// Why its own consumers, pulling hundreds at a time: nothing waits on a count (a player is assessed
// once a minute), so a batch waits up to HARM_FEED_WINDOW_MS for company and a statement counts
// hundreds of events. Counted in the AML watch's batches of at most eight, each deposit paid most of
// a statement: 12% of the bench's deposits (docs/benchmarks.md).
import type { NatsConnection } from '@nats-io/transport-node';
import type { JsMsg } from '@nats-io/jetstream';
import { Histogram, type Registry } from 'prom-client';
import { ENVIRONMENTS, EVENT_HEADERS, eventsStreamName, harmPlayMessages, type Environment } from '@bo/contracts';
import {
  crashPoint,
  ensureEventsStream,
  groupCommit,
  startDurableConsumer,
  type BackgroundTask,
  type Logger,
  type ServiceDeps,
  type Sql,
} from '@bo/service-kit';
import { localDateOf } from '../domain/business-days.ts';
import { countHarmEvents, storedHarmThresholds, type HarmEventToCount } from '../store/harm.ts';
import { harmThresholdsOf } from './harm-thresholds.ts';
import type { OperatorProfiles } from '../watch/operator-profiles.ts';
import type { EventBody } from '../watch/money-events.ts';
import { harmEventOf } from './harm-events.ts';

/** The events each consumer reads: `<prefix>.events.<environment>.<type>`. */
const FEEDS = [
  { name: 'deposits', types: 'deposit.*' },
  { name: 'withdrawals', types: 'withdrawal.*' },
  // A player's limits raised, removed and reached (and the player's other events, few, acked unread).
  { name: 'players', types: 'player.>' },
] as const;

export function harmFeedConsumerNames(prefix: string): string[] {
  return FEEDS.map((f) => `${prefix}_compliance_harm_${f.name}`);
}

/** Most events one statement counts (and messages in hand per consumer). */
const HARM_BATCH = 500;

export interface HarmFeedOptions {
  nc: NatsConnection;
  prefix: string;
  replicas: number;
  sql: Sql;
  /** The wallet's read of the play before each deposit (the chasing marker's deposits after a loss). */
  call: ServiceDeps['call'];
  log: Logger;
  profiles: Pick<OperatorProfiles, 'complianceOf'>;
  ackWaitMs: number;
  /** How long the first event of a batch waits for others before it is counted. */
  windowMs: number;
  /** harmFeedMetrics(): told each statement's events. */
  batchSize: Pick<Histogram, 'observe'>;
}

/** The feed's histogram of events per statement: registered whether the feed runs or not (a series listed is always there). */
export function harmFeedMetrics(registry: Registry): Histogram {
  return new Histogram({
    name: 'bo_harm_feed_batch_events',
    help: 'Events the harm feed counted in one statement',
    buckets: [1, 8, 32, 128, 500],
    registers: [registry],
  });
}

export function startHarmFeed(o: HarmFeedOptions): BackgroundTask[] {
  /**
   * The batch's deposits made within their operator's `chasingMinutes` of play that ended in a loss:
   * one question to the wallet for the whole batch (it holds the rounds' entries).
   */
  async function depositsAfterLoss(items: readonly HarmEventToCount[]): Promise<Set<string>> {
    const deposits = items.filter((i) => i.e.kind === 'deposit');
    if (deposits.length === 0) return new Set();
    const set = await storedHarmThresholds(
      o.sql,
      deposits.map((d) => d.p.operatorId),
    );
    const asked = {
      deposits: deposits.map((d) => ({
        brandId: d.p.brandId,
        playerId: d.p.playerId,
        at: d.e.at.toISOString(),
        minutes: harmThresholdsOf(set.get(d.p.operatorId)).chasingMinutes,
      })),
    };
    try {
      const { afterLoss } = await o.call<{ afterLoss: boolean[] }>(harmPlayMessages.lossesBefore.subject, asked);
      return new Set(deposits.filter((_, i) => afterLoss[i]).map((d) => d.e.eventId));
    } catch (err) {
      // The deposits still count: a wallet that cannot answer (it credits every deposit, so this is rare)
      // costs the chasing marker these deposits, never the deposits themselves.
      o.log.warn({ err, deposits: deposits.length }, 'the wallet did not say which deposits came after a loss; counted without');
      return new Set();
    }
  }

  // One batcher for the three consumers: the events of one second share a statement, whatever their kind.
  const count = groupCommit<HarmEventToCount, void>({ max: HARM_BATCH, windowMs: o.windowMs }, async (items) => {
    o.batchSize.observe(items.length);
    const afterLoss = await depositsAfterLoss(items);
    // One statement, its own transaction (its locks held to its end): no begin and commit to wait for.
    await countHarmEvents(o.sql, items, afterLoss);
    return items.map(() => undefined);
  });

  async function onMessage(m: JsMsg): Promise<void> {
    let body: EventBody & { environment?: unknown };
    try {
      body = m.json();
    } catch {
      m.term('body is not JSON');
      return;
    }
    const e = typeof body === 'object' && body !== null && typeof body.id === 'string' ? harmEventOf(body) : undefined;
    if (!e) {
      m.ack();
      return;
    }
    const operatorId = m.headers?.get(EVENT_HEADERS.operatorId) ?? '';
    const brandId = m.headers?.get(EVENT_HEADERS.brandId) ?? '';
    if (!operatorId || !brandId || !ENVIRONMENTS.includes(body.environment as Environment)) {
      o.log.error({ subject: m.subject, seq: m.seq }, 'event without routing; not counted');
      m.term('routing missing');
      return;
    }
    try {
      const { timeZone } = await o.profiles.complianceOf(operatorId);
      const p = { operatorId, brandId, environment: body.environment as Environment, playerId: e.playerId };
      await count({ p, e, day: localDateOf(e.at, timeZone) });
    } catch (err) {
      o.log.warn({ err, eventId: body.id }, 'could not count event for the harm feed; it will be redelivered');
      m.nak(1000);
      return;
    }
    crashPoint('compliance.harm.after-count');
    m.ack();
  }

  const names = harmFeedConsumerNames(o.prefix);
  return FEEDS.map((feed, i) =>
    startDurableConsumer({
      name: `harm feed (${feed.name})`,
      nc: o.nc,
      consumer: {
        stream: eventsStreamName(o.prefix),
        name: names[i]!,
        filterSubject: `${o.prefix}.events.*.${feed.types}`,
        ackWaitMs: o.ackWaitMs,
        maxAckPending: 4 * HARM_BATCH,
        replicas: o.replicas,
      },
      ensureStream: () => ensureEventsStream(o.nc, o.prefix, o.replicas),
      maxMessages: HARM_BATCH,
      onMessage,
      // Counting is a sum: no order to keep, every message in hand waits in the batch at once.
      inParallel: { max: 2 * HARM_BATCH, keyOf: (m) => String(m.seq) },
      log: o.log,
    }),
  );
}
