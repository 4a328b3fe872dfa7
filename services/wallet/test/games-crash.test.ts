// Crash tests of real-money rounds: the wallet runs as a real child process and is killed at the
// round's crash points. After the commit (`wallet.round.after-commit`) the round and its money
// are durable but the page never hears of it: the restarted wallet must answer the retried click
// (same clientRoundId) with the recorded round, never a second debit. Drawn but not posted
// (`wallet.round.before-post`; the round is one statement) nothing may survive: the retry plays
// the round once. A player with limits whose round is checked in a transaction
// (`wallet.round.limits-checked`) loses nothing of it either, and its usage counts a round once.
import t from 'tap';
import type { Test } from 'tap';
import { randomBytes } from 'node:crypto';
import { WALLET_SUBJECTS } from '@bo/contracts';
import { walletCrashStack } from './support/child-wallet.ts';
import { assertLedgerSound, internalScope, operatorScope, createPlayer, errorOf, ok, gatewayScope, tokenOf } from '@bo/test-support';

t.test('real rounds survive a wallet crash exactly once', async (t) => {
  // Players runs in-process; the wallet only as a child process.
  const { stack, call, sql, wallet } = await walletCrashStack(t, 'gamescrash');
  await wallet.start();

  const brand = operatorScope('live', 'production');
  const newPlayerWithSession = async (t: Test, amount: string) => {
    const player = await createPlayer(call, brand, { kyc: 'aprovado' });
    ok(
      await call(WALLET_SUBJECTS.credit, {
        scope: internalScope(),
        body: { brandId: brand.brandId, playerId: player, currency: 'BRL', amount, depositId: `dep_${randomBytes(6).toString('hex')}` },
      }),
    );
    const session = ok<{ gameUrl: string; mode: string }>(
      await call('games.sessions.create', { scope: brand, params: { playerId: player }, body: { gameId: 'gm_dice_classic' } }),
    );
    t.equal(session.mode, 'real');
    return { player, token: tokenOf(session.gameUrl) };
  };
  const play = (token: string, body: Record<string, string>, timeoutMs = 10_000) =>
    call('games.play.round', { scope: gatewayScope, params: { token }, body, timeoutMs });
  const roundsOf = async (clientRoundId: string) =>
    (await sql.query('select id, amount, payout, win, balance_after from wallet.game_rounds where client_round_id = $1', [clientRoundId])).rows;
  const playerEntries = async (roundId: string) =>
    (
      await sql.query(
        `select e.type, e.amount from wallet.ledger_entries e join wallet.accounts a on a.id = e.account_id
     where a.kind = 'player' and e.reference_id = $1 order by e.account_seq`,
        [roundId],
      )
    ).rows;
  const available = async (player: string) => ok<{ available: string }>(await call('wallet.get', { scope: brand, params: { playerId: player } })).available;
  const cents = (v: string) => Math.round(Number(v) * 100);

  t.test('crash after the commit: the retried click gets the recorded round, one BET, at most one WIN', async (t) => {
    const { player, token } = await newPlayerWithSession(t, '100.00');
    const victim = await wallet.start({ CRASH_AT: 'wallet.round.after-commit' });
    const click = { amount: '10.00', target: '50', clientRoundId: `crash-${randomBytes(6).toString('hex')}` };

    const lost = await play(token, click, 3000);
    t.equal(errorOf(lost)?.code, 'SERVICE_UNAVAILABLE', 'the page never hears of the round');
    const { signal } = await victim.exited;
    t.equal(signal, 'SIGKILL', 'the wallet died at the crash point');
    t.match(victim.stderrTail(), 'crash point wallet.round.after-commit: exiting');
    const [recorded, ...more] = await roundsOf(click.clientRoundId);
    t.ok(recorded, 'the round was committed before the crash');
    t.equal(more.length, 0);

    await wallet.start();
    const retry = await play(token, click);
    t.equal(retry.ok && retry.status, 201);
    const round = ok<{ id: string; payout: string; balanceAfter: string; win: boolean }>(retry);
    t.equal(round.id, recorded.id, 'the retry returns the recorded round');
    t.same(
      { payout: round.payout, balanceAfter: round.balanceAfter, win: round.win },
      { payout: recorded.payout, balanceAfter: recorded.balance_after, win: recorded.win },
    );
    const again = ok(await play(token, click));
    t.same(again, round, 'and so does every later retry');

    const entries = await playerEntries(round.id);
    t.same(
      entries.filter((e) => e.type === 'BET').map((e) => e.amount),
      ['-10.00'],
      'exactly one BET',
    );
    t.same(
      entries.filter((e) => e.type === 'WIN').map((e) => e.amount),
      round.win ? [round.payout] : [],
      'at most one WIN, exactly when it paid',
    );
    t.equal(cents(await available(player)), 10_000 - 1000 + cents(round.payout), 'the player paid for one round');
    t.equal((await roundsOf(click.clientRoundId)).length, 1);

    const next = await play(token, { ...click, clientRoundId: `after-${randomBytes(6).toString('hex')}` });
    t.equal(next.ok && next.status, 201, 'the restarted wallet plays new rounds');
    await assertLedgerSound(t, stack);
  });

  t.test('crash after a batch of rounds committed (group commit): every round of it is recorded, each retry gets its own', async (t) => {
    const players = await Promise.all(Array.from({ length: 4 }, () => newPlayerWithSession(t, '40.00')));
    // A window long enough that the four clicks, sent at once, share one statement (docs/money.md, "Group commit").
    const victim = await wallet.start({ CRASH_AT: 'wallet.round.after-commit', GROUP_COMMIT_WINDOW_MS: 1000 });
    const clicks = players.map(() => ({ amount: '4.00', target: '50', clientRoundId: `batch-${randomBytes(6).toString('hex')}` }));
    const lost = await Promise.all(players.map((p, i) => play(p.token, clicks[i]!, 10_000)));
    t.equal(lost.filter((r) => r.ok).length, 0, 'no page hears of its round');
    t.equal((await victim.exited).signal, 'SIGKILL');
    const recorded = [];
    for (const c of clicks) recorded.push(await roundsOf(c.clientRoundId));
    t.same(
      recorded.map((r) => r.length),
      [1, 1, 1, 1],
      'one statement: all four rounds committed together before the kill',
    );
    await wallet.start();
    const retries = await Promise.all(players.map((p, i) => play(p.token, clicks[i]!)));
    t.same(
      retries.map((r) => r.ok && ok<{ id: string }>(r).id),
      recorded.map((r) => r[0]!.id),
      'each retried click gets its own recorded round',
    );
    const bets = [];
    for (const r of recorded) bets.push((await playerEntries(r[0]!.id)).filter((e) => e.type === 'BET').map((e) => e.amount));
    t.same(bets, [['-4.00'], ['-4.00'], ['-4.00'], ['-4.00']], 'exactly one BET each');
    await assertLedgerSound(t, stack);
  });

  t.test("crash after the draw, before the round's statement: nothing of the round survives; the retry plays it once", async (t) => {
    const { player, token } = await newPlayerWithSession(t, '50.00');
    const victim = await wallet.start({ CRASH_AT: 'wallet.round.before-post' });
    const click = { amount: '5.00', target: '50', clientRoundId: `early-${randomBytes(6).toString('hex')}` };
    t.equal(errorOf(await play(token, click, 3000))?.code, 'SERVICE_UNAVAILABLE');
    t.equal((await victim.exited).signal, 'SIGKILL');
    t.same(await roundsOf(click.clientRoundId), [], 'no round was recorded');
    const [{ n }] = (
      await sql.query(
        `select count(*)::int as n from wallet.ledger_transactions where type in ('BET', 'WIN') and reference_id not in (select id from wallet.game_rounds)`,
      )
    ).rows;
    t.equal(n, 0, 'and no money moved without it');

    await wallet.start();
    t.equal(await available(player), '50.00', 'the balance is untouched');
    const round = ok<{ id: string; payout: string }>(await play(token, click));
    t.same(
      (await playerEntries(round.id)).filter((e) => e.type === 'BET').map((e) => e.amount),
      ['-5.00'],
      'one BET, from the retry',
    );
    t.equal(cents(await available(player)), 5000 - 500 + cents(round.payout));
    await assertLedgerSound(t, stack);
  });

  t.test('a player with a wager limit: a crash inside the checked round leaves nothing, one after the commit counts the round once', async (t) => {
    const { player, token } = await newPlayerWithSession(t, '100.00');
    ok(
      await call('players.rg.setLimit', {
        scope: brand,
        params: { playerId: player, type: 'wager', period: 'day' },
        body: { value: '20.00' },
        key: `limit-${randomBytes(6).toString('hex')}`,
      }),
    );
    const click = { amount: '10.00', target: '50', clientRoundId: `limited-${randomBytes(6).toString('hex')}` };
    const usage = async () =>
      (
        await sql.query(
          `select coalesce(sum(u.wagered), 0)::text as wagered from wallet.rg_usage u join wallet.accounts a on a.id = u.account_id where a.player_id = $1`,
          [player],
        )
      ).rows[0].wagered;

    const checked = await wallet.start({ CRASH_AT: 'wallet.round.limits-checked' });
    t.equal(errorOf(await play(token, click, 3000))?.code, 'SERVICE_UNAVAILABLE');
    t.equal((await checked.exited).signal, 'SIGKILL', 'died between the check and the round');
    t.same(await roundsOf(click.clientRoundId), [], 'no round');
    t.equal(await usage(), '0', 'and no usage');

    const committed = await wallet.start({ CRASH_AT: 'wallet.round.after-commit' });
    t.equal(errorOf(await play(token, click, 3000))?.code, 'SERVICE_UNAVAILABLE');
    t.equal((await committed.exited).signal, 'SIGKILL', 'died after the commit');
    const [recorded] = await roundsOf(click.clientRoundId);
    t.ok(recorded, 'the round was committed');

    await wallet.start();
    t.equal(ok<{ id: string }>(await play(token, click)).id, recorded.id, 'the retry returns the recorded round');
    t.equal(await usage(), '10.00', 'counted once');
    const second = await play(token, { ...click, clientRoundId: `second-${randomBytes(6).toString('hex')}` });
    t.equal(second.ok && second.status, 201, 'a second round fits the limit exactly');
    const third = await play(token, { ...click, clientRoundId: `third-${randomBytes(6).toString('hex')}` });
    t.match(errorOf(third), { code: 'RG_BLOCKED', details: { reason: 'wager_limit' } }, 'a third does not');
    await assertLedgerSound(t, stack);
  });
});
