// Responsible gaming on real-money play, with the real players and wallet services on real
// Postgres and NATS: loss and wager limits on every round (a refused round moves no money), 50
// concurrent rounds near a loss limit never pass it, periods in São Paulo time (23:59 and 00:01
// are different days), time played from the page's activity (5 idle minutes stop counting) and
// the time limit at session open and on rounds, pause, br-spa's required limits, self-exclusion
// ending the open sessions, and usage that verifyLedger recomputes from the rounds.
import t from 'tap';
import type { Test } from 'tap';
import { randomBytes } from 'node:crypto';
import { adminScope, gatewayScope, setComplianceProfile, scopes, scriptedRng, startGamesStack, tokenOf, type GamesStack } from '@bo/test-support';
import { setRuleClockOffset } from '@bo/service-kit/testing';
import { gamesServices } from './support/games-services.ts';

const live = scopes.production;
const clickId = () => `click-${randomBytes(8).toString('hex')}`;
const LOSE = 90; // dice roll 90 against target 50: lost

async function assertLedgerSound(t: Test, h: GamesStack): Promise<void> {
  const v = await h.verifyLedger();
  t.same({ ok: v.ok, mismatches: v.mismatches }, { ok: true, mismatches: [] }, 'verifyLedger: balances, rounds and usage agree with the ledger');
}

t.test('responsible gaming on real-money play', async (t) => {
  const rng = scriptedRng();
  const h = await startGamesStack(t, gamesServices, {}, { rng });
  t.teardown(() => setRuleClockOffset(0));
  const reason = (r: any) => (r.ok ? `ok:${r.status}` : r.error.code === 'RG_BLOCKED' ? r.error.details.reason : r.error.code);
  const play = (token: string, amount = '10.00') =>
    h.call('games.play.round', gatewayScope, { params: { token }, body: { amount, target: '50', clientRoundId: clickId() } });
  const lose = (token: string, amount = '10.00') => {
    rng.push(LOSE);
    return play(token, amount);
  };
  const setLimit = (playerId: string, type: string, period: string, value: unknown) =>
    h.call('players.rg.setLimit', live, { params: { playerId, type, period }, body: { value } });
  const balance = async (playerId: string) => ((await h.call('wallet.get', live, { params: { playerId } })) as any).body.available as string;
  const openSession = (playerId: string) => h.call('games.sessions.create', live, { params: { playerId }, body: { gameId: 'gm_dice_classic' } });
  const funded = async (amount = '100.00') => {
    const id = await h.createPlayer(live, { kyc: 'aprovado' });
    await h.credit(live, id, amount);
    return id;
  };
  const at = (iso: string) => setRuleClockOffset(Date.parse(iso) - Date.now());

  t.test('a loss limit refuses the round that could pass it; the refused round moves no money', async (t) => {
    setRuleClockOffset(0);
    const player = await funded();
    (await setLimit(player, 'loss', 'day', '30.00')).ok || t.fail('limit');
    const token = tokenOf((await h.openSession(t, live, player, 'gm_dice_classic')).gameUrl);
    t.equal(reason(await lose(token)), 'ok:201');
    t.equal(reason(await lose(token)), 'ok:201');
    t.equal(reason(await lose(token)), 'ok:201', 'a net loss of exactly 30.00');
    const refused = await play(token);
    t.match((refused as any).error, { code: 'RG_BLOCKED', details: { reason: 'loss_limit', period: 'day', limit: '30.00', resetsAt: String } });
    t.equal(await balance(player), '70.00', 'the refused round moved nothing');
    t.equal(reason(await play(token, '0.10')), 'loss_limit', 'not even the smallest stake');
    const reached = await h.sql<{ payload: string }>("select payload from wallet.outbox where subject_type = 'player.limit.reached' order by seq");
    t.match(
      reached.map((r) => JSON.parse(r.payload).data).filter((d: any) => d.playerId === player),
      [{ type: 'loss', period: 'day', value: '30.00', resetsAt: String }, { type: 'loss' }],
      'player.limit.reached through the outbox, once per refusal',
    );
    const view = await h.call('players.rg.get', live, { params: { playerId: player } });
    t.match((view as any).body.limits, [{ type: 'loss', period: 'day', value: '30.00', used: '30.00' }], 'usage as the players service shows it');
    await assertLedgerSound(t, h);
  });

  t.test('a wager limit counts every stake, won or lost', async (t) => {
    setRuleClockOffset(0);
    const player = await funded();
    (await setLimit(player, 'wager', 'week', '25.00')).ok || t.fail('limit');
    const token = tokenOf((await h.openSession(t, live, player, 'gm_dice_classic')).gameUrl);
    rng.push(10); // won
    t.equal(reason(await play(token)), 'ok:201');
    t.equal(reason(await lose(token)), 'ok:201');
    t.equal(reason(await play(token, '5.01')), 'wager_limit');
    t.equal(reason(await lose(token, '5.00')), 'ok:201', 'exactly up to the limit');
    await assertLedgerSound(t, h);
  });

  t.test('50 concurrent rounds near a loss limit never pass it', async (t) => {
    setRuleClockOffset(0);
    const player = await funded('1000.00');
    (await setLimit(player, 'loss', 'month', '100.00')).ok || t.fail('limit');
    const token = tokenOf((await h.openSession(t, live, player, 'gm_dice_classic')).gameUrl);
    t.equal(reason(await lose(token, '75.00')), 'ok:201');
    rng.push(...Array.from({ length: 50 }, () => LOSE));
    const replies = await Promise.all(Array.from({ length: 50 }, () => play(token, '5.00')));
    t.equal(replies.filter((r) => r.ok).length, 5, 'exactly the 5 that fit');
    t.ok(
      replies.filter((r) => !r.ok).every((r) => reason(r) === 'loss_limit'),
      'the others refused for the limit',
    );
    t.equal(await balance(player), '900.00', 'a loss of exactly 100.00');
    await assertLedgerSound(t, h);
  });

  t.test('periods follow São Paulo time: a loss at 23:59 and one at 00:01 fall in different days', async (t) => {
    const player = await funded();
    (await setLimit(player, 'loss', 'day', '10.00')).ok || t.fail('limit');
    at('2030-11-26T23:59:00-03:00');
    const token = tokenOf((await h.openSession(t, live, player, 'gm_dice_classic')).gameUrl);
    t.equal(reason(await lose(token)), 'ok:201', '23:59: the 26th');
    at('2030-11-26T23:59:30-03:00');
    t.equal(reason(await lose(token)), 'loss_limit', 'still the 26th');
    at('2030-11-27T00:01:00-03:00');
    t.equal(reason(await lose(token)), 'ok:201', '00:01: the 27th, a new day');
    setRuleClockOffset(0);
    await assertLedgerSound(t, h);
  });

  t.test('time played counts the activity; 5 idle minutes stop counting; the time limit ends play', async (t) => {
    const player = await funded();
    (await setLimit(player, 'time', 'day', 2)).ok || t.fail('limit');
    at('2030-12-02T10:00:00-03:00');
    const token = tokenOf((await h.openSession(t, live, player, 'gm_dice_classic')).gameUrl);
    t.equal(reason(await lose(token, '0.10')), 'ok:201', 'the first activity starts the clock');
    at('2030-12-02T10:10:00-03:00');
    t.equal(reason(await lose(token, '0.10')), 'ok:201', 'after 10 idle minutes: nothing counted');
    // The rule clock runs on after each move: the margins (10 s, 30 s) keep a busy machine's delays
    // between a move and the round from changing whole minutes.
    at('2030-12-02T10:11:10-03:00');
    t.equal(reason(await lose(token, '0.10')), 'ok:201', '1 minute played');
    t.match(((await h.call('players.rg.get', live, { params: { playerId: player } })) as any).body.limits, [{ type: 'time', value: 2, used: 1 }]);
    at('2030-12-02T10:12:30-03:00');
    t.equal(reason(await play(token, '0.10')), 'time_limit', '2 minutes played: the limit is reached');
    t.equal(reason(await openSession(player)), 'time_limit', 'no new session either');
    const timeEvents = await h.sql<{ payload: string }>("select payload from wallet.outbox where subject_type = 'player.limit.reached' order by seq");
    t.equal(
      timeEvents.map((r) => JSON.parse(r.payload).data).filter((d: any) => d.playerId === player && d.type === 'time').length,
      2,
      'the round and the session open each announced',
    );
    at('2030-12-03T09:00:00-03:00');
    t.equal(reason(await openSession(player)), 'ok:201', 'the next day');
    setRuleClockOffset(0);
    await assertLedgerSound(t, h);
  });

  t.test("the page's heartbeat counts time played and answers the session's net result", async (t) => {
    const player = await funded();
    (await setLimit(player, 'time', 'week', 600)).ok || t.fail('limit');
    at('2030-12-04T15:00:00-03:00');
    const token = tokenOf((await h.openSession(t, live, player, 'gm_dice_classic')).gameUrl);
    t.equal(reason(await lose(token, '2.50')), 'ok:201');
    const beat = async () => (await h.call('games.play.heartbeat', gatewayScope, { params: { token } })) as any;
    at('2030-12-04T15:01:00-03:00');
    t.match((await beat()).body, { netResult: '-2.50', roundsPlayed: 1 });
    at('2030-12-04T15:02:00-03:00');
    await beat();
    at('2030-12-04T15:02:30-03:00');
    await beat();
    t.match(
      ((await h.call('players.rg.get', live, { params: { playerId: player } })) as any).body.limits,
      [{ type: 'time', period: 'week', used: 2 }],
      '150 s: 2 whole minutes',
    );
    setRuleClockOffset(0);
    await assertLedgerSound(t, h);
  });

  t.test("a player without limits: the page's heartbeats count time played all the same (the harm markers' minutes), the rounds not", async (t) => {
    const player = await funded();
    at('2030-12-05T22:00:00-03:00');
    const token = tokenOf((await h.openSession(t, live, player, 'gm_dice_classic')).gameUrl);
    t.equal(reason(await lose(token, '2.50')), 'ok:201');
    const beat = () => h.call('games.play.heartbeat', gatewayScope, { params: { token } });
    // The round before counts nothing (its statement is left as it is): the first beat starts the count.
    for (const time of ['22:01:00', '22:02:00', '22:02:30', '22:20:00']) {
      at(`2030-12-05T${time}-03:00`);
      t.equal((await beat()).ok, true);
    }
    const [usage] = await h.sql<{ seconds: number }>(
      'select coalesce(sum(u.seconds_played), 0)::int as seconds from wallet.rg_usage u join wallet.accounts a on a.id = u.account_id where a.player_id = ?',
      [player],
    );
    // Each beat's clock is set a few milliseconds before it is read: a gap may floor a second short.
    t.ok(usage!.seconds >= 88 && usage!.seconds <= 90, `a minute and half a minute; the 17.5 idle minutes after them not (${usage!.seconds} s)`);
    setRuleClockOffset(0);
    await assertLedgerSound(t, h);
  });

  t.test("pause and self-exclusion: no session, no round; a self-exclusion (the player's or our team's) ends the open sessions", async (t) => {
    setRuleClockOffset(0);
    const player = await funded();
    const token = tokenOf((await h.openSession(t, live, player, 'gm_dice_classic')).gameUrl);
    const pause = await h.call('players.rg.pause', live, {
      params: { playerId: player },
      body: { until: new Date(Date.now() + 30 * 3_600_000).toISOString() },
    });
    t.equal(pause.ok && pause.status, 200);
    t.equal(reason(await lose(token)), 'paused', 'the round after the pause was answered');
    t.equal(reason(await openSession(player)), 'paused');

    const other = await funded();
    const session = await h.openSession(t, live, other, 'gm_dice_classic');
    const excluded = await h.call('players.rg.selfExclude', live, { params: { playerId: other }, body: { months: 1 } });
    t.equal(excluded.ok && excluded.status, 200);
    const [row] = await h.sql('select expires_at <= now() as ended from wallet.game_sessions where id = ?', [session.id]);
    t.equal(row.ended, true, 'the open session ended before the answer');
    const ended = await play(tokenOf(session.gameUrl));
    t.equal(reason(ended), 'GAME_SESSION_ENDED', 'ended, not expired');
    t.match(ended, { ok: false, error: { message: 'This game session has ended.' } }, 'neutral words: never why');
    t.equal(reason(await openSession(other)), 'self_excluded');

    // Our team's self-exclusion (the older limits form) ends them the same way.
    const third = await funded();
    const teamSession = await h.openSession(t, live, third, 'gm_dice_classic');
    const until = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const byTeam = await h.call('players.admin.limits', adminScope, { params: { id: third }, body: { dailyDepositLimit: null, selfExcludedUntil: until } });
    t.equal(byTeam.ok && byTeam.status, 200);
    const [teamRow] = await h.sql('select expires_at <= now() as ended from wallet.game_sessions where id = ?', [teamSession.id]);
    t.equal(teamRow.ended, true, "our team's self-exclusion: the open session ended before the answer");
    t.equal(reason(await play(tokenOf(teamSession.gameUrl))), 'GAME_SESSION_ENDED', 'ended, not expired');
    t.equal(reason(await openSession(third)), 'self_excluded');
    await assertLedgerSound(t, h);
  });

  t.test(
    "a round is checked on the account row's counters: seeded from the usage, left uncounted by rounds without limits, checked by verifyLedger",
    async (t) => {
      at('2030-12-10T10:00:00-03:00');
      // No cooling-off: the removal below is in force at once, so a round without limits falls in the same day.
      const set = await setComplianceProfile((s, sc, o) => h.call(s, sc, o), live.operatorId, 'off', { coolingOffHours: 0 });
      t.equal(set.ok, true);
      t.teardown(() => setComplianceProfile((s, sc, o) => h.call(s, sc, o), live.operatorId, 'off', { coolingOffHours: 24 }));
      const player = await funded();
      const counters = async () =>
        (
          await h.sql<{ counted: boolean; loss: string | null }>(
            "select rg_day is not null as counted, rg_day_net_loss::text as loss from wallet.accounts where kind = 'player' and player_id = ?",
            [player],
          )
        )[0];
      (await setLimit(player, 'loss', 'day', '60.00')).ok || t.fail('limit');
      const token = tokenOf((await h.openSession(t, live, player, 'gm_dice_classic')).gameUrl);
      t.equal(reason(await lose(token)), 'ok:201');
      t.same(await counters(), { counted: true, loss: '10.00' }, 'the first round seeds the counters and counts itself');
      t.equal(reason(await lose(token)), 'ok:201');
      t.same(await counters(), { counted: true, loss: '20.00' });

      await h.sql("update wallet.accounts set rg_day_net_loss = 0 where kind = 'player' and player_id = ?", [player]);
      t.equal(reason(await lose(token)), 'ok:201');
      t.same(await counters(), { counted: true, loss: '10.00' }, 'the round read the row, not the usage table');
      const v = await h.verifyLedger();
      t.match(
        v.mismatches.filter((m: any) => m.check.startsWith('rgCounters:')),
        [{ check: 'rgCounters:day', stored: '30.00/10.00/0', computed: '30.00/30.00/0' }],
        'verifyLedger finds counters that differ from the usage',
      );
      await h.sql("update wallet.accounts set rg_day = null where kind = 'player' and player_id = ?", [player]);
      t.equal(reason(await lose(token)), 'ok:201');
      t.same(await counters(), { counted: true, loss: '40.00' }, 'uncounted: seeded again from the usage');

      (await h.call('players.rg.removeLimit', live, { params: { playerId: player, type: 'loss', period: 'day' } })).ok || t.fail('removal');
      t.equal(reason(await lose(token)), 'ok:201', 'no limit');
      t.same(await counters(), { counted: false, loss: '40.00' }, 'a round without limits leaves the counters uncounted');
      (await setLimit(player, 'loss', 'day', '60.00')).ok || t.fail('limit');
      t.equal(reason(await lose(token)), 'ok:201', 'a net loss of 60.00 today');
      t.equal(reason(await lose(token)), 'loss_limit', 'the round played without the limit counts toward it');
      setRuleClockOffset(0);
      await assertLedgerSound(t, h);
    },
  );

  t.test('br-spa: a session needs a loss and a time limit', async (t) => {
    setRuleClockOffset(0);
    // Registered before the switch: a br-spa registration itself requires the two limits (422).
    const player = await funded();
    const set = await h.call('players.admin.setCompliance', adminScope, {
      params: { id: live.operatorId },
      body: { profile: 'br-spa', reason: 'the operator is licensed in Brazil' },
    });
    t.equal(set.ok, true);
    t.teardown(() => setComplianceProfile((s, sc, o) => h.call(s, sc, o), live.operatorId, 'off'));
    t.equal(reason(await openSession(player)), 'limits_required');
    (await setLimit(player, 'loss', 'week', '500.00')).ok || t.fail('limit');
    (await setLimit(player, 'time', 'day', 120)).ok || t.fail('limit');
    const opened = await openSession(player);
    t.equal(reason(opened), 'ok:201');
    t.equal(reason(await lose(tokenOf((opened as any).body.gameUrl))), 'ok:201');
    await assertLedgerSound(t, h);
  });
});
