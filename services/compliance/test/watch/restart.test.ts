// The watch and the harm feed across crashes, as a real process: killed after the watch's commit and
// before its ack (its crash point), then after the harm feed's count and before its acks (its own),
// then at a random moment mid-stream, and started again each time. Every event is counted exactly
// once: the recorded events, the case, its evidence, the player's risk history and harm days come out
// the same as one uninterrupted run.
import t from 'tap';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { jetstreamManager } from '@nats-io/jetstream';
import { eventsStreamName } from '@bo/contracts';
import { playersService } from '@bo/players';
import { adminScope, ok, operatorScope, startStack } from '@bo/test-support';
import { spawnServiceProcess, testNatsUrl, waitFor } from '@bo/service-kit/testing';
import { watchConsumerName } from '../../src/watch/event-watch.ts';
import { harmFeedConsumerNames } from '../../src/harm/harm-feed.ts';
import { publishMoneyEvent } from '../support/events.ts';

const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));
const EVENTS = 20;

t.test('a killed and restarted watch and harm feed neither lose nor double-count an event', async (t) => {
  const s = await startStack(t, 'amlrestart', [playersService]);
  const db = new pg.Client({ connectionString: s.databaseUrl });
  await db.connect();
  t.teardown(() => db.end());
  const n = async (q: string) => Number((await db.query(q)).rows[0].n);
  const env = {
    DATABASE_URL: s.databaseUrl,
    NATS_URL: testNatsUrl(),
    NATS_PREFIX: s.prefix,
    PROFILE_CACHE_MS: 0,
    WATCH_ACK_WAIT_MS: 2000,
    LOG_LEVEL: 'info',
    HARM_FEED: 'true',
    HARM_FEED_WINDOW_MS: 100,
  };

  const op = operatorScope('rst', 'production');
  ok(
    await s.call('players.admin.setCompliance', {
      scope: adminScope,
      params: { id: op.operatorId },
      body: { profile: 'br-spa', reason: 'the operator is licensed in Brazil' },
    }),
  );
  const player = 'plr_restart_watch';
  // Twenty deposits just under the split threshold within an hour: the 5th to the 20th each hit.
  const start = Date.now() - 3_600_000;
  for (let i = 0; i < EVENTS; i++) {
    await publishMoneyEvent(s.nc, s.prefix, op, { type: 'deposit.confirmed', playerId: player, amount: '9500.00', at: new Date(start + i * 60_000) });
  }

  // The harm feed's batch waits a minute here: the process dies at the watch's first commit, before any count.
  const first = await spawnServiceProcess('compliance', MAIN, { ...env, HARM_FEED_WINDOW_MS: 60_000, CRASH_AT: 'compliance.watch.after-commit' });
  t.teardown(() => first.stop());
  const died = await first.exited;
  t.equal(died.signal, 'SIGKILL', 'the first process died at the crash point (committed, not acked)');
  t.equal(await n(`select count(*)::int as n from compliance.harm_events`), 0, 'the harm feed had counted nothing');

  const harmCrash = await spawnServiceProcess('compliance', MAIN, { ...env, CRASH_AT: 'compliance.harm.after-count' });
  t.teardown(() => harmCrash.stop());
  t.equal((await harmCrash.exited).signal, 'SIGKILL', "the next died at the harm feed's crash point (counted, not acked)");
  t.ok((await n(`select count(*)::int as n from compliance.harm_events`)) > 0, 'after counting a batch');

  const second = await spawnServiceProcess('compliance', MAIN, env);
  t.teardown(() => second.stop());
  await waitFor(async () => (await n(`select count(*)::int as n from compliance.watched_money`)) >= 8, { what: 'a part of the stream watched' });
  second.kill('SIGKILL');
  await second.exited;

  const third = await spawnServiceProcess('compliance', MAIN, env);
  t.teardown(() => third.stop());
  const jsm = await jetstreamManager(s.nc);
  await waitFor(
    async () => {
      for (const name of [watchConsumerName(s.prefix), ...harmFeedConsumerNames(s.prefix)]) {
        const info = await jsm.consumers.info(eventsStreamName(s.prefix), name);
        if (info.num_pending > 0 || info.num_ack_pending > 0) return false;
      }
      return true;
    },
    { what: 'every event acked' },
  );

  t.equal(await n(`select count(*)::int as n from compliance.watched_money`), EVENTS, 'each event recorded once');
  t.equal(await n(`select count(*)::int as n from compliance.cases`), 1, 'one case');
  t.equal(await n(`select count(*)::int as n from compliance.case_evidence`), EVENTS - 4, 'one piece of evidence per hitting deposit (the 5th to the 20th)');
  t.equal(await n(`select count(*)::int as n from compliance.case_steps`), 1, 'opened once');
  t.equal(await n(`select count(*)::int as n from compliance.player_risk_history`), 1, 'the risk raised once');
  t.same(
    // Summed over days: the hour may cross midnight in the operator's time zone.
    (await db.query(`select sum(deposits)::int as deposits, sum(deposit_sum)::text as sum from compliance.harm_days where player_id = $1`, [player])).rows,
    [{ deposits: EVENTS, sum: `${9500 * EVENTS}.00` }],
    "each deposit counted once into the player's harm day",
  );
  // Judged as in order whatever order the redeliveries came in: the 5th to the 20th deposit hit.
  const hitBy = await db.query(
    `select w.occurred_at from compliance.case_evidence e join compliance.watched_money w on w.event_id = e.event_id order by w.occurred_at`,
  );
  t.same(
    hitBy.rows.map((r: { occurred_at: Date }) => (new Date(r.occurred_at).getTime() - start) / 60_000),
    Array.from({ length: EVENTS - 4 }, (_, i) => i + 4),
    'the evidence is exactly the 5th to the 20th deposit',
  );
});
