// Real-money rounds (production sessions) against real Postgres and NATS with the real players
// service: each round is one wallet transaction with its BET (and WIN) ledger transactions
// against the brand's game-clearing account, exactly once per clientRoundId, staking only
// `available − held`, re-checking the player every round. Every test ends with verifyLedger.
import t from 'tap';
import type { Test } from 'tap';
import { randomBytes } from 'node:crypto';
import { gatewayScope, scopes, scriptedRng, startGamesStack, tokenOf, type GamesStack } from '@bo/test-support';
import { gamesServices } from './support/games-services.ts';
import { postRealRound } from '../src/games/store/game-round.ts';

const cents = (v: string | number) => Math.round(Number(v) * 100);
const money = (c: number) => (c / 100).toFixed(2);
const clickId = () => `click-${randomBytes(8).toString('hex')}`;
const future = () => new Date(Date.now() + 7 * 86_400_000).toISOString();
const live = scopes.production;
const clearingId = `acct:game_clearing:${live.brandId}:BRL`;

async function assertLedgerSound(t: Test, h: GamesStack): Promise<void> {
  const v = await h.verifyLedger();
  t.same(
    { ok: v.ok, mismatches: v.mismatches, unbalanced: v.unbalancedTransactions, sum: v.sumOfAllBalances },
    { ok: true, mismatches: [], unbalanced: [], sum: '0.00' },
    'verifyLedger: balances = entries, rounds = their entries, sum of all balances 0',
  );
}

t.test('real-money rounds', async (t) => {
  const rng = scriptedRng();
  const h = await startGamesStack(t, gamesServices, {}, { rng });
  const code = (r: any) => (r.ok ? `ok:${r.status}` : r.error.code);
  const view = (token: string) => h.call('games.play.session', gatewayScope, { params: { token } }).then((r: any) => r.body);
  const play = (token: string, body: Record<string, string>) => h.call('games.play.round', gatewayScope, { params: { token }, body });
  const wallet = (playerId: string) => h.call('wallet.get', live, { params: { playerId } }).then((r: any) => r.body);
  const entriesOf = (roundId: string) =>
    h.sql<{ account_id: string; type: string; amount: string; balance_after: string; id: string }>(
      `select e.id, e.account_id, e.type, e.amount, e.balance_after from wallet.ledger_entries e where e.reference_id = ? order by e.account_seq, e.account_id`,
      [roundId],
    );
  const entryCount = async () => (await h.sql(`select count(*)::int as n from wallet.ledger_entries`))[0].n as number;
  const test = (name: string, fn: (t: Test) => Promise<void>) =>
    t.test(name, async (t) => {
      await fn(t);
      await assertLedgerSound(t, h);
    });

  test('a lost and a won round: BET and WIN in the ledger, the wallet and the transactions list', async (t) => {
    const player = await h.createPlayer(live, { kyc: 'aprovado' });
    await h.credit(live, player, '100.00');
    const s = await h.openSession(t, live, player, 'gm_dice_classic');
    const token = tokenOf(s.gameUrl);
    t.match(await view(token), { mode: 'real', balance: '100.00', playable: true, notice: null }, 'the page gets the real withdrawable balance');

    rng.push(90); // roll 90, not under 50: lost
    const lost = await play(token, { amount: '10.00', target: '50', clientRoundId: clickId() });
    t.equal(code(lost), 'ok:201');
    const l = (lost as any).body;
    t.match(l, { id: /^gr_[0-9a-f]{32}$/, sessionId: s.id, amount: '10.00', payout: '0.00', win: false, balanceAfter: '90.00', outcome: { roll: 90 } });
    const lostEntries = await entriesOf(l.id);
    t.same(
      lostEntries.map((e) => `${e.account_id === clearingId ? 'clearing' : 'player'} ${e.type} ${e.amount}`).sort(),
      ['clearing BET 10.00', 'player BET -10.00'],
      'BET: −10.00 player, +10.00 game clearing; no WIN',
    );
    t.same(lostEntries.find((e) => e.account_id !== clearingId)!.balance_after, '90.00');

    rng.push(10); // roll 10, under 50: won 10.00 × 2.0204
    const won = await play(token, { amount: '10.00', target: '50', clientRoundId: clickId() });
    const w = (won as any).body;
    t.match(w, { amount: '10.00', payout: '20.20', win: true, balanceAfter: '100.20' });
    const wonEntries = await entriesOf(w.id);
    t.same(wonEntries.map((e) => `${e.account_id === clearingId ? 'clearing' : 'player'} ${e.type} ${e.amount}`).sort(), [
      'clearing BET 10.00',
      'clearing WIN -20.20',
      'player BET -10.00',
      'player WIN 20.20',
    ]);
    const [row] = await h.sql(`select bet_entry_id, win_entry_id, balance_before, balance_after from wallet.game_rounds where id = ?`, [w.id]);
    const mine = (type: string) => wonEntries.find((e) => e.type === type && e.account_id !== clearingId)!.id;
    t.same(row, { bet_entry_id: mine('BET'), win_entry_id: mine('WIN'), balance_before: '90.00', balance_after: '100.20' }, 'the round names its entries');

    t.same(await wallet(player), { playerId: player, currency: 'BRL', available: '100.20', withdrawable: '100.20' }, 'wallet.get reflects the rounds');
    const list = ((await h.call('wallet.transactions', live, { params: { playerId: player } })) as any).body.data;
    t.same(
      list.map((e: any) => [e.type, e.amount, e.balanceAfter, e.referenceId]),
      [
        ['WIN', '20.20', '100.20', w.id],
        ['BET', '-10.00', '80.00', w.id],
        ['BET', '-10.00', '90.00', l.id],
        ['DEPOSIT', '100.00', '100.00', list[3].referenceId],
      ],
      'GET /players/{id}/transactions: newest first, signed amounts, the round id as reference',
    );
    const [clearing] = await h.sql(`select kind, available, held, player_id from wallet.account_balances where id = ?`, [clearingId]);
    t.same(
      clearing,
      { kind: 'game_clearing', available: '-0.20', held: '0.00', player_id: null },
      'the brand game clearing account is the other side (its derived balance: append-only, docs/money.md)',
    );
    t.match(await view(token), { balance: '100.20' }, 'a reopened page shows the new balance');
  });

  test('a retried click returns the recorded round: one debit however often it arrives', async (t) => {
    const player = await h.createPlayer(live, { kyc: 'aprovado' });
    await h.credit(live, player, '50.00');
    const s = await h.openSession(t, live, player, 'gm_roulette_demo');
    const token = tokenOf(s.gameUrl);
    const body = { amount: '20.00', pick: 'red', clientRoundId: clickId() };
    const replies = await Promise.all(Array.from({ length: 8 }, () => play(token, body)));
    t.same([...new Set(replies.map(code))], ['ok:201']);
    t.equal(new Set(replies.map((r: any) => r.body.id)).size, 1, 'eight deliveries, one round');
    const again = await play(token, body);
    t.same((again as any).body, (replies[0] as any).body, 'a later retry gets the same answer');
    // The roulette's outcome ({ number, color, pick }) is one that jsonb would reorder.
    t.same(
      [...new Set([...replies, again].map((r: any) => JSON.stringify(r.body)))],
      [JSON.stringify((replies[0] as any).body)],
      "byte for byte, the outcome's keys in their first order",
    );
    const round = (replies[0] as any).body;
    const entries = await entriesOf(round.id);
    t.equal(entries.filter((e) => e.type === 'BET').length, 2, 'one BET transaction (player and clearing postings)');
    t.equal(entries.filter((e) => e.type === 'WIN').length, round.win ? 2 : 0);
    t.equal((await wallet(player)).available, money(5000 - 2000 + cents(round.payout)));
    const [{ n }] = await h.sql(`select count(*)::int as n from wallet.game_rounds where session_id = ?`, [s.id]);
    t.equal(n, 1);
  });

  test('the stake comes only from available − held: money reserved for a withdrawal is never bet', async (t) => {
    const player = await h.createPlayer(live, { kyc: 'aprovado' });
    await h.credit(live, player, '50.00');
    const withdrawalId = await h.hold(live, player, '45.00');
    const s = await h.openSession(t, live, player, 'gm_dice_classic');
    const token = tokenOf(s.gameUrl);
    t.match(await view(token), { balance: '5.00' }, 'the page shows what can be bet');
    const before = await entryCount();
    const refused = await play(token, { amount: '10.00', target: '50', clientRoundId: clickId() });
    t.equal(code(refused), 'INSUFFICIENT_FUNDS');
    t.same((refused as any).error.details, { balance: '5.00' });
    t.equal(await entryCount(), before, 'a refused bet writes nothing');
    rng.push(99);
    const allIn = await play(token, { amount: '5.00', target: '50', clientRoundId: clickId() });
    t.match((allIn as any).body, { payout: '0.00', balanceAfter: '0.00' }, 'all of the stakeable 5.00 bet and lost');
    t.same(await wallet(player), { playerId: player, currency: 'BRL', available: '45.00', withdrawable: '0.00' });
    const next = await play(token, { amount: '0.10', target: '50', clientRoundId: clickId() });
    t.same((next as any).error?.details, { balance: '0.00' }, 'nothing left to bet');
    const paid = await h.call('wallet.capture', { kind: 'internal', service: 'payments' }, { body: { brandId: live.brandId, withdrawalId } });
    t.match((paid as any).body, { holdStatus: 'captured', available: '0.00', held: '0.00' }, 'the reserved 45.00 is still there to be paid out');
  });

  test('every round re-checks the player: a pause, status and KYC end play at once', async (t) => {
    // Each leaves the session open, so the round's own check is what refuses it (a self-exclusion ends
    // the session itself: test/responsible-gaming.test.ts).
    const cases = [
      ['RG_BLOCKED', (playerId: string) => h.call('players.rg.pause', live, { params: { playerId }, body: { until: future() } })],
      ['PLAYER_NOT_ACTIVE', (id: string) => h.call('players.admin.status', { kind: 'admin', actor: 't' }, { params: { id }, body: { status: 'suspenso' } })],
      [
        'KYC_NOT_APPROVED',
        (id: string) => h.call('players.admin.kycDecision', { kind: 'admin', actor: 't' }, { params: { id }, body: { status: 'reprovado' } }),
      ],
    ] as const;
    for (const [expected, change] of cases) {
      const player = await h.createPlayer(live, { kyc: 'aprovado' });
      await h.credit(live, player, '30.00');
      const s = await h.openSession(t, live, player, 'gm_slots_fruit');
      const token = tokenOf(s.gameUrl);
      const first = { amount: '1.00', clientRoundId: clickId() };
      const played = await play(token, first);
      t.equal(code(played), 'ok:201', 'the player may play');
      const r = await change(player);
      t.ok(r.ok, `players changed: ${JSON.stringify(r)}`);
      const before = await entryCount();
      const refused = await play(token, { amount: '1.00', clientRoundId: clickId() });
      t.equal(code(refused), expected, `the open session is refused: ${expected}`);
      t.equal(await entryCount(), before, 'no money moved');
      t.match(await view(token), { playable: false, notice: String }, 'the page says why instead of offering Play');
      const replay = await play(token, first);
      t.same((replay as any).body, (played as any).body, 'a retry of a round already played still gets its answer');
    }
  });

  test('30 concurrent rounds on one player over 3 sessions: no overdraw, every round has exactly its entries', async (t) => {
    const player = await h.createPlayer(live, { kyc: 'aprovado' });
    await h.credit(live, player, '100.00');
    await h.hold(live, player, '40.00');
    const sessions = await Promise.all(['gm_aviator_demo', 'gm_aviator_demo', 'gm_aviator_demo'].map((g) => h.openSession(t, live, player, g)));
    // 10.00 at a 50× cash-out mostly loses: the 60.00 that can be bet runs out part-way through.
    const replies = await Promise.all(
      Array.from({ length: 30 }, (_, i) => play(tokenOf(sessions[i % 3]!.gameUrl), { amount: '10.00', target: '50.00', clientRoundId: clickId() })),
    );
    const codes = replies.map(code);
    t.ok(
      codes.every((c) => c === 'ok:201' || c === 'INSUFFICIENT_FUNDS'),
      codes.join(','),
    );
    const accepted = replies.filter((r) => r.ok).map((r: any) => r.body);
    t.ok(accepted.length >= 6, `at least 60.00 / 10.00 rounds were accepted (${accepted.length})`);

    const [account] = await h.sql(`select id, available, held, entry_count from wallet.accounts where kind = 'player' and player_id = ?`, [player]);
    t.equal(account.held, '40.00', 'the reservation is untouched');
    t.ok(cents(account.available) >= cents(account.held), 'available never below held');
    const entries = await h.sql(
      `select type, amount, balance_after, reference_id, account_seq from wallet.ledger_entries where account_id = ? order by account_seq`,
      [account.id],
    );
    t.equal(
      cents(account.available),
      entries.reduce((sum: number, e: any) => sum + cents(e.amount), 0),
      'balance = sum of its entries',
    );
    // Aggregated, so the number of assertions does not depend on how many rounds the draw allowed.
    let running = 0;
    const chainBreaks: string[] = [];
    let belowHeld = 0;
    for (const e of entries) {
      running += cents(e.amount);
      if (cents(e.balance_after) !== running) chainBreaks.push(`entry ${e.account_seq}: ${e.balance_after} ≠ ${money(running)}`);
      if (running - 4000 < 0) belowHeld++;
    }
    t.same(chainBreaks, [], 'every balanceAfter is the running sum');
    t.equal(belowHeld, 0, 'the stakeable part never went below zero');
    const rounds = await h.sql(
      `select r.id, r.amount, r.payout, r.balance_before, r.balance_after from wallet.game_rounds r
      join wallet.game_sessions s on s.id = r.session_id where s.player_id = ?`,
      [player],
    );
    t.same(rounds.map((r: any) => r.id).sort(), accepted.map((r) => r.id).sort(), 'every accepted round is recorded, nothing else');
    const wrongRounds: string[] = [];
    for (const r of rounds) {
      const mine = entries.filter((e: any) => e.reference_id === r.id);
      const bet = mine.filter((e: any) => e.type === 'BET');
      const win = mine.filter((e: any) => e.type === 'WIN');
      if (JSON.stringify(bet.map((e: any) => e.amount)) !== JSON.stringify(['-10.00'])) wrongRounds.push(`${r.id}: not exactly one BET`);
      if (JSON.stringify(win.map((e: any) => e.amount)) !== JSON.stringify(cents(r.payout) > 0 ? [r.payout] : []))
        wrongRounds.push(`${r.id}: WIN not exactly when it paid`);
      if (bet[0] && cents(bet[0].balance_after) - 4000 + 1000 !== cents(r.balance_before))
        wrongRounds.push(`${r.id}: did not start from the stakeable balance under the lock`);
    }
    t.same(wrongRounds, [], 'every round: exactly one BET, a WIN exactly when it paid, started from the stakeable balance under the lock');
    const clearing = await h.sql(`select sum(amount) as s from wallet.ledger_entries where account_id = ?`, [clearingId]);
    t.ok(clearing[0].s !== null, 'the game clearing account took the other side');
    const final = await wallet(player);
    t.equal(final.withdrawable, money(cents(account.available) - 4000));
    t.ok(!codes.includes('INSUFFICIENT_FUNDS') || cents(final.withdrawable) < 1000, 'refused only once less than the bet was left');
  });

  test('40 concurrent clicks on one session, all funded: every one is played, numbered 1 to 40', async (t) => {
    // Each click waits for the player's row behind the others. Its round number must come from a
    // row read after that wait: numbered from the statement's snapshot, most clicks collided and
    // were retried, and under load some lost every retry and answered INTERNAL_ERROR.
    const player = await h.createPlayer(live, { kyc: 'aprovado' });
    await h.credit(live, player, '40.00');
    const s = await h.openSession(t, live, player, 'gm_aviator_demo');
    const token = tokenOf(s.gameUrl);
    const replies = await Promise.all(Array.from({ length: 40 }, () => play(token, { amount: '1.00', target: '100.00', clientRoundId: clickId() })));
    const codes = replies.map(code);
    t.same(
      codes.filter((c) => c !== 'ok:201'),
      [],
      'every click was played',
    );
    const rounds = await h.sql<{ seq: number; amount: string }>(`select seq, amount from wallet.game_rounds where session_id = ? order by seq`, [s.id]);
    t.same(
      rounds.map((r) => r.seq),
      Array.from({ length: 40 }, (_, i) => i + 1),
      'rounds numbered 1 to 40 in the session, no gap, no repeat',
    );
    const [row] = await h.sql(`select rounds_played from wallet.game_sessions where id = ?`, [s.id]);
    t.equal(row.rounds_played, 40, "the session's counter agrees");
  });

  test('a round whose session row is missing or has ended posts nothing: never money without an open session', async (t) => {
    const player = await h.createPlayer(live, { kyc: 'aprovado' });
    await h.credit(live, player, '10.00');
    const played = await h.openSession(t, live, player, 'gm_dice_classic');
    rng.push(90);
    t.equal(code(await play(tokenOf(played.gameUrl), { amount: '1.00', target: '50', clientRoundId: clickId() })), 'ok:201', 'the clearing account exists');
    const gone = await h.openSession(t, live, player, 'gm_dice_classic');
    await h.sql(`delete from wallet.game_sessions where id = ?`, [gone.id]);
    // The session ended after the handler's first look: the statement reads its end itself.
    const ended = await h.openSession(t, live, player, 'gm_dice_classic');
    await h.sql(`update wallet.game_sessions set expires_at = created_at + interval '1 millisecond' where id = ?`, [ended.id]);
    const before = await entryCount();
    for (const sessionId of [ended.id, gone.id]) {
      const posted = await postRealRound(
        { query: (text, params) => h.sql(text, params as unknown[]) },
        {
          id: `gr_${randomBytes(16).toString('hex')}`,
          sessionId,
          clientRoundId: clickId(),
          brandId: live.brandId,
          playerId: player,
          currency: 'BRL',
          amount: '1.00',
          payout: '0.00',
          win: false,
          outcome: {},
          createdAt: new Date(),
          clearingAccountId: clearingId,
        },
      );
      t.equal(posted, undefined, 'nothing was posted');
    }
    t.equal(await entryCount(), before, 'no entry was written');
    t.equal((await wallet(player)).available, '9.00', 'the balance is untouched');
    t.same(await h.sql(`select id from wallet.game_rounds where session_id in (?, ?)`, [gone.id, ended.id]), [], 'no round was recorded');
  });

  test('the database refuses a real round without its BET entry and a demo round with one', async (t) => {
    const player = await h.createPlayer(live, { kyc: 'aprovado' });
    const s = await h.openSession(t, live, player, 'gm_dice_classic');
    await t.rejects(
      h.sql(
        `insert into wallet.game_rounds (id, session_id, seq, amount, payout, win, outcome, created_at)
      values ('gr_forged_real', ?, 99, 1, 0, false, '{}', now())`,
        [s.id],
      ),
      /ledger entries must exist exactly for real rounds/,
    );
    const sandboxPlayer = await h.createPlayer(scopes.sandbox, { kyc: 'aprovado' });
    const demo = await h.openSession(t, scopes.sandbox, sandboxPlayer, 'gm_dice_classic');
    const [anyEntry] = await h.sql(`select id from wallet.ledger_entries limit 1`);
    await t.rejects(
      h.sql(
        `insert into wallet.game_rounds (id, session_id, seq, amount, payout, win, outcome, created_at, bet_entry_id)
      values ('gr_forged_demo', ?, 99, 1, 0, false, '{}', now(), ?)`,
        [demo.id, anyEntry.id],
      ),
      /ledger entries must exist exactly for real rounds/,
    );
  });

  test('verifyLedger notices a round whose entries disagree with it', async (t) => {
    // Entries cannot be edited (append-only), so the disagreement is made on a fresh copy of a
    // round's row: the same entries, a different amount. The check must fail, then be restored.
    const v0 = await h.verifyLedger();
    t.equal(v0.ok, true);
    const [r] = await h.sql(`select id from wallet.game_rounds where bet_entry_id is not null and payout = 0 limit 1`);
    await h.sql(`alter table wallet.game_rounds disable trigger game_rounds_append_only`);
    try {
      await h.sql(`update wallet.game_rounds set amount = amount + 1, balance_before = balance_before + 1 where id = ?`, [r.id]);
      const v = await h.verifyLedger();
      t.equal(v.ok, false);
      t.match(v.mismatches, [{ check: `round:${r.id}` }]);
      await h.sql(`update wallet.game_rounds set amount = amount - 1, balance_before = balance_before - 1 where id = ?`, [r.id]);
    } finally {
      await h.sql(`alter table wallet.game_rounds enable trigger game_rounds_append_only`);
    }
  });
});
