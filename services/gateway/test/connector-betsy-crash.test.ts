// Betsy's calls when the wallet dies between the money statement and the answer (issue #58,
// docs/connectors-betsy.md, "Exactly once"): the wallet runs as a real child process and is killed at
// the provider calls' crash points while Betsy's call goes through the real gateway. Betsy hears its
// system error (code 100) once the gateway's deadline passes, and does what its document says: a
// place bet so answered is rolled back (the rollback sent until answered), a settle is sent again.
// Each moves money once: the rollback refunds the committed bet once, a settle or resettle sent
// again finds its payout in force and moves nothing, a rollback sent again answers as the first.
// Killed before the bet's statement, nothing survives: the rollback moves nothing and the bet
// arriving late is refused. Every test ends with verifyLedger.
import t from 'tap';
import type { Test } from 'tap';
import { randomBytes, randomUUID } from 'node:crypto';
import { betsySignature, type BetsyWireAnswer } from '@bo/contracts';
import { startConnectorCrashHarness } from './support/connector-crash.ts';

t.test('Betsy calls survive a wallet killed between its money statement and its answer, exactly once', async (t) => {
  const setup = { label: 'betsycrash', operatorName: 'Betsy Crash Sports', providerName: 'Betsy crash', kind: 'sportsbook', protocol: 'betsy' } as const;
  const {
    players,
    admin,
    provider,
    connector: P,
    base,
    enable,
    fundedPlayer,
    ledgerOf,
    killWalletAt,
    ledgerSound,
  } = await startConnectorCrashHarness(t, setup);
  const secret = `ps_${randomBytes(16).toString('hex')}`;
  await admin('PUT', P, { settings: { frameUrl: 'https://sports.operator.test/frame' } });
  await admin('POST', `${P}/secrets`, { name: 'partnerSecret', value: secret });
  const game = await admin('PUT', `/admin/providers/${provider.id}/games/sportsbook`, { name: 'Sportsbook', category: 'sports' });
  await enable();

  const betsyCall = async (method: 'POST' | 'PUT', path: string, body: unknown, at = base): Promise<BetsyWireAnswer & { http: number }> => {
    const raw = JSON.stringify(body);
    const res = await fetch(`${at}${path}`, {
      method,
      headers: { 'content-type': 'application/json', 'x-sign-jws': betsySignature(raw, secret) },
      body: raw,
    });
    return { http: res.status, ...((await res.json()) as BetsyWireAnswer) };
  };
  type S = { player: string; token: string };
  const session = async (funds: string): Promise<S> => {
    const player = await fundedPlayer(funds, game.id);
    const [row] = await players.sql.query<{ provider_url: string }>('select provider_url from wallet.game_sessions where player_id = ?', [player]);
    const s = { player, token: new URL(row!.provider_url).searchParams.get('token')! };
    // Betsy's frame asks for the user first (the gateway learns whose token it is).
    const profile = await betsyCall('POST', '/user/profile', { token: s.token, requestId: randomUUID() });
    if (profile.http !== 200) throw new Error(`/user/profile: ${JSON.stringify(profile)}`);
    return s;
  };
  const bet = (s: S, amount: number) => ({
    token: s.token,
    transactionId: randomUUID(),
    currency: 'BRL',
    amount,
    userId: s.player,
    type: 1,
    coefficient: 2,
    gameType: 'sportsbook',
    ticketType: 'single',
    requestId: randomUUID(),
    metadata: [
      { discipline: 'Football', event: 'Flamengo x Palmeiras', eventDate: '2026-11-22 19:00:00', market: 'Match Winner', outcome: 'Flamengo', coefficient: 2 },
    ],
  });
  type Bet = ReturnType<typeof bet>;
  const settle = (b: Bet, amount: number) => ({
    transactionId: b.transactionId,
    userId: b.userId,
    currency: 'BRL',
    amount,
    type: 2,
    resultType: amount > 0 ? 'won' : 'lost',
    requestId: randomUUID(),
  });
  const rollback = (b: Bet) => ({ ...b, type: 3, errorCode: 10, requestId: randomUUID() });
  const balanceOf = async (s: S) =>
    (await betsyCall('POST', '/user/balance', { userId: s.player, currency: 'BRL', token: s.token, requestId: randomUUID() })).amount;
  const crashAt = (t: Test, point: string, method: 'POST' | 'PUT', body: unknown) =>
    killWalletAt(t, point, async (crashBase) => {
      t.match(await betsyCall(method, '/payment/bet', body, crashBase), { http: 400, code: 100 }, 'Betsy hears its system error');
    });
  /** Betsy's rollback policy: sent until answered. */
  const rollbackUntilAnswered = async (b: Bet) => {
    for (let i = 0; i < 20; i++) {
      const a = await betsyCall('PUT', '/payment/bet', rollback(b));
      if (a.http === 200) return a;
    }
    throw new Error('the rollback was never answered');
  };

  t.test('killed after a place bet commits: Betsy rolls it back, the stake comes back once', async (t) => {
    const s = await session('100.00');
    const b = bet(s, 10);
    await crashAt(t, 'wallet.provider.bet.after-commit', 'POST', b);
    t.same(await ledgerOf(b.transactionId), [{ type: 'BET', amount: '-10.00' }], 'the bet was committed before the crash');
    t.match(await rollbackUntilAnswered(b), { http: 200, transactionId: b.transactionId }, "Betsy's rollback refunds it");
    t.match(await betsyCall('PUT', '/payment/bet', rollback(b)), { http: 200 }, 'sent again: answered, nothing more');
    t.same(await ledgerOf(`rollback:${b.transactionId}`), [{ type: 'ROLLBACK', amount: '10.00' }], 'one refund');
    t.equal(await balanceOf(s), 100);
    await ledgerSound(t);
  });

  t.test('killed before the place bet statement: the rollback moves nothing, the late bet is refused', async (t) => {
    const s = await session('30.00');
    const b = bet(s, 3);
    await crashAt(t, 'wallet.provider.bet.before-post', 'POST', b);
    t.same(await ledgerOf(b.transactionId), [], 'nothing recorded');
    t.match(await rollbackUntilAnswered(b), { http: 200 }, 'a rollback of nothing: answered');
    t.match(await betsyCall('POST', '/payment/bet', b), { http: 400, code: 8 }, 'the bet arriving late: already processed');
    t.equal(await balanceOf(s), 30);
    await ledgerSound(t);
  });

  t.test('killed after a settle commits: the settle sent again moves nothing, one credit', async (t) => {
    const s = await session('20.00');
    const b = bet(s, 2);
    t.equal((await betsyCall('POST', '/payment/bet', b)).http, 200);
    await crashAt(t, 'wallet.provider.win.after-commit', 'PUT', settle(b, 6));
    t.match(await betsyCall('PUT', '/payment/bet', settle(b, 6)), { http: 200, transactionId: b.transactionId });
    t.same(await ledgerOf(`settle:${b.transactionId}`), [{ type: 'WIN', amount: '6.00' }], 'one credit');
    t.equal(await balanceOf(s), 24);
    await ledgerSound(t);
  });

  t.test('killed after a resettle commits: the resettle sent again moves nothing, one correction', async (t) => {
    const s = await session('20.00');
    const b = bet(s, 2);
    t.equal((await betsyCall('POST', '/payment/bet', b)).http, 200);
    t.equal((await betsyCall('PUT', '/payment/bet', settle(b, 6))).http, 200);
    await crashAt(t, 'wallet.provider.correction.after-commit', 'PUT', settle(b, 0));
    t.match(await betsyCall('PUT', '/payment/bet', settle(b, 0)), { http: 200, transactionId: b.transactionId });
    t.same(await ledgerOf(`resettle:${b.transactionId}:1`), [{ type: 'CORRECTION', amount: '-6.00' }], 'one correction');
    t.same(await ledgerOf(`resettle:${b.transactionId}:2`), [], 'and no second');
    t.equal(await balanceOf(s), 18);
    await ledgerSound(t);
  });

  t.test('killed after the rollback of a settled bet commits: sent until answered, one correction', async (t) => {
    const s = await session('20.00');
    const b = bet(s, 2);
    t.equal((await betsyCall('POST', '/payment/bet', b)).http, 200);
    t.equal((await betsyCall('PUT', '/payment/bet', settle(b, 6))).http, 200);
    await crashAt(t, 'wallet.provider.correction.after-commit', 'PUT', rollback(b));
    t.match(await rollbackUntilAnswered(b), { http: 200, transactionId: b.transactionId });
    t.same(await ledgerOf(`rollback:${b.transactionId}`), [{ type: 'CORRECTION', amount: '-4.00' }], 'one correction: the stake back, the payout taken');
    t.match(await betsyCall('PUT', '/payment/bet', settle(b, 6)), { http: 400, code: 20 }, 'its settle sent again: the result is final');
    t.equal(await balanceOf(s), 20);
    await ledgerSound(t);
  });

  t.test('killed after a rollback commits: the rollback sent again answers, one refund', async (t) => {
    const s = await session('40.00');
    const b = bet(s, 7.5);
    t.equal((await betsyCall('POST', '/payment/bet', b)).http, 200);
    await crashAt(t, 'wallet.provider.rollback.after-commit', 'PUT', rollback(b));
    t.match(await rollbackUntilAnswered(b), { http: 200, transactionId: b.transactionId });
    t.same(await ledgerOf(`rollback:${b.transactionId}`), [{ type: 'ROLLBACK', amount: '7.50' }], 'one refund');
    t.equal(await balanceOf(s), 40);
    await ledgerSound(t);
  });
});
