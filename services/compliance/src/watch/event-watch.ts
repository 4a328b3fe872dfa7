// The AML watch: a durable JetStream consumer of the events stream (one durable shared by the
// replicas). Each money event of a br-spa operator is recorded, deduped on its id, and the rules
// run on the player's history, in ONE transaction that also opens or joins the player's case;
// the message is acked only after that commit. A redelivery (crash or restart before the ack)
// finds the event recorded and changes nothing, so a restart neither loses nor double-counts.
// A player's first KYC event has them screened (screening/screening.ts).
import type { NatsConnection } from '@nats-io/transport-node';
import type { JsMsg } from '@nats-io/jetstream';
import {
  EVENT_HEADERS,
  ENVIRONMENTS,
  PLAYER_STATE_SUBJECT,
  eventsStreamName,
  eventsWildcard,
  walletStakesMessages,
  type Environment,
  type PlayerState,
  type WalletLargestWin,
} from '@bo/contracts';
import { crashPoint, ensureEventsStream, groupCommit, startDurableConsumer, type BackgroundTask, type Logger, type Sql } from '@bo/service-kit';
import { depositRulesBySums, evaluateMoneyRules, type Leaving, type MoneyEvent, type RuleHit } from '../domain/rules.ts';
import { thresholdsOf } from '../domain/thresholds.ts';
import { watchedEventOf, type WatchedEvent } from './money-events.ts';
import type { WatchMetrics } from './watch-metrics.ts';
import type { OperatorProfiles } from './operator-profiles.ts';
import type { Screening } from '../screening/screening.ts';
import {
  brandThresholds,
  depositWindows,
  laterWithdrawals,
  lockAndRecordWatched,
  lockAndRecordWatchedMany,
  openOrJoinCase,
  otherPlayersOfDestination,
  playerHistory,
  type PlayerRef,
} from '../store/watch.ts';

export function watchConsumerName(prefix: string): string {
  return `${prefix}_compliance_watch`;
}

export interface EventWatchOptions {
  nc: NatsConnection;
  prefix: string;
  replicas: number;
  sql: Sql;
  log: Logger;
  profiles: OperatorProfiles;
  /** Screens a player first seen in a KYC event (the hook after registration). */
  screening: Pick<Screening, 'screenNewPlayer'>;
  ackWaitMs: number;
  /** Ask another service (the wallet's stakes, the player's state). */
  call<R>(subject: string, body: unknown): Promise<R>;
  /** The watch's metrics (watch-metrics.ts); none in a test that does not read them. */
  metrics?: WatchMetrics;
}

const DAY = 86_400_000;
/** Events watched at once; under the pool's 10 connections, leaving room for the service's other work. */
const WATCH_PARALLEL = 8;
/** Thrown to roll back a batch of in-order judgments when a deposit of it turns out to have come late. */
const CAME_LATE = new Error('the deposit came after later events of the player');

/** The brand and player an event is about (the lane of its handling), or its subject for any other event. */
function playerKeyOf(m: JsMsg): string {
  type Of = { playerId?: unknown };
  try {
    // A deposit or KYC event names the player in data; a deposit.failed in data.deposit; a withdrawal event in data.withdrawal.
    const data = m.json<{ data?: Of & { deposit?: Of; withdrawal?: Of } }>().data ?? {};
    const id = data.playerId ?? data.deposit?.playerId ?? data.withdrawal?.playerId;
    if (typeof id === 'string') return `${m.headers?.get(EVENT_HEADERS.brandId) ?? ''}:${id}`;
  } catch {
    // not JSON: onMessage terminates it
  }
  return m.subject;
}
/** Who the watch's steps name. */
export const WATCH_ACTOR = 'aml-watch';

export function startEventWatch(o: EventWatchOptions): BackgroundTask {
  /** What the player staked in the in-and-out window before a withdrawal (the wallet's answer). */
  async function stakesBefore(p: PlayerRef, at: Date, hours: number): Promise<{ stakes: string; largestWin: WalletLargestWin | null }> {
    const answer = await o.call<{ stakes: string; largestWin?: WalletLargestWin | null }>(walletStakesMessages.stakes.subject, {
      brandId: p.brandId,
      playerId: p.playerId,
      from: new Date(at.getTime() - hours * 3_600_000).toISOString(),
      to: at.toISOString(),
    });
    return { stakes: answer.stakes, largestWin: answer.largestWin ?? null };
  }

  /**
   * Whether the player of a withdrawal is leaving (self-excluded, paused, restricted or closed
   * after an impediment hit), from the players service's state: as it is when the withdrawal is
   * judged, moments after it was asked (a redelivery long after reads a later state).
   */
  async function leavingAt(p: PlayerRef, at: Date): Promise<Leaving | undefined> {
    const s = await o.call<PlayerState>(PLAYER_STATE_SUBJECT, { brandId: p.brandId, playerId: p.playerId });
    if (s.restrictedAt) return 'impeded';
    if (s.status === 'autoexcluido' || s.selfExcluded) return 'self_excluded';
    if (s.rg?.pausedUntil && Date.parse(s.rg.pausedUntil) > at.getTime()) return 'paused';
    return undefined;
  }

  /** What rules 1 and 3 weigh for a withdrawal: the stakes and largest win of its window, and whether its player is leaving. */
  async function withdrawalFacts(p: PlayerRef, at: Date, hours: number) {
    return { ...(await stakesBefore(p, at, hours)), leaving: await leavingAt(p, at) };
  }

  /**
   * Deposits as they normally come, after each player's earlier events, judged in batches of
   * several players (group-commit.ts): one transaction records them all (lockAndRecordWatchedMany)
   * and reads their windows' sums (depositWindows); a player's history is read only when a rule
   * that needs it could hit. Each answer is undefined, with nothing written, when any deposit of
   * the batch came after later events of its player: watch() then judges each one whole.
   */
  const watchDepositInOrder = groupCommit<{ p: PlayerRef; e: MoneyEvent }, RuleHit[] | undefined>({ max: WATCH_PARALLEL }, async (batch) => {
    try {
      const answers = await o.sql.transaction(
        async (tx) => {
          const recorded = await lockAndRecordWatchedMany(tx, batch);
          const fresh = batch.filter(({ e }) => recorded.has(e.eventId));
          const windows = await depositWindows(
            tx,
            fresh.map(({ p, e }) => ({ brandId: p.brandId, playerId: p.playerId, at: e.at })),
          );
          if (windows.some((w) => w.later > 0)) throw CAME_LATE;
          const hitsOf = new Map<string, RuleHit[]>();
          for (const [i, { p, e }] of fresh.entries()) {
            const window = windows[i]!;
            const thresholds = thresholdsOf(window.thresholds ?? undefined);
            const hits =
              depositRulesBySums(e, window, thresholds) ??
              evaluateMoneyRules({
                event: e,
                history: await playerHistory(tx, p.brandId, p.playerId, new Date(e.at.getTime() - 31 * DAY)),
                thresholds,
                otherPlayersOfDestination: [],
              });
            for (const hit of hits) await openOrJoinCase(tx, p, hit, e.eventId, e.at, WATCH_ACTOR);
            hitsOf.set(e.eventId, hits);
          }
          // A redelivery recorded already: nothing to judge again.
          return batch.map(({ e }) => hitsOf.get(e.eventId) ?? []);
        },
        { idempotent: true },
      );
      o.metrics?.countDeposits('in_order', batch.length);
      return answers;
    } catch (err) {
      if (err === CAME_LATE) return batch.map(() => undefined);
      throw err;
    }
  });

  /** Watches one event; throws when it must be tried again (a dependency did not answer). */
  async function watch(p: PlayerRef, e: WatchedEvent): Promise<RuleHit[]> {
    if (e.kind === 'deposit') {
      const inOrder = await watchDepositInOrder({ p, e });
      if (inOrder) return inOrder;
      o.metrics?.countDeposits('whole', 1);
    }
    const thresholds = await brandThresholds(o.sql, p.brandId);
    // The wallet's answers are read before the transaction: no remote call while the player is
    // locked. A deposit that arrives after withdrawals it precedes (a redelivery after a crash)
    // needs their stakes too: they are judged again below.
    const facts = new Map<string, { stakes: string; largestWin: WalletLargestWin | null; leaving: Leaving | undefined }>();
    if (e.kind === 'withdrawal') facts.set(e.eventId, await withdrawalFacts(p, e.at, thresholds.inAndOutHours));
    if (e.kind === 'deposit') {
      for (const w of await laterWithdrawals(o.sql, p.brandId, p.playerId, e.at, thresholds.inAndOutHours)) {
        facts.set(w.eventId, await withdrawalFacts(p, w.at, thresholds.inAndOutHours));
      }
    }
    return o.sql.transaction(
      async (tx) => {
        if (!(await lockAndRecordWatched(tx, p, e))) return [];
        if (e.kind === 'failed_deposit') {
          const hit: RuleHit = {
            rule: 'payer_mismatch',
            summary: `deposit ${e.reference} of ${e.amount} refused: the payer was not the player`,
            facts: { events: [{ id: e.eventId, type: 'deposit.failed', reference: e.reference, amount: e.amount, at: e.at.toISOString() }] },
          };
          await openOrJoinCase(tx, p, hit, e.eventId, e.at, WATCH_ACTOR);
          return [hit];
        }
        const history = await playerHistory(tx, p.brandId, p.playerId, new Date(e.at.getTime() - 31 * DAY));
        const others = e.kind === 'withdrawal' ? await otherPlayersOfDestination(tx, p.brandId, p.playerId, e.destination) : [];
        const hits = evaluateMoneyRules({ event: e, history, thresholds, ...facts.get(e.eventId), otherPlayersOfDestination: others });
        for (const hit of hits) await openOrJoinCase(tx, p, hit, e.eventId, e.at, WATCH_ACTOR);
        // Events normally arrive in order. One that arrives after later events of the player (a
        // redelivery after a crash) was missing from their history when they were judged: each
        // later event within the rules' reach (31 days) is judged again with it, so the hits come
        // out as in order (evidence is kept once per case, rule and event).
        for (const later of history.filter((h) => h.at.getTime() > e.at.getTime() && h.at.getTime() <= e.at.getTime() + 31 * DAY)) {
          const again = evaluateMoneyRules({ event: later, history, thresholds, ...facts.get(later.eventId), otherPlayersOfDestination: [] });
          for (const hit of again) await openOrJoinCase(tx, p, hit, later.eventId, later.at, WATCH_ACTOR);
        }
        return hits;
      },
      { idempotent: true },
    );
  }

  async function onMessage(m: JsMsg): Promise<void> {
    let body: { id: string; type: string; createdAt: string; environment: string; data: unknown };
    try {
      body = m.json();
    } catch {
      m.term('body is not JSON');
      return;
    }
    const valid = typeof body === 'object' && body !== null && typeof body.id === 'string';
    const e = valid ? watchedEventOf(body) : undefined;
    const kycPlayer = valid && body.type === 'kyc.status_changed' ? (body.data as { playerId?: string }).playerId : undefined;
    if (!e && !kycPlayer) {
      m.ack();
      return;
    }
    const operatorId = m.headers?.get(EVENT_HEADERS.operatorId) ?? '';
    const brandId = m.headers?.get(EVENT_HEADERS.brandId) ?? '';
    if (!operatorId || !brandId || !ENVIRONMENTS.includes(body.environment as Environment)) {
      o.log.error({ subject: m.subject, seq: m.seq }, 'event without routing; not watched');
      m.term('routing missing');
      return;
    }
    const environment = body.environment as Environment;
    try {
      if ((await o.profiles.profileOf(operatorId)) === 'br-spa') {
        if (e) await watch({ operatorId, brandId, environment, playerId: e.playerId }, e);
        else await o.screening.screenNewPlayer({ operatorId, brandId, environment, playerId: kycPlayer! });
      }
    } catch (err) {
      o.log.warn({ err, eventId: body.id }, 'could not watch event; it will be redelivered');
      m.nak(1000);
      return;
    }
    crashPoint('compliance.watch.after-commit');
    m.ack();
    o.metrics?.observeLag(body.createdAt);
  }

  return startDurableConsumer({
    name: 'aml watch',
    nc: o.nc,
    consumer: {
      stream: eventsStreamName(o.prefix),
      name: watchConsumerName(o.prefix),
      filterSubject: eventsWildcard(o.prefix),
      ackWaitMs: o.ackWaitMs,
      maxAckPending: 1000,
      replicas: o.replicas,
    },
    ensureStream: () => ensureEventsStream(o.nc, o.prefix, o.replicas),
    maxMessages: 64,
    onMessage,
    // Players side by side, each player's events in order (the rules read the player's history
    // under the player's lock; an event out of order is judged again with it, see watch()).
    inParallel: { max: WATCH_PARALLEL, keyOf: playerKeyOf },
    log: o.log,
  });
}
