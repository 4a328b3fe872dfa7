// The simulator's own arithmetic and book, without a server: amounts in cents, payouts at decimal
// odds, and what the book calls a problem (a repeat that is not the first answer, a balance that is
// not the count), copies sent together read in any order included.
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

t.test('copies sent together: the one that applied may be read after a replay of it, once', async (t) => {
  const answer = (over: Partial<TransactionAnswer>): TransactionAnswer => ({
    transactionId: 'bet-2',
    kind: 'bet',
    playerId: 'plr_2',
    roundId: 'r-2',
    currency: 'BRL',
    moved: '-1.00',
    balance: '99.00',
    replayed: true,
    createdAt: '2026-11-26T12:12:25.902Z',
    ...over,
  });
  const book = new Book();
  book.fund('plr_2', '100.00');
  const [a, b, c] = [book.sent(), book.sent(), book.sent()];
  book.accept('prv_1', answer({}), b);
  book.accept('prv_1', answer({ replayed: false }), a);
  book.accept('prv_1', answer({}), c);
  t.same(book.problems, [], 'the applying copy, sent before any answer was read, read second (the chaos run: no problem)');
  t.same({ bets: book.counts.bets, replays: book.counts.replays }, { bets: 1, replays: 2 });
  t.equal(book.expected('plr_2'), '99.00', 'counted once');

  book.accept('prv_1', answer({ replayed: false }), a);
  t.match(book.problems, [/bet-2: a repeat answered .*"replayed":false/], 'a second copy answered as applied is a problem');

  const later = new Book();
  later.fund('plr_2', '100.00');
  later.accept('prv_1', answer({}), later.sent());
  later.accept('prv_1', answer({ replayed: false }), later.sent());
  t.match(later.problems, [/a repeat answered .*"replayed":false/], 'applied, for an attempt sent after an answer under its id was read, is a problem');
  const unordered = new Book();
  unordered.fund('plr_2', '100.00');
  unordered.accept('prv_1', answer({}));
  unordered.accept('prv_1', answer({ replayed: false }));
  t.equal(unordered.problems.length, 1, 'without when it was sent, a repeat must be replayed');
  const differs = new Book();
  differs.fund('plr_2', '100.00');
  const [d1, d2] = [differs.sent(), differs.sent()];
  differs.accept('prv_1', answer({}), d2);
  differs.accept('prv_1', answer({ replayed: false, balance: '98.00' }), d1);
  t.equal(differs.problems.length, 1, 'the applying copy read late must still be the same answer');
});
