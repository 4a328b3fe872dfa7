// The prize clock of provider wins (issue #46 item 3; docs/providers.md, "The prize clock"), in the
// wallet against real Postgres and NATS with the real players service: a win that settles a sports
// bet names when its event ended (`eventEndedAt`); the wallet records the prize's deadline (120
// minutes after) and whether the credit met it, on the win's own row, and counts it (on time, late,
// or untimed when a sports bet's win did not say) with the delay from the event's end. A late prize
// is still paid; a replay counts nothing again; a lost bet (0.00) owes no prize. The operators
// service is a NATS responder (its status is all the wallet asks).
import t from 'tap';
import type { Test } from 'tap';
import { randomBytes } from 'node:crypto';
import { adminScope, gamesServicesWith, scopes, startFakeProvider, startGamesStack, type GamesStack } from '@bo/test-support';
import { WalletConfigSchema } from '../src/config.ts';
import { walletServiceWith } from '../src/service.ts';

const services = gamesServicesWith(() => ({ service: walletServiceWith(), config: WalletConfigSchema }));
const live = scopes.production;
const txId = (label = 'tx') => `${label}-${randomBytes(6).toString('hex')}`;
const MINUTE = 60_000;
const SLIP = {
  sport: 'football',
  event: 'Bahia x Vitória',
  market: 'match_result',
  selection: 'Bahia',
  odds: '2.10',
  eventStartsAt: '2030-01-01T19:00:00.000Z',
};

async function assertLedgerSound(t: Test, h: GamesStack): Promise<void> {
  const v = await h.verifyLedger();
  t.same({ ok: v.ok, mismatches: v.mismatches, sum: v.sumOfAllBalances }, { ok: true, mismatches: [], sum: '0.00' }, 'verifyLedger holds');
}

t.test('the prize clock of provider wins', async (t) => {
  const h = await startGamesStack(t, services);
  const fake = await startFakeProvider(t);
  const sub = h.wallet.nc.subscribe(`${h.prefix}.rpc.operators.status.get`, {
    callback: (_e, msg) => {
      msg.respond(JSON.stringify({ ok: true, status: 200, body: { status: 'active' } }));
    },
  });
  t.teardown(() => sub.unsubscribe());
  const ok = (r: any) => {
    if (!r.ok) throw new Error(JSON.stringify(r));
    return r.body;
  };
  const admin = async (subject: string, params: Record<string, string>, body?: unknown) =>
    ok(await h.call(subject, adminScope, { params, ...(body === undefined ? {} : { body }) }));
  const providerOf = async (kind: 'casino' | 'sportsbook', gameCode: string) => {
    const provider = await admin('wallet.admin.providers.create', {}, { name: `${kind} ${txId()}`, kind, launchUrl: fake.url });
    const game = await admin(
      'wallet.admin.providers.putGame',
      { id: provider.id, gameCode },
      { name: gameCode, category: kind === 'casino' ? 'slots' : 'sports' },
    );
    await admin('wallet.admin.providers.setOperator', { id: provider.id, operatorId: live.operatorId }, { enabled: true });
    const pscope = { kind: 'provider' as const, providerId: provider.id, environment: 'production' as const };
    const call = (op: string, body: unknown) => h.call(`wallet.provider.${op}`, pscope, { body }) as Promise<any>;
    return { provider, game, call };
  };

  // The series are there, at 0, before any win.
  const scrape = () => h.wallet.metrics.metrics();
  const credits = async (clock: string) => Number(new RegExp(`bo_prize_credits_total\\{clock="${clock}",service="wallet"\\} (\\d+)`).exec(await scrape())?.[1]);
  const delays = async () => Number(/bo_prize_credit_delay_seconds_count\{service="wallet"\} (\d+)/.exec(await scrape())?.[1]);
  t.same(
    [await credits('on_time'), await credits('late'), await credits('untimed'), await delays()],
    [0, 0, 0, 0],
    'every clock and the delay at 0 from the start',
  );

  const sports = await providerOf('sportsbook', 'sportsbook');
  const casino = await providerOf('casino', 'sweet-fruits');
  /** A funded player's sports bet of 10.00 on a new slip (or a casino bet on a new round). */
  const betOn = async (t: Test, p: typeof sports, gameCode: string) => {
    const player = await h.createPlayer(live, { kyc: 'aprovado' });
    await h.credit(live, player, '100.00');
    await h.openSession(t, live, player, p.game.id);
    const token = fake.requests.at(-1)!.body.token as string;
    const roundId = txId('slip');
    ok(
      await p.call('bet', { transactionId: txId('bet'), token, roundId, gameCode, amount: '10.00', currency: 'BRL', ...(p === sports ? { slip: SLIP } : {}) }),
    );
    return { player, roundId };
  };
  const rowOf = async (transactionId: string) =>
    (
      await h.sql<{ event_ended_at: string | null; prize_due_at: string | null; prize_on_time: boolean | null }>(
        'select event_ended_at, prize_due_at, prize_on_time from wallet.provider_transactions where provider_id in (?, ?) and transaction_id = ?',
        [sports.provider.id, casino.provider.id, transactionId],
      )
    )[0]!;

  t.test('a prize credited within 120 minutes of the event: on time, recorded on the win', async (t) => {
    const { player, roundId } = await betOn(t, sports, 'sportsbook');
    const ended = new Date(Date.now() - 30 * MINUTE);
    const win = { transactionId: txId('win'), playerId: player, roundId, amount: '21.00', currency: 'BRL', outcome: 'won', eventEndedAt: ended.toISOString() };
    const before = { onTime: await credits('on_time'), delays: await delays() };
    t.match(ok(await sports.call('win', win)), { moved: '21.00', balance: '111.00', replayed: false });
    const row = await rowOf(win.transactionId);
    t.equal(Date.parse(String(row.event_ended_at)), ended.getTime(), "the event's end");
    t.equal(Date.parse(String(row.prize_due_at)), ended.getTime() + 120 * MINUTE, 'the deadline: 120 minutes after it');
    t.equal(row.prize_on_time, true, 'met');
    t.equal(await credits('on_time'), before.onTime + 1, 'counted on time');
    t.equal(await delays(), before.delays + 1, 'its delay observed');
    t.match(ok(await sports.call('win', win)), { replayed: true }, 'a replay');
    t.equal(await credits('on_time'), before.onTime + 1, 'counted once');
    await assertLedgerSound(t, h);
  });

  t.test('a prize credited after its deadline: still paid, recorded and counted late', async (t) => {
    const { player, roundId } = await betOn(t, sports, 'sportsbook');
    const ended = new Date(Date.now() - 3 * 60 * MINUTE);
    const win = { transactionId: txId('win'), playerId: player, roundId, amount: '15.00', currency: 'BRL', outcome: 'won', eventEndedAt: ended.toISOString() };
    const late = await credits('late');
    t.match(ok(await sports.call('win', win)), { moved: '15.00', balance: '105.00' }, 'the money moves all the same');
    t.equal((await rowOf(win.transactionId)).prize_on_time, false, 'recorded late');
    t.equal(await credits('late'), late + 1, 'counted late');
    await assertLedgerSound(t, h);
  });

  t.test("a sports bet's win without the event's end is untimed; a lost bet and a casino round are not prizes to time", async (t) => {
    const before = { onTime: await credits('on_time'), late: await credits('late'), untimed: await credits('untimed') };
    const untimed = await betOn(t, sports, 'sportsbook');
    const w1 = { transactionId: txId('win'), playerId: untimed.player, roundId: untimed.roundId, amount: '12.00', currency: 'BRL', outcome: 'won' };
    ok(await sports.call('win', w1));
    t.same(await rowOf(w1.transactionId), { event_ended_at: null, prize_due_at: null, prize_on_time: null }, 'nothing to record');
    t.equal(await credits('untimed'), before.untimed + 1, 'counted untimed: the provider should have said');

    const lost = await betOn(t, sports, 'sportsbook');
    const w2 = {
      transactionId: txId('win'),
      playerId: lost.player,
      roundId: lost.roundId,
      amount: '0',
      currency: 'BRL',
      outcome: 'lost',
      eventEndedAt: new Date().toISOString(),
    };
    ok(await sports.call('win', w2));
    t.same(await rowOf(w2.transactionId), { event_ended_at: null, prize_due_at: null, prize_on_time: null }, 'a lost bet owes no prize');

    const round = await betOn(t, casino, 'sweet-fruits');
    const w3 = { transactionId: txId('win'), playerId: round.player, roundId: round.roundId, amount: '4.00', currency: 'BRL' };
    ok(await casino.call('win', w3));
    t.same(
      [await credits('on_time'), await credits('late'), await credits('untimed')],
      [before.onTime, before.late, before.untimed + 1],
      "neither is counted: a casino round's win is credited in its session",
    );
    await assertLedgerSound(t, h);
  });

  t.test('eventEndedAt must be a date-time', async (t) => {
    const { player, roundId } = await betOn(t, sports, 'sportsbook');
    const bad = await sports.call('win', {
      transactionId: txId('win'),
      playerId: player,
      roundId,
      amount: '5.00',
      currency: 'BRL',
      eventEndedAt: 'yesterday evening',
    });
    t.match(bad, { ok: false, error: { code: 'VALIDATION_ERROR' } });
    await assertLedgerSound(t, h);
  });
});
