// The simulator's own arithmetic and book, without a server: amounts in cents, payouts at decimal
// odds, and what the book calls a problem (a repeat that is not the first answer, a balance that is
// not the count).
import t from 'tap';
import { Book, type TransactionAnswer } from '../src/book.ts';
import { fromCents, payout, toCents } from '../src/money.ts';

t.test('amounts in cents', async (t) => {
  t.same(['12.3', '0', '-5.05', '100.00'].map(toCents), [1230n, 0n, -505n, 10000n]);
  t.same([1230n, 0n, -505n, 7n].map(fromCents), ['12.30', '0.00', '-5.05', '0.07']);
  t.throws(() => toCents('1.234'), /not an amount/);
  t.equal(payout('10.00', '2.35'), '23.50');
  t.equal(payout('5.00', '1.85'), '9.25');
  t.equal(payout('0.33', '3.10'), '1.02', 'rounded down to the cent');
});

t.test('the book', async (t) => {
  const answer = (over: Partial<TransactionAnswer>): TransactionAnswer => ({
    transactionId: 'bet-1',
    kind: 'bet',
    playerId: 'plr_1',
    roundId: 'r-1',
    currency: 'BRL',
    moved: '-10.00',
    balance: '90.00',
    replayed: false,
    createdAt: '2026-11-25T12:00:00.000Z',
    ...over,
  });
  const book = new Book();
  book.fund('plr_1', '100.00');
  book.accept('prv_1', answer({}));
  book.accept('prv_1', answer({ replayed: true }));
  t.same(book.problems, [], 'a replay of the first answer is no problem');
  t.same({ bets: book.counts.bets, replays: book.counts.replays }, { bets: 1, replays: 1 });
  t.equal(book.expected('plr_1'), '90.00');

  book.accept('prv_1', answer({ replayed: true, balance: '80.00' }));
  t.match(book.problems, [/a repeat answered/], 'a repeat with another answer is');
  book.accept('prv_1', answer({ transactionId: 'win-1', kind: 'win', moved: '5.00', balance: '96.00' }));
  t.match(book.problems[1], /balance after 96.00, expected 95.00/, 'a balance that is not the count is');
  t.equal(book.accepted.size, 2);
});
