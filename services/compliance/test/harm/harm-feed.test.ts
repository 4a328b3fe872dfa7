// The harm feed through its own consumers (issue #68): events on the real events stream, the players
// service answering the operator's profile and time zone, the compliance service counting each
// event once into the player's day and keeping the level with each change of it.
import t from 'tap';
import pg from 'pg';
import type { NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { Value } from '@sinclair/typebox/value';
import {
  EVENT_HEADERS,
  domainEventSchema,
  eventsStreamName,
  newId,
  type DomainEvent,
  type HarmThresholds,
  type OperatorHarmThresholds,
  type OperatorScope,
} from '@bo/contracts';
import { playersService } from '@bo/players';
import { adminScope, createPlayer, errorOf, ok, operatorScope, startStack } from '@bo/test-support';
import { waitFor } from '@bo/service-kit/testing';
import { complianceService } from '../../src/service.ts';
import { publishEvent, publishMoneyEvent as publish } from '../support/published-events.ts';

/** Every `player.risk_level_changed` on the events stream, oldest first (what the webhooks service delivers). */
async function levelChanges(nc: NatsConnection, prefix: string): Promise<Array<{ event: DomainEvent<'player.risk_level_changed'>; brandId?: string }>> {
  const stream = eventsStreamName(prefix);
  const total = (await (await jetstreamManager(nc)).streams.info(stream)).state.messages;
  const consumer = await jetstream(nc).consumers.get(stream);
  const out: Array<{ event: DomainEvent<'player.risk_level_changed'>; brandId?: string }> = [];
  for (let read = 0; read < total; read++) {
    // A ceiling for a message the stream holds (it comes at once), not a pace.
    const m = await consumer.next({ expires: 30_000 });
    if (!m) throw new Error(`expected ${total} events, read ${read}`);
    const event = m.json<DomainEvent>();
    if (event.type === 'player.risk_level_changed')
      out.push({ event: event as DomainEvent<'player.risk_level_changed'>, brandId: m.headers?.get(EVENT_HEADERS.brandId) });
  }
  return out;
}

t.test('the harm feed counts each event once into its day and keeps each change of level', async (t) => {
  const s = await startStack(t, 'harmfeed', [playersService]);
  const db = new pg.Client({ connectionString: s.databaseUrl });
  await db.connect();
  t.teardown(() => db.end());
  const rows = async (q: string, params: unknown[]) => (await db.query(q, params)).rows;
  const counted = (playerId: string, n: number) =>
    waitFor(async () => Number((await rows('select count(*)::int as n from compliance.harm_events where player_id = $1', [playerId]))[0].n) >= n, {
      what: `${n} events of ${playerId} counted`,
    });

  // An operator on the default profile: the AML watch leaves it alone, the harm feed does not.
  const op = operatorScope('harm', 'production');
  const player = `plr_harm_${newId('event').slice(-8)}`;
  const today = new Date();
  const noonUtc = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate(), 15));

  // Forty deposits of two players waiting on the stream when the service starts: its consumers pull them
  // at once and count them together, in fewer statements than events.
  const waiting = [`plr_harmb_${newId('event').slice(-8)}`, `plr_harmc_${newId('event').slice(-8)}`];
  for (const playerId of waiting) {
    for (let i = 0; i < 20; i++) await publish(s.nc, s.prefix, op, { kind: 'deposit', playerId, amount: '10.00', at: noonUtc });
  }
  // The counted players assessed every 50 ms (a minute by default); a batch waits 300 ms for company (a second by default).
  await s.start(complianceService, { PROFILE_CACHE_MS: 0, HARM_FEED: true, HARM_ASSESS_INTERVAL_MS: 50, HARM_FEED_WINDOW_MS: 300 });
  for (const playerId of waiting) await counted(playerId, 20);
  t.same(
    await rows('select deposits, deposit_sum::text as sum from compliance.harm_days where player_id = any($1) order by player_id', [waiting]),
    [
      { deposits: 20, sum: '200.00' },
      { deposits: 20, sum: '200.00' },
    ],
    'every waiting deposit counted once',
  );
  const batches = await s.services.get('compliance')!.metrics.getSingleMetricAsString('bo_harm_feed_batch_events');
  const statements = Number(/bo_harm_feed_batch_events_count(?:{[^}]*})? (\d+)/.exec(batches)?.[1]);
  t.equal(Number(/bo_harm_feed_batch_events_sum(?:{[^}]*})? (\d+)/.exec(batches)?.[1]), 40, 'the feed counted the forty events');
  t.ok(statements < 40, `in fewer statements than events (${statements})`);
  // 02:00 UTC is 23:00 of the day before in São Paulo (the profile's time zone).
  const lateNight = new Date(noonUtc.getTime() - 13 * 3_600_000);
  const saoPauloDay = (d: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(d);

  // The methods as operators name them: `PIX` and `pix` are one method (the payment_methods marker counts them).
  const first = await publish(s.nc, s.prefix, op, { kind: 'deposit', playerId: player, amount: '100.00', at: noonUtc, method: 'PIX' });
  await publish(s.nc, s.prefix, op, { kind: 'deposit', playerId: player, amount: '50.50', at: noonUtc, method: 'debit_card ' });
  await publish(s.nc, s.prefix, op, { kind: 'deposit', playerId: player, amount: '20.00', at: lateNight });
  // The first deposit again under another message id: JetStream takes it, the feed must not count it.
  await publish(s.nc, s.prefix, op, { id: first, msgId: newId('event'), kind: 'deposit', playerId: player, amount: '100.00', at: noonUtc, method: 'PIX' });
  await counted(player, 3);
  const marker = await publish(s.nc, s.prefix, op, { kind: 'failed_deposit', playerId: player, amount: '10.00', at: noonUtc });
  await counted(player, 4);
  await waitFor(async () => (await rows('select 1 from compliance.harm_events where event_id = $1', [marker])).length === 1, {
    what: 'the marker event counted',
  });

  t.same(
    await rows(
      'select day, deposits, deposit_sum::text as sum, failed_deposits as failed, deposit_methods as methods from compliance.harm_days where player_id = $1 order by day',
      [player],
    ),
    [
      { day: saoPauloDay(lateNight), deposits: 1, sum: '20.00', failed: 0, methods: ['pix'] },
      { day: saoPauloDay(noonUtc), deposits: 2, sum: '150.50', failed: 1, methods: ['debit_card', 'pix'] },
    ],
    "each event once, on its day in the operator's time zone (02:00 UTC is the day before in São Paulo), with the day's payment methods, each once (a declined deposit's too)",
  );
  t.equal(
    (await rows('select count(*)::int as n from compliance.watched_money where player_id = $1', [player]))[0].n,
    0,
    'the AML watch left a default-profile operator alone',
  );
  const assessed = (playerId: string) =>
    waitFor(async () => (await rows('select 1 from compliance.harm_pending where player_id = $1', [playerId])).length === 0, {
      what: `${playerId} assessed since its last event`,
    });
  await assessed(player);
  t.same(await rows('select level from compliance.harm_levels where player_id = $1', [player]), [], 'no marker: no level kept');

  // A registered player (the operator reads its level): two cancelled withdrawals (weight 2: low), then
  // three failed deposits in all (weight 1 more: medium).
  const other = await createPlayer(s.call, op);
  const levelOf = (scope: OperatorScope, playerId: string) => s.call('compliance.harm.level', { scope, params: { playerId }, timeoutMs: 30_000 });
  t.same(
    ok(await levelOf(op, other)),
    { playerId: other, level: 'none', score: 0, markers: [], assessedOn: null, updatedAt: null },
    'the operator reads none for a player never assessed above it',
  );
  // Each step assessed before the next: a pass after both would see medium at once (the assessments
  // loop takes what was counted since its last pass, however much).
  for (const kind of ['cancelled_withdrawal', 'cancelled_withdrawal'] as const) {
    await publish(s.nc, s.prefix, op, { kind, playerId: other, amount: '80.00', at: noonUtc });
  }
  await counted(other, 2);
  await assessed(other);
  for (const kind of ['failed_deposit', 'failed_deposit', 'failed_deposit'] as const) {
    await publish(s.nc, s.prefix, op, { kind, playerId: other, amount: '80.00', at: noonUtc });
  }
  await counted(other, 5);
  await assessed(other);
  const history = await rows('select from_level, to_level, added, removed, markers from compliance.harm_level_history where player_id = $1 order by id', [
    other,
  ]);
  t.same(
    history.map((h) => [h.from_level, h.to_level, h.added, h.removed]),
    [
      ['none', 'low', ['cancelled_withdrawals'], []],
      ['low', 'medium', ['failed_deposits'], []],
    ],
    'each change of level once, with the markers that came',
  );
  const [level] = await rows('select level, score, markers, operator_id, environment from compliance.harm_levels where player_id = $1', [other]);
  t.match(level, { level: 'medium', score: 3, operator_id: op.operatorId, environment: 'production' });
  t.match(level.markers, [
    { marker: 'cancelled_withdrawals', value: '2', threshold: '2', weight: 2 },
    { marker: 'failed_deposits', value: '3', threshold: '3', weight: 1 },
  ]);
  t.match(level.markers[1].summary, /3 deposits declined or failed in the last 7 days/);

  // The operator's signals: the read, and one player.risk_level_changed per change of level.
  t.match(
    ok(await levelOf(op, other)),
    { playerId: other, level: 'medium', score: 3, markers: level.markers, assessedOn: saoPauloDay(noonUtc), updatedAt: String },
    "the operator reads the level with its markers (its day in the operator's time zone)",
  );
  t.equal(errorOf(await levelOf(op, `plr_${newId('event').slice(-12)}`))?.code, 'PLAYER_NOT_FOUND', 'an unknown player: 404');
  t.equal(errorOf(await levelOf(operatorScope('other', 'production'), other))?.code, 'PLAYER_NOT_FOUND', "another brand's key: 404, nothing read");
  await waitFor(async () => (await levelChanges(s.nc, s.prefix)).length >= 2, { what: 'two level changes on the events stream' });
  const changes = await levelChanges(s.nc, s.prefix);
  t.same(
    changes.map(({ event: e, brandId }) => [e.data.playerId, e.data.previousLevel, e.data.level, e.data.added, e.data.removed, brandId]),
    [
      [other, 'none', 'low', ['cancelled_withdrawals'], [], op.brandId],
      [other, 'low', 'medium', ['failed_deposits'], [], op.brandId],
    ],
    "one event per change of level, to the player's brand, with the markers that came",
  );
  t.ok(
    changes.every(({ event }) => Value.Check(domainEventSchema('player.risk_level_changed'), event)),
    'each event is what the contract (and the OpenAPI webhooks) describe',
  );
  t.same(changes[1]!.event.data.markers, level.markers, 'every marker behind the level, with its evidence');

  // Our team's thresholds for the operator (item 2): the defaults until set, set with a reason (audited),
  // used by the next assessment of its players.
  const team = { ...adminScope, actor: 'user:lead@team', personId: 'tm_lead' };
  const path = { id: op.operatorId };
  const defaults = ok<OperatorHarmThresholds>(await s.call('compliance.admin.harm.thresholds.get', { scope: team, params: path }));
  t.match(defaults, { operatorId: op.operatorId, custom: false, reason: null, updatedBy: null, thresholds: { levelAt: { low: 1, medium: 3, high: 5 } } });
  const set = (levelAt: HarmThresholds['levelAt'], key: string) =>
    s.call('compliance.admin.harm.thresholds.set', {
      scope: team,
      key,
      params: path,
      body: { thresholds: { ...defaults.thresholds, levelAt }, reason: 'the operator asked for earlier interactions' },
    });
  t.match(
    errorOf(await set({ low: 2, medium: 2, high: 4 }, 'harm-thresholds-1')),
    { code: 'VALIDATION_ERROR', details: { issues: [{ path: '/thresholds/levelAt' }] } },
    "a level's weights that do not rise: 422, nothing kept",
  );
  t.match(ok(await set({ low: 1, medium: 2, high: 3 }, 'harm-thresholds-2')), {
    custom: true,
    reason: 'the operator asked for earlier interactions',
    updatedBy: 'user:lead@team',
    thresholds: { levelAt: { high: 3 } },
  });
  const audits = (await rows(`select payload from compliance.outbox where subject_type = 'audit.recorded'`, []))
    .map((r) => JSON.parse(r.payload).data)
    .filter((a) => a.action === 'adminSetHarmThresholds');
  t.match(
    audits,
    [{ target: `harm_thresholds:${op.operatorId}`, before: { custom: false }, after: { custom: true, reason: 'the operator asked for earlier interactions' } }],
    'one audit row, the set before and after',
  );
  // One more declined deposit: the player's score of 3 is high under the operator's thresholds.
  await publish(s.nc, s.prefix, op, { kind: 'failed_deposit', playerId: other, amount: '80.00', at: noonUtc });
  await counted(other, 6);
  await assessed(other);
  t.match(ok(await levelOf(op, other)), { level: 'high', score: 3 }, "assessed against the operator's thresholds");
  t.match(
    await rows(`select status, level, score, environment from compliance.harm_cases where player_id = $1`, [other]),
    [{ status: 'open', level: 'high', score: 3, environment: 'production' }],
    'the move to high opened a case for our team, in the same transaction',
  );

  // The sandbox's way (item 4): a sandbox player made to show two markers, then none.
  const sandbox = operatorScope('harm', 'sandbox');
  const tried = await createPlayer(s.call, sandbox);
  const show = (scope: OperatorScope, playerId: string, markers: string[]) =>
    s.call('compliance.sandbox.harmMarkers', { scope, params: { playerId }, body: { markers }, timeoutMs: 30_000 });
  const shown = ok<{ level: string; score: number; markers: Array<{ marker: string }> }>(await show(sandbox, tried, ['chasing', 'night_play']));
  t.match(shown, { playerId: tried, level: 'medium', score: 3, assessedOn: String }, 'chasing (2) and night play (1): medium at once');
  t.same(
    shown.markers.map((m) => m.marker),
    ['chasing', 'night_play'],
    'exactly the markers asked',
  );
  t.same(ok(await levelOf(sandbox, tried)), shown, 'the read says the same');
  t.match(ok(await show(sandbox, tried, [])), { level: 'none', score: 0, markers: [] }, 'none asked: a quiet player again');
  await waitFor(async () => (await levelChanges(s.nc, s.prefix)).filter((c) => c.event.data.playerId === tried).length >= 2, {
    what: "the sandbox player's two level changes on the events stream",
  });
  t.same(
    (await levelChanges(s.nc, s.prefix))
      .filter((c) => c.event.data.playerId === tried)
      .map(({ event: e }) => [e.data.previousLevel, e.data.level, e.data.added, e.data.removed]),
    [
      ['none', 'medium', ['chasing', 'night_play'], []],
      ['medium', 'none', [], ['chasing', 'night_play']],
    ],
    'one player.risk_level_changed per change, as for a real one',
  );
  t.match(
    errorOf(await show(sandbox, tried, ['new_player_intensity', 'stake_escalation'])),
    { code: 'VALIDATION_ERROR', details: { issues: [{ path: '/markers', message: /new_player_intensity .*stake_escalation/ }] } },
    'a new player with a usual to escalate from: refused, both named',
  );
  t.match(
    ok(await show(sandbox, tried, ['new_player_intensity'])),
    { level: 'low', score: 2, markers: [{ marker: 'new_player_intensity', weight: 2 }] },
    'a new player intense from the start: the history is their first week, and it shows alone',
  );
  t.equal(errorOf(await show(op, other, ['chasing']))?.code, 'SANDBOX_ONLY', 'a production player: refused, nothing made up');
  t.equal(errorOf(await show(sandbox, `plr_${newId('event').slice(-12)}`, ['chasing']))?.code, 'PLAYER_NOT_FOUND', 'an unknown player: 404');

  // A player's limits from the players service's events: raised and removed by the player (through the
  // operator) count as loosened, a new limit, a lower one and our team's change do not; each refusal counts.
  const limited = `plr_harml_${newId('event').slice(-8)}`;
  const limitEvent = (type: string, data: Record<string, unknown>) =>
    publishEvent(s.nc, s.prefix, op, type, { playerId: limited, externalId: null, type: 'deposit', period: 'day', ...data }, noonUtc);
  const change = (previousValue: string | null, value: string | null, by = 'operator') =>
    limitEvent('player.limits.changed', { previousValue, value, by, effectiveAt: noonUtc.toISOString() });
  await change(null, '100.00');
  await change('100.00', '500.00');
  await change('500.00', '200.00');
  await change('200.00', '900.00', 'team');
  await change('200.00', null);
  for (let i = 0; i < 3; i++) await limitEvent('player.limit.reached', { value: '200.00', resetsAt: noonUtc.toISOString() });
  await counted(limited, 5);
  t.same(
    await rows(
      'select sum(limits_raised)::int as raised, sum(limits_removed)::int as removed, sum(limits_reached)::int as reached from compliance.harm_days where player_id = $1',
      [limited],
    ),
    [{ raised: 1, removed: 1, reached: 3 }],
    "one raise and one removal by the player, three refusals: a new limit, a lower one and our team's change not counted",
  );
  await assessed(limited);
  t.same(
    (await rows('select markers from compliance.harm_levels where player_id = $1', [limited]))[0]?.markers.map((m: { marker: string }) => m.marker),
    ['limits_loosened', 'limits_reached'],
    'both limit markers fire from the events',
  );
});
