// Responsible gaming in the sandbox (issue #41 item 5), with the real players and wallet services on
// real Postgres and NATS: demo rounds count toward the sandbox player's loss and wager limits and
// time played, on demo play's own record, so the sandbox refuses what production would; the demo
// page's heartbeat counts time; the players service shows the usage; the wallet's accounts and
// ledger are never touched, and verifyLedger stays sound.
import t from 'tap';
import { randomBytes } from 'node:crypto';
import { gatewayScope, scopes, scriptedRng, startGamesStack, tokenOf } from '@bo/test-support';
import { setRuleClockOffset } from '@bo/service-kit/testing';
import { gamesServices } from './support/games-services.ts';

const demo = scopes.sandbox;
const clickId = () => `click-${randomBytes(8).toString('hex')}`;
const LOSE = 90; // dice roll 90 against target 50: lost

t.test('responsible gaming on demo (sandbox) play', async (t) => {
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
    h.call('players.rg.setLimit', demo, { params: { playerId, type, period }, body: { value } });
  const limitsOf = async (playerId: string) => ((await h.call('players.rg.get', demo, { params: { playerId } })) as any).body.limits;
  const openSession = (playerId: string) => h.call('games.sessions.create', demo, { params: { playerId }, body: { gameId: 'gm_dice_classic' } });
  const at = (iso: string) => setRuleClockOffset(Date.parse(iso) - Date.now());
  const ledgerCounts = async () =>
    (await h.sql<{ n: string }>("select (select count(*) from wallet.ledger_entries) || '/' || (select count(*) from wallet.accounts) as n"))[0]!.n;

  t.test('a loss limit refuses the demo round that could pass it, across sessions; the wallet is untouched', async (t) => {
    setRuleClockOffset(0);
    const before = await ledgerCounts();
    const player = await h.createPlayer(demo, { kyc: 'aprovado' });
    (await setLimit(player, 'loss', 'day', '30.00')).ok || t.fail('limit');
    const first = tokenOf((await h.openSession(t, demo, player, 'gm_dice_classic')).gameUrl);
    const second = tokenOf((await h.openSession(t, demo, player, 'gm_dice_classic')).gameUrl);
    t.equal(reason(await lose(first)), 'ok:201');
    t.equal(reason(await lose(second)), 'ok:201', 'another session of the same player counts too');
    t.equal(reason(await lose(first)), 'ok:201', 'a net loss of exactly 30.00');
    const refused = await play(second);
    t.match((refused as any).error, { code: 'RG_BLOCKED', details: { reason: 'loss_limit', period: 'day', limit: '30.00', resetsAt: String } });
    const balance = await h.sql<{ demo_balance: string }>('select demo_balance from wallet.game_sessions where player_id = ? order by created_at', [player]);
    t.same(
      balance.map((r) => r.demo_balance),
      ['980.00', '990.00'],
      'the refused round moved no demo money',
    );
    const reached = await h.sql<{ environment: string; payload: string }>(
      "select environment, payload from wallet.outbox where subject_type = 'player.limit.reached' order by seq",
    );
    t.match(
      reached.map((r) => ({ environment: r.environment, data: JSON.parse(r.payload).data })).filter((e) => e.data.playerId === player),
      [{ environment: 'sandbox', data: { type: 'loss', period: 'day', value: '30.00' } }],
      'player.limit.reached to the sandbox, as production would',
    );
    t.match(await limitsOf(player), [{ type: 'loss', period: 'day', value: '30.00', used: '30.00' }], "the players service's usage is demo play's");
    t.equal(await ledgerCounts(), before, 'no ledger entry, no wallet account');
    const v = await h.verifyLedger();
    t.same({ ok: v.ok, mismatches: v.mismatches }, { ok: true, mismatches: [] }, 'verifyLedger: demo usage is no part of it');
  });

  t.test('a wager limit counts every demo stake, won or lost; a new day resets it', async (t) => {
    const player = await h.createPlayer(demo, { kyc: 'aprovado' });
    (await setLimit(player, 'wager', 'day', '25.00')).ok || t.fail('limit');
    at('2030-11-26T23:50:00-03:00');
    const token = tokenOf((await h.openSession(t, demo, player, 'gm_dice_classic')).gameUrl);
    rng.push(10); // won
    t.equal(reason(await play(token)), 'ok:201');
    t.equal(reason(await lose(token)), 'ok:201');
    t.equal(reason(await play(token, '5.01')), 'wager_limit');
    t.equal(reason(await lose(token, '5.00')), 'ok:201', 'exactly up to the limit');
    at('2030-11-27T00:01:00-03:00');
    t.equal(reason(await lose(token, '5.00')), 'ok:201', '00:01 in São Paulo: a new day');
    setRuleClockOffset(0);
  });

  t.test('demo time played: rounds and the heartbeat count it; the time limit ends demo play', async (t) => {
    const player = await h.createPlayer(demo, { kyc: 'aprovado' });
    (await setLimit(player, 'time', 'day', 2)).ok || t.fail('limit');
    at('2030-12-02T10:00:00-03:00');
    const token = tokenOf((await h.openSession(t, demo, player, 'gm_dice_classic')).gameUrl);
    t.equal(reason(await lose(token, '0.10')), 'ok:201', 'the first activity starts the clock');
    const beat = async () => (await h.call('games.play.heartbeat', gatewayScope, { params: { token } })) as any;
    at('2030-12-02T10:01:10-03:00');
    t.match((await beat()).body, { netResult: '-0.10', roundsPlayed: 1 }, "the demo page's heartbeat answers the session's net result");
    t.match(await limitsOf(player), [{ type: 'time', value: 2, used: 1 }], 'the heartbeat counted a minute');
    at('2030-12-02T10:02:30-03:00');
    t.equal(reason(await play(token, '0.10')), 'time_limit', '2 minutes played: the limit is reached');
    t.equal(reason(await openSession(player)), 'time_limit', 'no new demo session either');
    at('2030-12-03T09:00:00-03:00');
    t.equal(reason(await openSession(player)), 'ok:201', 'the next day');
    setRuleClockOffset(0);
  });
});
