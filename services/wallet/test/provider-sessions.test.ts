// Issue #59 item 4: a provider session ends after its inactivity window without play (br-spa: 30
// minutes, Portaria SPA/MF 1.207/2024), each bet and refresh moves its end on, an ended session still
// takes wins, rollbacks and corrections; a refresh is the provider page's heartbeat: the time counts
// toward the player's time limit as on our own game pages, and it answers the reality check. The real
// players and wallet services on real Postgres and NATS, the rule clock moved; verifyLedger after.
import t from 'tap';
import type { Test } from 'tap';
import { randomBytes } from 'node:crypto';
import {
  adminScope,
  BR_SPA_LIMITS,
  certifiedGame,
  gamesServicesWith,
  PUT_CERTIFICATE_SUBJECT,
  scopes,
  setComplianceProfile,
  startFakeProvider,
  startGamesStack,
} from '@bo/test-support';
import { setRuleClockOffset } from '@bo/service-kit/testing';
import { WalletConfigSchema } from '../src/config.ts';
import { walletServiceWith } from '../src/service.ts';

const services = gamesServicesWith(() => ({ service: walletServiceWith(), config: WalletConfigSchema }));
const live = scopes.production;
const txId = (label: string) => `${label}-${randomBytes(6).toString('hex')}`;
const code = (r: any) => (r.ok ? `ok:${r.status}` : r.error.code === 'RG_BLOCKED' ? `RG_BLOCKED:${r.error.details.reason}` : r.error.code);
const MINUTE = 60_000;

t.test('provider sessions that end on inactivity', async (t) => {
  const h = await startGamesStack(t, services);
  const fake = await startFakeProvider(t);
  t.teardown(() => setRuleClockOffset(0));
  const sub = h.wallet.nc.subscribe(`${h.prefix}.rpc.operators.status.get`, {
    callback: (_e, msg) => {
      msg.respond(JSON.stringify({ ok: true, status: 200, body: { status: 'active' } }));
    },
  });
  t.teardown(() => sub.unsubscribe());
  const admin = async (subject: string, params: Record<string, string>, body?: unknown) => {
    const r = await h.call(subject, adminScope, { params, ...(body === undefined ? {} : { body }) });
    if (!r.ok) throw new Error(`${subject}: ${JSON.stringify(r)}`);
    return r.body;
  };
  const provider = await admin('wallet.admin.providers.create', {}, { name: `Aggregator ${txId('p')}`, kind: 'casino', launchUrl: fake.url });
  const game = await admin('wallet.admin.providers.putGame', { id: provider.id, gameCode: 'sweet-fruits' }, { name: 'Sweet Fruits', category: 'slots' });
  await admin('wallet.admin.providers.setOperator', { id: provider.id, operatorId: live.operatorId }, { enabled: true });
  // Under br-spa a casino game takes bets only with a valid certificate (issue #59 item 5): one through the moved clock's 2031.
  const certified = certifiedGame(provider.id, 'sweet-fruits');
  await admin(PUT_CERTIFICATE_SUBJECT, certified.params, { ...certified.body, validUntil: '2040-12-31' });
  const pscope = { kind: 'provider' as const, providerId: provider.id, environment: 'production' as const };
  const p = (op: string, body: unknown) => h.call(`wallet.provider.${op}`, pscope, { body });
  const bet = (token: string, roundId = txId('round'), transactionId = txId('bet')) =>
    p('bet', { transactionId, token, roundId, gameCode: 'sweet-fruits', amount: '10.00', currency: 'BRL' });
  const at = (ms: number) => setRuleClockOffset(ms - Date.now());
  const ledgerSound = async (t: Test) => {
    const v = await h.verifyLedger();
    t.same({ ok: v.ok, mismatches: v.mismatches }, { ok: true, mismatches: [] }, 'verifyLedger holds');
    if (!v.ok) t.comment(JSON.stringify(v));
  };

  setRuleClockOffset(0);
  t.equal((await setComplianceProfile((s, sc, o) => h.call(s, sc, o), live.operatorId, 'br-spa')).ok, true, 'br-spa switched on');
  t.teardown(() => setComplianceProfile((s, sc, o) => h.call(s, sc, o), live.operatorId, 'off'));
  /** A funded br-spa player (their limits as the registration sets them) with a session of the provider's game opened at `start`. */
  const launched = async (t: Test, start: number, limits = BR_SPA_LIMITS) => {
    setRuleClockOffset(0);
    const player = await h.createPlayer(live, { kyc: 'aprovado', limits });
    await h.credit(live, player, '100.00');
    at(start);
    await h.openSession(t, live, player, game.id);
    const launch = fake.requests.at(-1)!;
    return { player, token: launch.body.token as string, launch: launch.body };
  };

  t.test('br-spa: 30 minutes without play end the session; each bet moves its end on; an ended session still settles', async (t) => {
    const { player, token } = await launched(t, Date.now());
    setRuleClockOffset(0);
    const session = async () =>
      (
        await h.sql<{ idle: number; ends: Date }>('select idle_seconds as idle, expires_at as ends from wallet.provider_sessions where player_id = ?', [player])
      )[0]!;
    // Time passing for this session alone (money keeps its own clock, which verifyLedger reads): its times moved back.
    const idle = (minutes: number) =>
      h.sql(
        `update wallet.provider_sessions set created_at = created_at - make_interval(mins => ?), expires_at = expires_at - make_interval(mins => ?),
                last_activity_at = last_activity_at - make_interval(mins => ?) where player_id = ?`,
        [minutes, minutes, minutes, player],
      );
    const endsIn = async () => Math.round((new Date((await session()).ends).getTime() - Date.now()) / MINUTE);
    t.equal((await session()).idle, 1800, 'the window of br-spa: 30 minutes');
    t.equal(await endsIn(), 30, 'a session launched and not played ends in 30 minutes');

    const first = txId('round');
    t.equal(code(await bet(token, first)), 'ok:200', 'a bet');
    t.equal(await endsIn(), 30, 'the session ends 30 minutes after it');
    await idle(25);
    t.equal(await endsIn(), 5, '25 minutes without play: 5 minutes left');
    t.equal(code(await bet(token)), 'ok:200', 'a bet then');
    t.equal(await endsIn(), 30, 'moves the end on: 30 minutes after it again');
    await idle(29);
    const last = txId('bet');
    const lastRound = txId('round');
    t.equal(code(await bet(token, lastRound, last)), 'ok:200', '29 minutes after the last bet: still live');
    await idle(31);
    const refused = (await bet(token)) as any;
    t.equal(code(refused), 'SESSION_TOKEN_EXPIRED', '31 minutes without play: the session has ended');
    t.ok(Math.abs(Date.parse(refused.error.details.expiredAt) - (Date.now() - MINUTE)) < 10_000, 'it ended 30 minutes after the last bet');
    t.equal(code(await p('authenticate', { token })), 'SESSION_TOKEN_EXPIRED', 'authenticate does not revive it');
    t.equal(code(await p('refreshSession', { token })), 'SESSION_TOKEN_EXPIRED', 'nor a refresh');

    // Money owed to the player is always paid: the ended session's rounds settle.
    t.equal(code(await p('win', { transactionId: txId('win'), playerId: player, roundId: first, amount: '25.00', currency: 'BRL' })), 'ok:200', 'a win');
    t.equal(code(await p('rollback', { transactionId: txId('rb'), playerId: player, betTransactionId: last, roundId: lastRound })), 'ok:200', 'a rollback');
    t.equal(
      code(await p('correction', { transactionId: txId('cor'), playerId: player, roundId: first, amount: '1.00', currency: 'BRL', reason: 'resettled' })),
      'ok:200',
      'a correction',
    );
    t.equal(((await h.call('wallet.get', live, { params: { playerId: player } })) as any).body.available, '106.00', '100 − 3 × 10 + 25 + 10 + 1');
    await ledgerSound(t);
  });

  t.test('a refresh keeps the session going and counts the time toward the time limit, as a heartbeat of our own page', async (t) => {
    const t1 = Date.parse('2031-03-04T10:00:00-03:00');
    const { token, launch } = await launched(t, t1, [
      { type: 'loss', period: 'day', value: '1000.00' },
      { type: 'time', period: 'day', value: 20 },
    ]);
    t.equal(launch.realityCheckMinutes, 60, "the launch tells the provider the operator's reality-check interval");
    // Only refreshes and a refused bet at the moved clock: a bet taken would count its stake in the hour of
    // the rule clock while its ledger entry has the database's (verifyLedger compares the two).
    at(t1);
    t.equal(code(await p('refreshSession', { token })), 'ok:200', 'the first activity starts the clock');
    for (let m = 4; m <= 24; m += 4) {
      at(t1 + m * MINUTE);
      const r = (await p('refreshSession', { token })) as any;
      t.equal(code(r), 'ok:200', `a refresh ${m} minutes in`);
      t.ok(Math.abs(Date.parse(r.body.expiresAt) - (t1 + (m + 30) * MINUTE)) < 5000, 'the session now ends 30 minutes after it');
    }
    at(t1 + 45 * MINUTE);
    t.equal(code(await p('authenticate', { token })), 'ok:200', '45 minutes after the first refresh, 21 after the last: still live');
    at(t1 + 45 * MINUTE + 30_000);
    const refused = await bet(token);
    t.equal(code(refused), 'RG_BLOCKED:time_limit', 'the 24 minutes the refreshes counted (within 5 minutes of each other) reach the 20-minute time limit');
    await ledgerSound(t);
  });

  t.test("a refresh answers the reality check: the session's start, its end and what the player's play moved since", async (t) => {
    const { player, token } = await launched(t, Date.now());
    setRuleClockOffset(0);
    const round = txId('round');
    t.equal(code(await bet(token, round)), 'ok:200');
    t.equal(code(await p('win', { transactionId: txId('win'), playerId: player, roundId: round, amount: '5.50', currency: 'BRL' })), 'ok:200');
    const r = (await p('refreshSession', { token })) as any;
    t.match(r, { ok: true, body: { playerId: player, currency: 'BRL', idleSeconds: 1800, realityCheckMinutes: 60, netResult: '-4.50' } });
    t.ok(Date.parse(r.body.startedAt) <= Date.now() && Date.parse(r.body.expiresAt) > Date.now() + 29 * MINUTE, 'started, and ends in 30 minutes');
    t.equal(code(await p('refreshSession', { token: 'pst_forged' })), 'SESSION_TOKEN_INVALID');
    await ledgerSound(t);
  });
});
