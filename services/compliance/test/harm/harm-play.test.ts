// Play into the harm days (issue #68; docs/player-protection.md, "Play"), with real Postgres and NATS:
// real-money rounds through the wallet, its hours read by the compliance service's play pass into the
// player's days as the wallet counted them (bets, stakes, their squares, wins), an hour read again
// counting nothing twice, a player whose stakes rose found by the stake marker through the whole
// path, a deposit after lost rounds counted as one after a loss (chasing) and one after a win or
// without play not; and the store's own rules on made-up hours (the operator's day and night,
// minutes, a day's hours set and never added).
import t from 'tap';
import pg from 'pg';
import { COMPLIANCE_DEFAULTS } from '@bo/contracts';
import { sqlOnPool } from '@bo/service-kit';
import { waitFor } from '@bo/service-kit/testing';
import { gatewayScope, internalScope, ok, scriptedRng, tokenOf } from '@bo/test-support';
import { isNightHour, localHourOf } from '../../src/harm/harm-play.ts';
import { addDays } from '../../src/harm/player-day.ts';
import { localDateOf } from '../../src/domain/business-days.ts';
import { keepPlayHours } from '../../src/store/harm-play.ts';
import { key, startComplianceStack } from '../support/stack.ts';

const ZONE = COMPLIANCE_DEFAULTS.timeZone;

t.test("the operator's hour and night", async (t) => {
  // 2026-03-10 05:30 UTC is 02:30 in São Paulo (UTC−3): night, and still the 10th there.
  t.equal(localHourOf(new Date('2026-03-10T05:00:00Z'), ZONE), 2);
  t.equal(isNightHour(new Date('2026-03-10T05:00:00Z'), ZONE), true, '02:00 local is night');
  t.equal(isNightHour(new Date('2026-03-10T09:00:00Z'), ZONE), false, '06:00 local is not');
  t.equal(isNightHour(new Date('2026-03-10T02:00:00Z'), ZONE), false, '23:00 local the day before is not');
  t.equal(localDateOf(new Date('2026-03-10T02:00:00Z'), ZONE), '2026-03-09', 'and is the day before');
});

t.test('the wallet’s hours of play in the harm days', async (t) => {
  // Dice rounds lost or won as a subtest needs (roll-under 50: a roll of 99 loses, 1 wins 2.0204×); crypto random otherwise.
  const rng = scriptedRng();
  const stack = await startComplianceStack(t, 'harmplay', { config: { HARM_PLAY_INTERVAL_MS: 50, HARM_ASSESS_INTERVAL_MS: 50 }, rng });
  const db = new pg.Pool({ connectionString: stack.databaseUrl, max: 2 });
  t.teardown(() => db.end());
  const sql = sqlOnPool(db);
  const scope = await stack.brSpaOperator('production');

  /** The play columns of the player's days, summed. */
  const daysOf = async (playerId: string) =>
    (
      await sql.query<Record<string, string>>(
        `select coalesce(sum(bets), 0)::text as bets, coalesce(sum(stake_sum), 0)::text as stakes, coalesce(sum(stake_squares), 0)::numeric(30,4)::text as squares,
                coalesce(sum(win_sum), 0)::text as wins
           from compliance.harm_days where player_id = ?`,
        [playerId],
      )
    )[0]!;
  /** The same as the wallet counts them. */
  const walletOf = async (playerId: string) =>
    (
      await sql.query<Record<string, string>>(
        `select coalesce(sum(u.bets), 0)::text as bets, coalesce(sum(u.wagered), 0)::text as stakes, coalesce(sum(u.stake_squares), 0)::numeric(30,4)::text as squares,
                coalesce(sum(u.wagered - u.net_loss), 0)::text as wins
           from wallet.rg_usage u join wallet.accounts a on a.id = u.account_id where a.player_id = ?`,
        [playerId],
      )
    )[0]!;
  const passedAt = async () => (await sql.query<{ at: string }>('select passed_at::text as at from compliance.harm_play_read'))[0]?.at ?? '';
  /** Waits for `n` passes that began after this call. */
  const passes = async (n: number) => {
    for (let i = 0; i <= n; i++) {
      const before = await passedAt();
      await waitFor(async () => (await passedAt()) !== before, { what: 'a play pass' });
    }
  };

  await t.test('rounds counted as the wallet counts them, an hour read again counting nothing twice', async (t) => {
    const ana = await stack.player(scope);
    await stack.deposit(scope, ana, '100.00');
    await stack.watched(ana, 1);
    await stack.play(scope, ana, '2.50', 4);
    await waitFor(async () => (await daysOf(ana)).bets === '4', { what: "Ana's four rounds in her days" });
    const days = await daysOf(ana);
    t.match(days, { bets: '4', stakes: '10.00', squares: '25.0000' }, 'four bets of 2.50: stakes 10.00, their squares 25');
    t.same(days, await walletOf(ana), "the wins too, as the wallet's usage has them");
    await passes(2);
    t.same(await daysOf(ana), days, 'two passes later, the same: each hour kept as read, never added');
    // The wallet's read: an hour nobody played answers nothing, and names the next hour that holds play.
    const [{ h: played }] = (await sql.query<{ h: Date }>(
      'select min(u.hour) as h from wallet.rg_usage u join wallet.accounts a on a.id = u.account_id where a.player_id = ?',
      [ana],
    )) as [{ h: Date }];
    const empty = ok<{ hours: unknown[]; nextHour: string | null }>(
      await stack.call('wallet.harm.playHours', {
        scope: internalScope('compliance'),
        body: { fromHour: '2026-01-01T00:00:00.000Z', toHour: '2026-01-01T01:00:00.000Z', limit: 10 },
      }),
    );
    t.same(empty, { hours: [], nextHour: new Date(played).toISOString() }, 'an empty hour, and the next one played: the hour of her rounds');
  });

  await t.test('a player whose stakes rose: found by the stake marker through the wallet', async (t) => {
    const bia = await stack.player(scope);
    await stack.deposit(scope, bia, '400.00');
    await stack.watched(bia, 1);
    const today = localDateOf(new Date(), ZONE);
    // Her usual before the recent window: forty bets of R$ 1 a day, as made-up days (the play pass sets only the days it reads).
    for (let d = 7; d < 63; d++) {
      await sql.query(
        `insert into compliance.harm_days (player_id, day, operator_id, brand_id, environment, bets, stake_sum, stake_squares)
         values (?, ?, ?, ?, 'production', 40, 40, 40) on conflict (player_id, day) do update set bets = 40, stake_sum = 40, stake_squares = 40`,
        [bia, addDays(today, -d), scope.operatorId, scope.brandId],
      );
    }
    await stack.play(scope, bia, '5.00', 30);
    await waitFor(
      async () =>
        (await sql.query(`select 1 from compliance.harm_levels where player_id = ? and markers @> '[{"marker":"stake_escalation"}]'`, [bia])).length > 0,
      { what: "Bia's stake marker" },
    );
    const [level] = await sql.query<{ markers: Array<Record<string, unknown>> }>('select markers from compliance.harm_levels where player_id = ?', [bia]);
    t.match(
      level!.markers.find((m) => m.marker === 'stake_escalation'),
      { value: '5.00', baseline: '1.00', threshold: '2.00' },
      'a mean stake of 5.00 against her usual 1.00, held to twice it',
    );
  });

  await t.test("the play page's reality checks acknowledged, in the player's day", async (t) => {
    const dora = await stack.player(scope);
    await stack.deposit(scope, dora, '50.00');
    await stack.watched(dora, 1);
    const session = ok<{ gameUrl: string }>(
      await stack.call('games.sessions.create', { scope, key: key('gs'), params: { playerId: dora }, body: { gameId: 'gm_dice_classic' } }),
    );
    const heartbeat = (body: Record<string, unknown>) =>
      stack.call('games.play.heartbeat', { scope: gatewayScope, params: { token: tokenOf(session.gameUrl) }, body });
    for (const body of [{ realityCheck: 'acknowledged' }, {}, { realityCheck: 'acknowledged' }]) ok(await heartbeat(body));
    t.equal((await heartbeat({ realityCheck: 'dismissed' })).ok, false, 'a heartbeat saying anything else is refused');
    const dismissed = async () =>
      (await sql.query<{ n: string }>('select coalesce(sum(reality_checks_dismissed), 0)::text as n from compliance.harm_days where player_id = ?', [dora]))[0]!
        .n;
    await waitFor(async () => (await dismissed()) === '2', { what: "Dora's two reality checks in her days" });
    await passes(1);
    t.equal(await dismissed(), '2', 'two acknowledged, the plain heartbeat not, and a pass later still two');
  });

  await t.test('a deposit after lost rounds counted as one after a loss; after a win, or without play, not', async (t) => {
    const caio = await stack.player(scope);
    await stack.deposit(scope, caio, '100.00');
    rng.push(99, 99);
    await stack.play(scope, caio, '5.00', 2);
    await stack.deposit(scope, caio, '20.00');
    rng.push(1);
    await stack.play(scope, caio, '20.00', 1);
    await stack.deposit(scope, caio, '30.00');
    const counted = async () =>
      (
        await sql.query<{ deposits: string; after_loss: string }>(
          'select sum(deposits)::text as deposits, sum(deposits_after_loss)::text as after_loss from compliance.harm_days where player_id = ?',
          [caio],
        )
      )[0]!;
    await waitFor(async () => (await counted()).deposits === '3', { what: "Caio's three deposits counted" });
    t.same(
      await counted(),
      { deposits: '3', after_loss: '1' },
      'the first (no play before it) and the third (the 30 minutes before it ended 10.40 up: two rounds of 5.00 lost, one of 20.00 won) are not; the second, after two lost rounds, is',
    );
  });

  await t.test("made-up hours: the operator's day and night, minutes, a day's hours set and never added", async (t) => {
    const p = { playerId: 'ply_harm_play_hours', operatorId: scope.operatorId, brandId: scope.brandId, environment: 'production' as const };
    const hour = (iso: string, seconds: number, bets = 0) => {
      const at = new Date(iso);
      return {
        p,
        hour: iso,
        day: localDateOf(at, ZONE),
        night: isNightHour(at, ZONE),
        bets,
        stakeSum: `${bets}.00`,
        stakeSquares: String(bets),
        netLoss: '0.00',
        secondsPlayed: seconds,
        realityChecks: 0,
      };
    };
    const hours = [
      hour('2026-03-10T02:00:00.000Z', 1800, 3), // 23:00 on the 9th in São Paulo
      hour('2026-03-10T05:00:00.000Z', 3600, 2), // 02:00 on the 10th: night
      hour('2026-03-10T06:00:00.000Z', 1200), // 03:00: night
      hour('2026-03-10T15:00:00.000Z', 600, 1), // 12:00
    ];
    t.equal(await sql.transaction((tx) => keepPlayHours(tx, hours)), 1, 'the player marked once for assessment');
    const dayRows = () =>
      sql.query<Record<string, unknown>>(
        'select day, bets, stake_sum::text as stakes, minutes_played as minutes, night_minutes as night from compliance.harm_days where player_id = ? order by day',
        [p.playerId],
      );
    t.same(
      await dayRows(),
      [
        { day: '2026-03-09', bets: 3, stakes: '3.00', minutes: 30, night: 0 },
        { day: '2026-03-10', bets: 3, stakes: '3.00', minutes: 90, night: 80 },
      ],
      "each hour on its day in the operator's time zone; the night's minutes of the 10th are those before 06:00",
    );
    t.equal(await sql.transaction((tx) => keepPlayHours(tx, hours)), 0, 'the same hours again: nothing changed, nobody marked');
    await sql.transaction((tx) => keepPlayHours(tx, [hour('2026-03-10T15:00:00.000Z', 1200, 2)]));
    t.match(
      await dayRows(),
      [{ bets: 3 }, { bets: 4, minutes: 100, night: 80 }],
      "an hour read again replaces what it held: the 10th's noon now 2 bets and 20 minutes",
    );
  });
});
