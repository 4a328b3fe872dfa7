// Our team's harm cases (issue #68 item 3), through the players and compliance services on real NATS
// and Postgres: a case opened by the assessment that moves a player to high (the sandbox's made-up
// histories move them at once), the queue riskiest first with a cursor, a case following its player's
// level, interactions recorded with their checks, the closing with its outcome, a new case on a new
// rise, and each change audited.
import t from 'tap';
import pg from 'pg';
import type { HarmCase, HarmCaseSummary } from '@bo/contracts';
import { playersService } from '@bo/players';
import { adminScope, createPlayer, errorOf, ok, operatorScope, startStack } from '@bo/test-support';
import { complianceService } from '../../src/service.ts';

t.test('harm cases: opened at high, the riskiest first, followed, interactions, closed with the outcome seen', async (t) => {
  const s = await startStack(t, 'harmcases', [playersService]);
  await s.start(complianceService, { PROFILE_CACHE_MS: 0 });
  const db = new pg.Client({ connectionString: s.databaseUrl });
  await db.connect();
  t.teardown(() => db.end());

  const sandbox = operatorScope('hcase', 'sandbox');
  const show = async (playerId: string, markers: string[]) =>
    ok<{ level: string; score: number }>(
      await s.call('compliance.sandbox.harmMarkers', { scope: sandbox, params: { playerId }, body: { markers }, timeoutMs: 30_000 }),
    );
  const [five, six, medium] = [await createPlayer(s.call, sandbox), await createPlayer(s.call, sandbox), await createPlayer(s.call, sandbox)];
  t.match(await show(five, ['chasing', 'cancelled_withdrawals', 'night_play']), { level: 'high', score: 5 });
  t.match(await show(six, ['chasing', 'cancelled_withdrawals', 'deposit_escalation']), { level: 'high', score: 6 });
  t.match(await show(medium, ['chasing', 'night_play']), { level: 'medium', score: 3 });

  const team = { ...adminScope, actor: 'user:ana@team', personId: 'tm_ana' };
  let keys = 0;
  const list = async (query: Record<string, unknown>) =>
    ok<{ data: HarmCaseSummary[]; nextCursor: string | null }>(
      await s.call('compliance.admin.harm.cases.list', { scope: team, query: { operatorId: sandbox.operatorId, ...query } }),
    );
  const get = (id: string) => s.call('compliance.admin.harm.cases.get', { scope: team, params: { id } });
  const interact = (id: string, body: Record<string, unknown>) =>
    s.call('compliance.admin.harm.cases.interaction', { scope: team, key: `harm-interaction-${++keys}`, params: { id }, body });
  const close = (id: string, body: Record<string, unknown>) =>
    s.call('compliance.admin.harm.cases.close', { scope: team, key: `harm-close-${++keys}`, params: { id }, body });

  // The queue: a case for each player who reached high (none for medium), the higher score first.
  const open = await list({ status: 'open' });
  t.same(
    open.data.map((c) => [c.playerId, c.level, c.score, c.interactions, c.environment]),
    [
      [six, 'high', 6, 0, 'sandbox'],
      [five, 'high', 5, 0, 'sandbox'],
    ],
    'one case per player at high, the riskiest first; none for the player at medium',
  );
  t.match(open.data[0], { brandId: sandbox.brandId, status: 'open', recentDeposits: /^\d+\.\d{2}$/, followUpOn: null, outcome: null, playerName: null });
  t.same(
    open.data[1]!.markers.map((m) => m.marker),
    ['chasing', 'night_play', 'cancelled_withdrawals'],
    'with the markers behind the level',
  );
  const firstPage = await list({ status: 'open', limit: 1 });
  t.same(
    firstPage.data.map((c) => c.playerId),
    [six],
  );
  const secondPage = await list({ status: 'open', limit: 1, cursor: firstPage.nextCursor });
  t.same([secondPage.data.map((c) => c.playerId), secondPage.nextCursor], [[five], null], 'the cursor goes on where the first page ended');
  t.equal(
    errorOf(await s.call('compliance.admin.harm.cases.list', { scope: team, query: { status: 'closed', cursor: firstPage.nextCursor } }))?.code,
    'VALIDATION_ERROR',
    "another query's cursor: refused",
  );

  const caseId = open.data[1]!.id;
  const opened = ok<HarmCase>(await get(caseId));
  t.same(
    [opened.interactionLog, opened.levelChanges.map((c) => [c.from, c.to, [...c.added].sort()])],
    [[], [['none', 'high', ['cancelled_withdrawals', 'chasing', 'night_play']]]],
    'the change that opened it, no interaction yet',
  );

  // Interactions: the operator's message names its id; a follow-up date is not in the past.
  const today = new Date().toISOString().slice(0, 10);
  const past = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
  t.match(errorOf(await interact(caseId, { channel: 'operator_message', summary: 'sent the limits message' })), {
    code: 'VALIDATION_ERROR',
    details: { issues: [{ path: '/operatorMessageId' }] },
  });
  t.match(errorOf(await interact(caseId, { channel: 'phone', summary: 'called', followUpOn: past })), {
    code: 'VALIDATION_ERROR',
    details: { issues: [{ path: '/followUpOn' }] },
  });
  const messaged = ok<HarmCase>(
    await interact(caseId, {
      channel: 'operator_message',
      summary: 'the operator showed the player their limits page',
      operatorMessageId: 'op-msg-881',
      followUpOn: today,
    }),
  );
  t.match(messaged, {
    interactions: 1,
    followUpOn: today,
    interactionLog: [{ channel: 'operator_message', operatorMessageId: 'op-msg-881', followUpOn: today, by: 'user:ana@team' }],
  });
  t.same(
    (await list({ followUp: 'due' })).data.map((c) => c.id),
    [caseId],
    'its follow-up is due today',
  );

  // The case follows its player: down to medium, still open, with the change.
  t.match(await show(five, ['chasing', 'night_play']), { level: 'medium' });
  const followed = ok<HarmCase>(await get(caseId));
  t.match(followed, { status: 'open', level: 'medium', score: 3 });
  t.same(
    followed.levelChanges.map((c) => [c.from, c.to]),
    [
      ['none', 'high'],
      ['high', 'medium'],
    ],
  );

  // Closed with the outcome seen: then neither an interaction nor a second closing.
  const closed = ok<HarmCase>(await close(caseId, { outcome: 'play_reduced', reason: 'deposits fell to the usual after the message' }));
  t.match(closed, {
    status: 'closed',
    outcome: 'play_reduced',
    closedBy: 'user:ana@team',
    closeReason: 'deposits fell to the usual after the message',
    followUpOn: null,
  });
  t.equal(errorOf(await close(caseId, { outcome: 'not_at_risk', reason: 'again' }))?.code, 'HARM_CASE_CLOSED');
  t.equal(errorOf(await interact(caseId, { channel: 'note', summary: 'late note' }))?.code, 'HARM_CASE_CLOSED');
  t.equal(errorOf(await get('hcs_unknown'))?.code, 'HARM_CASE_NOT_FOUND');
  t.same((await list({ followUp: 'due' })).data, [], 'a closed case has no follow-up');

  // A new rise to high opens a new case; staying high opens no other, the open one follows.
  t.match(await show(five, ['chasing', 'cancelled_withdrawals', 'night_play']), { level: 'high' });
  t.match(await show(five, ['chasing', 'cancelled_withdrawals', 'deposit_escalation', 'night_play']), { level: 'high', score: 7 });
  const ofFive = (await list({ playerId: five })).data;
  t.same(
    ofFive.map((c) => [c.status, c.score]).sort(),
    [
      ['closed', 3],
      ['open', 7],
    ],
    "the closed case as it was; one new case, following the player's score",
  );
  t.same(
    ok<HarmCase>(await get(ofFive.find((c) => c.status === 'open')!.id)).levelChanges.map((c) => [c.from, c.to]),
    [['medium', 'high']],
    'the new case shows the changes from its own opening',
  );

  // Each person's change audited, in its transaction.
  const audits = (await db.query(`select payload from compliance.outbox where subject_type = 'audit.recorded' order by seq`)).rows
    .map((r) => JSON.parse(r.payload).data)
    .filter((a) => a.target === `harm_case:${caseId}`);
  t.same(
    audits.map((a) => [a.action, a.actor, a.actorId, a.before.interactions, a.after.status]),
    [
      ['adminRecordHarmInteraction', 'user:ana@team', 'tm_ana', 0, 'open'],
      ['adminCloseHarmCase', 'user:ana@team', 'tm_ana', 1, 'closed'],
    ],
    'one audit row per interaction and closing; the refused ones left none',
  );
});
