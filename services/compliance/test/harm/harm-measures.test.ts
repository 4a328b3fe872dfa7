// Measures taken from a harm case (issue #68 item 3), through the players and compliance services on
// real NATS and Postgres: each measure a person's decision, applied by the players service under the
// rules of the player's own admin operations, recorded in the case at once and audited on both sides;
// a refusal kept with its reason; the recommendation to self-exclude sent to the operator once; a
// request the players service never answered finished by the same request asked again, and by the
// reconciler after the compliance service restarted: applied once either way.
import t from 'tap';
import type { AdminResponsibleGamingSchema, HarmCase, HarmCaseSummary } from '@bo/contracts';
import type { Static } from '@sinclair/typebox';
import { playersService } from '@bo/players';
import { adminScope, createPlayer, errorOf, ok, operatorScope } from '@bo/test-support';
import { complianceService } from '../../src/service.ts';
import { startComplianceStack } from '../support/stack.ts';

type AdminResponsibleGaming = Static<typeof AdminResponsibleGamingSchema>;

t.test('harm measures: taken from the case, applied by the rules, recorded once, finished after a stop', async (t) => {
  // The reconciler waits an hour at first: each request's own answer is what the first part reads.
  const s = await startComplianceStack(t, 'harmmeasures', { config: { HARM_MEASURE_RETRY_MS: 3_600_000 } });
  const { db } = s;

  const sandbox = operatorScope('hmeas', 'sandbox');
  const playerId = await createPlayer(s.call, sandbox);
  t.match(
    ok(
      await s.call('compliance.sandbox.harmMarkers', {
        scope: sandbox,
        params: { playerId },
        body: { markers: ['chasing', 'cancelled_withdrawals', 'night_play'] },
        timeoutMs: 30_000,
      }),
    ),
    { level: 'high' },
  );
  const team = { ...adminScope, actor: 'user:rui@team', personId: 'tm_rui' };
  const [summary] = ok<{ data: HarmCaseSummary[] }>(await s.call('compliance.admin.harm.cases.list', { scope: team, query: { playerId } })).data;
  const caseId = summary!.id;
  let keys = 0;
  const take = (body: Record<string, unknown>, key = `harm-measure-${++keys}`) =>
    s.call('compliance.admin.harm.cases.measure', { scope: team, key, params: { id: caseId }, body });
  const harmCase = async () => ok<HarmCase>(await s.call('compliance.admin.harm.cases.get', { scope: team, params: { id: caseId } }));
  const rg = async () => ok<AdminResponsibleGaming>(await s.call('players.admin.rg', { scope: team, params: { id: playerId } }));

  // A measure's own fields, checked before anything is kept.
  t.match(errorOf(await take({ measure: 'pause', reason: 'calls at 3am' })), { code: 'VALIDATION_ERROR', details: { issues: [{ path: '/until' }] } });
  t.match(errorOf(await take({ measure: 'reality_check', minutes: 15, period: 'day', reason: 'long sessions' })), {
    code: 'VALIDATION_ERROR',
    details: { issues: [{ path: '/period' }] },
  });
  t.match(errorOf(await take({ measure: 'stricter_limit', type: 'deposit', period: 'day', value: 100, reason: 'chasing' })), {
    code: 'VALIDATION_ERROR',
    details: { issues: [{ path: '/value' }] },
  });
  t.match(
    errorOf(
      await s.call('compliance.admin.harm.cases.interaction', {
        scope: team,
        key: 'by-hand',
        params: { id: caseId },
        body: { channel: 'measure', summary: 'paused' },
      }),
    ),
    { code: 'VALIDATION_ERROR', details: { issues: [{ path: '/channel' }] } },
    'a measure is not recorded by hand',
  );
  t.same((await harmCase()).measures, [], 'nothing kept for the refused requests');

  // A pause, a stricter limit and a reality check more often: applied, each an interaction of the case.
  const until = new Date(Date.now() + 3 * 86_400_000).toISOString();
  const today = new Date().toISOString().slice(0, 10);
  const paused = ok<HarmCase>(await take({ measure: 'pause', until, reason: 'agreed a pause on the phone', followUpOn: today }));
  t.match(paused, {
    interactions: 1,
    followUpOn: today,
    measures: [{ measure: 'pause', detail: { until }, status: 'applied', refusal: null, by: 'user:rui@team', reason: 'agreed a pause on the phone' }],
    interactionLog: [{ channel: 'measure', summary: 'agreed a pause on the phone', by: 'user:rui@team', followUpOn: today }],
  });
  t.equal(paused.interactionLog[0]!.measureId, paused.measures[0]!.id, 'the interaction names its measure');
  t.ok(ok(await take({ measure: 'stricter_limit', type: 'deposit', period: 'day', value: '100.00', reason: 'deposits after each loss' })));
  t.ok(ok(await take({ measure: 'reality_check', minutes: 15, reason: 'sessions of six hours' })));
  const rules = await rg();
  t.equal(rules.responsibleGaming.pause?.until, until, 'the pause is in force');
  t.match(rules.responsibleGaming.limits, [{ type: 'deposit', period: 'day', value: '100.00' }], 'the limit is in force');
  t.equal(rules.responsibleGaming.realityCheckMinutes, 15, 'the reality check is shown more often');
  t.same(
    rules.history
      .filter((h) => h.by === 'team')
      .map((h) => [h.kind, h.actor])
      .sort(),
    [
      ['limit', 'user:rui@team'],
      ['pause', 'user:rui@team'],
      ['reality_check', 'user:rui@team'],
    ].sort(),
    "in the player's history under the person's name",
  );

  // The rules still say no: a looser limit is refused, kept with its reason, and nothing else moves.
  t.match(errorOf(await take({ measure: 'stricter_limit', type: 'deposit', period: 'day', value: '200.00', reason: 'typo' })), {
    code: 'VALIDATION_ERROR',
    details: { issues: [{ path: '/value', message: /lower than the limit in force \(100\.00\)/ }] },
  });
  const afterRefusal = await harmCase();
  t.match(afterRefusal.measures[3], {
    measure: 'stricter_limit',
    status: 'refused',
    refusal: { code: 'VALIDATION_ERROR', message: /lower than the limit in force/ },
  });
  t.equal(afterRefusal.interactions, 3, 'a refused measure is no interaction');

  // The recommendation to self-exclude: the operator told once, even when the request comes again.
  const recommended = ok<HarmCase>(await take({ measure: 'recommend_self_exclusion', reason: 'the player asked how to stop' }, 'recommend-1'));
  ok<HarmCase>(await take({ measure: 'recommend_self_exclusion', reason: 'the player asked how to stop' }, 'recommend-1'));
  t.match(recommended.measures[4], { measure: 'recommend_self_exclusion', status: 'applied', detail: {} });
  const events = (
    await db.query(
      `select payload from compliance.outbox where subject_type = 'player.self_exclusion_recommended' and payload::jsonb->'data'->>'playerId' = $1`,
      [playerId],
    )
  ).rows.map((r) => JSON.parse(r.payload));
  t.equal(events.length, 1, 'one event');
  t.match(events[0], {
    environment: 'sandbox',
    data: {
      playerId,
      level: 'high',
      score: 5,
      markers: [{ marker: 'chasing' }, { marker: 'night_play' }, { marker: 'cancelled_withdrawals' }],
      assessedOn: /^\d{4}-/,
    },
  });

  // The players service does not answer: the measure stays pending (503); the same request asked again finishes it, once.
  await s.stop('players');
  const longer = new Date(Date.now() + 5 * 86_400_000).toISOString();
  t.equal(errorOf(await take({ measure: 'pause', until: longer, reason: 'a longer pause, agreed' }, 'pause-again'))?.code, 'SERVICE_UNAVAILABLE');
  t.match((await harmCase()).measures[5], { measure: 'pause', status: 'pending', settledAt: null });
  await s.start(playersService);
  t.match(ok<HarmCase>(await take({ measure: 'pause', until: longer, reason: 'a longer pause, agreed' }, 'pause-again')).measures.slice(5), [
    { measure: 'pause', status: 'applied' },
  ]);
  t.equal((await rg()).responsibleGaming.pause?.until, longer);

  // Again with nobody asking: the compliance service restarts, and its reconciler finishes the measure.
  await s.stop('players');
  t.equal(errorOf(await take({ measure: 'reality_check', minutes: 10, reason: 'still long sessions' }))?.code, 'SERVICE_UNAVAILABLE');
  await s.stop('compliance');
  await s.start(playersService);
  await s.start(complianceService, { PROFILE_CACHE_MS: 0, HARM_MEASURE_RETRY_MS: 50 });
  let settled = await harmCase();
  while (settled.measures[6]?.status === 'pending') {
    await new Promise((r) => setTimeout(r, 50));
    settled = await harmCase();
  }
  t.match(settled.measures[6], { measure: 'reality_check', detail: { minutes: 10 }, status: 'applied', by: 'user:rui@team' });
  t.equal((await rg()).responsibleGaming.realityCheckMinutes, 10);

  // A stop after the players service applied a measure, before its answer was kept: what is left is the
  // pending measure and its effect. The reconciler finds it applied (nothing twice) and records it.
  const author = { actor: 'user:rui@team', personId: 'tm_rui', requestId: 'req_stopped' };
  const stopped = {
    measureId: 'hms_stopped_after_effect',
    caseId,
    playerId,
    measure: 'reality_check',
    minutes: 5,
    reason: 'five minutes, agreed',
    author,
  };
  t.same(ok(await s.call('players.rg.teamMeasure', { scope: { kind: 'internal', service: 'compliance' }, body: stopped })), { applied: true });
  await db.query(
    `insert into compliance.harm_measures (id, case_id, player_id, measure, detail, reason, status, by, author, requested_at)
     values ($1, $2, $3, 'reality_check', '{"minutes":5}', $4, 'pending', 'user:rui@team', $5, now())`,
    [stopped.measureId, caseId, playerId, stopped.reason, JSON.stringify(author)],
  );
  settled = await harmCase();
  while (settled.measures[7]?.status !== 'applied') {
    await new Promise((r) => setTimeout(r, 50));
    settled = await harmCase();
  }
  t.match(settled.interactionLog.at(-1), { channel: 'measure', measureId: stopped.measureId, summary: 'five minutes, agreed' });
  t.equal((await rg()).responsibleGaming.realityCheckMinutes, 5);

  // Applied once each: the players service's measures, its history and both audit logs.
  const applied = settled.measures.filter((m) => m.status === 'applied');
  t.equal(applied.length, 7);
  t.equal(settled.interactions, 7, 'one interaction per measure applied');
  const measuresAtPlayers = (await db.query('select id from players.team_measures where player_id = $1 order by applied_at', [playerId])).rows.map((r) => r.id);
  t.same(
    measuresAtPlayers,
    applied.filter((m) => m.measure !== 'recommend_self_exclusion').map((m) => m.id),
    'each measure applied once by the players service',
  );
  t.equal((await rg()).history.filter((h) => h.by === 'team').length, 6, "six team changes in the player's history");
  // In the order written: the relay's update of a published row moves it in the table, so an unordered read is not.
  const audits = async (schema: string, target: string) =>
    (await db.query(`select payload from ${schema}.outbox where subject_type = 'audit.recorded' order by seq`)).rows
      .map((r) => JSON.parse(r.payload).data)
      .filter((a) => a.target === target);
  t.same(
    (await audits('compliance', `harm_case:${caseId}`)).map((a) => [a.action, a.actorId, a.after.measure]),
    applied.map((m) => ['adminTakeHarmMeasure', 'tm_rui', m.measure]),
    "the case's audit: one row per measure applied, the person's",
  );
  t.same(
    (await audits('players', `player:${playerId}`)).filter((a) => a.after.harmCase === caseId).map((a) => [a.action, a.actorId]),
    [
      ['adminPausePlayer', 'tm_rui'],
      ['adminSetStricterLimit', 'tm_rui'],
      ['adminSetRealityCheck', 'tm_rui'],
      ['adminPausePlayer', 'tm_rui'],
      ['adminSetRealityCheck', 'tm_rui'],
      ['adminSetRealityCheck', 'tm_rui'],
    ],
    "the player's audit: each change with the person who decided and the case",
  );

  // The players service's side alone: the same measure id asked twice changes nothing the second time.
  const again = ok<{ applied: boolean }>(
    await s.call('players.rg.teamMeasure', {
      scope: { kind: 'internal', service: 'compliance' },
      body: {
        measureId: applied[0]!.id,
        caseId,
        playerId,
        measure: 'pause',
        until: new Date(Date.now() + 9 * 86_400_000).toISOString(),
        reason: 'asked again',
        author: { actor: 'user:rui@team', requestId: 'req_again' },
      },
    }),
  );
  t.same(again, { applied: false });
  t.equal((await rg()).responsibleGaming.pause?.until, longer, 'the pause as it was');
  t.equal((await rg()).history.filter((h) => h.by === 'team').length, 6, 'no change in its history');

  // A closed case takes no measure.
  ok(
    await s.call('compliance.admin.harm.cases.close', {
      scope: team,
      key: 'close',
      params: { id: caseId },
      body: { outcome: 'play_reduced', reason: 'paused and quieter' },
    }),
  );
  t.equal(errorOf(await take({ measure: 'reality_check', minutes: 5, reason: 'late' }))?.code, 'HARM_CASE_CLOSED');
  t.equal((await harmCase()).measures.length, 8, 'nothing kept for it');
});
