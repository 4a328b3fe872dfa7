// One brand, 50 players, everything at once: deposits (each confirm also retried with its own
// key), withdrawals paid through review, and real-money game rounds (one click retried), while
// the clearing roll-up runs in a loop. No brand-wide row is locked any more (docs/money.md, "Hot
// accounts"), so this is the test that the append-only clearing side still adds up: every credit
// exactly once, every player's balance what their own history says, and each of the brand's
// clearing accounts' derived balance equal to the sum of its postings. Assertions are aggregate,
// so every run makes the same number of them; nothing waits on the clock.
import t from 'tap';
import { randomBytes } from 'node:crypto';
import type { Deposit, Withdrawal } from '@bo/contracts';
import { rollUpClearing } from '@bo/wallet';
import { internalScope, key, moneyTest, ok, operatorScope, startPaymentsStack } from './support/stack.ts';

const PLAYERS = 50;
const ROUNDS = 3;

t.test('one brand, 50 players: concurrent deposits, withdrawals and game rounds', async (t) => {
  const stack = await startPaymentsStack(t, 'brandconc');
  const { money, call, sql } = stack;
  const test = moneyTest(t, stack);
  const live = operatorScope('conc', 'production');
  const gateway = internalScope('gateway');

  test('every movement lands once and the derived clearing balances equal their postings', async (t) => {
    // Setup: approved players with 100.00 each and a real-money session.
    const players = await Promise.all(
      Array.from({ length: PLAYERS }, async () => {
        const id = await money.fundedPlayer(live, '100.00');
        const session = ok<{ gameUrl: string }>(
          await call('games.sessions.create', { scope: live, params: { playerId: id }, body: { gameId: 'gm_aviator_demo' } }),
        );
        return { id, token: new URL(session.gameUrl).pathname.split('/').pop()! };
      }),
    );

    // The roll-up runs in a loop beside the load, as another replica's would.
    let loading = true;
    const wallet = stack.services.get('wallet')!;
    const rollups = (async () => {
      let n = 0;
      while (loading) {
        await rollUpClearing(wallet.sql);
        n++;
      }
      return n;
    })();

    const play = (token: string, clientRoundId: string) =>
      call<{ id: string; payout: string }>('games.play.round', {
        scope: gateway,
        params: { token },
        body: { amount: '1.00', target: '2.00', clientRoundId },
      });
    // The roll-up loop must end (and be waited for) even if the load fails, or it outlives the database.
    const load = Promise.all(
      players.map(async (p) => {
        const deposit = async () => {
          const created = ok<Deposit>(await money.createDeposit(live, p.id, { amount: '10.00' }));
          const k = key('conf');
          // The same confirm twice at once (a retry racing its original): one credit, one answer.
          const [a, b] = await Promise.all([money.confirm(live, created.id, k), money.confirm(live, created.id, k)]);
          return ok<Deposit>(a).status === 'confirmed' && JSON.stringify(ok<Deposit>(b)) === JSON.stringify(ok<Deposit>(a));
        };
        const withdraw = async () => {
          const w = ok<Withdrawal>(await money.createWithdrawal(live, p.id, '20.00'));
          ok(await money.adminDecide(w.id, 'approve'));
          return ok<Withdrawal>(await money.adminDecide(w.id, 'pay')).status === 'paid';
        };
        const rounds = async () => {
          const clicks = Array.from({ length: ROUNDS }, () => `click-${randomBytes(6).toString('hex')}`);
          const played = await Promise.all(clicks.map((c) => play(p.token, c)));
          const again = await play(p.token, clicks[0]!);
          return played.every((r) => r.ok) && ok(again).id === ok(played[0]!).id;
        };
        const [d1, d2, w, r] = await Promise.all([deposit(), deposit(), withdraw(), rounds()]);
        return d1 && d2 && w && r;
      }),
    );
    const outcomes = await load.finally(async () => {
      loading = false;
      await rollups.catch(() => 0);
    });
    t.ok((await rollups) > 0, 'the roll-up ran during the load');
    t.equal(outcomes.filter((ok) => !ok).length, 0, 'every deposit confirmed (retries answered the same), every withdrawal paid, every round played once');

    const one = async <T>(q: string, params: unknown[] = []) => (await sql.query(q, params)).rows[0] as T;
    const playerKind = `join wallet.accounts a on a.id = e.account_id and a.kind = 'player' and a.brand_id = $1`;
    t.same(
      await one(
        `select count(*)::int as entries, count(distinct e.reference_id)::int as deposits from wallet.ledger_entries e ${playerKind} where e.type = 'DEPOSIT'`,
        [live.brandId],
      ),
      { entries: PLAYERS * 3, deposits: PLAYERS * 3 },
      'exactly one DEPOSIT credit per confirmed deposit',
    );
    t.equal(
      (await one<{ n: number }>(`select count(*)::int as n from payments.deposits where brand_id = $1 and status = 'confirmed'`, [live.brandId])).n,
      PLAYERS * 3,
      'every deposit of the brand confirmed',
    );
    t.same(
      await one(`select count(*)::int as bets, count(distinct e.reference_id)::int as rounds from wallet.ledger_entries e ${playerKind} where e.type = 'BET'`, [
        live.brandId,
      ]),
      { bets: PLAYERS * ROUNDS, rounds: PLAYERS * ROUNDS },
      'one BET per round, the retried click included',
    );
    t.equal(
      (await one<{ n: number }>(`select count(*)::int as n from wallet.ledger_entries e ${playerKind} where e.type = 'WITHDRAWAL'`, [live.brandId])).n,
      PLAYERS,
      'one WITHDRAWAL debit per paid withdrawal',
    );

    // Each player's balance is what their own history says: 100 + 2 × 10 − 20 − stakes + payouts.
    const wrong = await one<{ n: number }>(
      `select count(*)::int as n from wallet.accounts a
       left join lateral (select coalesce(sum(r.payout - r.amount), 0) as net from wallet.game_rounds r
                          join wallet.game_sessions s on s.id = r.session_id where s.player_id = a.player_id) g on true
       where a.kind = 'player' and a.brand_id = $1 and (a.available <> 100 + 20 - 20 + g.net or a.held <> 0)`,
      [live.brandId],
    );
    t.equal(wrong.n, 0, "every player's balance follows their deposits, withdrawal and rounds; nothing held");

    // The brand's clearing accounts: derived balance (rolled-up + not yet rolled) = sum of postings
    // = what the movements add up to.
    const clearing = (
      await sql.query(
        `select b.kind, b.available as derived, (select sum(e.amount) from wallet.ledger_entries e where e.account_id = b.id) as postings
       from wallet.account_balances b where b.brand_id = $1 and b.kind <> 'player' order by b.kind`,
        [live.brandId],
      )
    ).rows;
    const [{ net }] = (
      await sql.query(
        `select coalesce(sum(r.amount - r.payout), 0) as net from wallet.game_rounds r join wallet.game_sessions s on s.id = r.session_id where s.brand_id = $1`,
        [live.brandId],
      )
    ).rows;
    t.same(
      clearing,
      [
        { kind: 'deposit_clearing', derived: (-(PLAYERS * 120)).toFixed(2), postings: (-(PLAYERS * 120)).toFixed(2) },
        { kind: 'game_clearing', derived: net, postings: net },
        { kind: 'payout_clearing', derived: (PLAYERS * 20).toFixed(2), postings: (PLAYERS * 20).toFixed(2) },
      ],
      "the brand's derived clearing balances equal the sums of their postings and of the movements",
    );
  });
});
