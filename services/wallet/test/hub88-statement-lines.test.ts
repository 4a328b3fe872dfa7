// Hub88's transaction items as statement lines (docs/connectors-hub88.md, "Reconciliation: the
// Transactions API"): Int64 × 100000 to cents exactly, a part of a cent never rounded but set apart,
// the kind and sign ours, TS_SUCCESS / TS_DECLINED / another status, a rollback in Hub88's own list.
import t from 'tap';
import { hub88Cents, hub88Exact, hub88Lines, hub88Time, hub88TimeText } from '../src/providers/domain/hub88-statements.ts';

t.test('amounts: exact, signed by our kind, never rounded', async (t) => {
  t.equal(hub88Cents(356000, false), '3.56');
  t.equal(hub88Cents(356000, true), '-3.56');
  t.equal(hub88Cents(0, true), '0.00');
  t.equal(hub88Cents(100500, false), undefined, '1.005 is not whole cents');
  t.equal(hub88Cents(9_007_199_254_740_000, false), '90071992547.40', 'the largest safe amounts stay exact');
  t.equal(hub88Exact(100500, true), '-1.00500');
  t.equal(hub88Exact(1, false), '0.00001');
});

t.test('times: Hub88 writes UTC without a zone', async (t) => {
  t.equal(hub88Time('2026-11-25T13:15:30')?.toISOString(), '2026-11-25T13:15:30.000Z');
  t.equal(hub88Time('2026-11-25T13:15:30+01:00')?.toISOString(), '2026-11-25T12:15:30.000Z');
  t.equal(hub88Time('not a time'), undefined);
  t.equal(hub88TimeText(new Date('2026-11-25T03:00:00.000Z')), '2026-11-25T03:00:00');
});

t.test('items to lines', async (t) => {
  const ours = new Map([
    ['bet-1', { kind: 'bet', debit: true }],
    ['win-1', { kind: 'win', debit: false }],
    ['bet-2', { kind: 'bet', debit: true }],
    ['rb-2', { kind: 'rollback', debit: false }],
    ['bet-3', { kind: 'bet', debit: true }],
    ['bet-4', { kind: 'bet', debit: true }],
    ['bet-5', { kind: 'bet', debit: true }],
  ]);
  const item = (id: string, amount: number, over: Record<string, unknown> = {}) => ({
    transaction_uuid: id,
    status: 'TS_SUCCESS',
    amount,
    currency: 'brl',
    round: 'r1',
    user: 'p1',
    ...over,
  });
  const { lines, odd, declinedUnknown } = hub88Lines(
    [
      item('bet-1', 1_000_000),
      item('win-1', 2_500_000, { reference_transaction_uuid: 'bet-1' }),
      item('bet-2', 500_000),
      item('rb-2', 500_000, { reference_transaction_uuid: 'bet-2' }),
      item('bet-3', 300_500),
      item('bet-4', 100_000, { status: 'TS_DECLINED' }),
      item('bet-5', 100_000, { status: 'TS_PENDING' }),
      item('theirs', 700_000),
      item('declined-unknown', 100_000, { status: 'TS_DECLINED' }),
    ],
    ours,
  );
  t.same(
    lines.map((l) => [l.transactionId, l.kind, l.amount, l.currency, l.status]),
    [
      ['bet-1', 'bet', '-10.00', 'BRL', 'ok'],
      ['win-1', 'win', '25.00', 'BRL', 'ok'],
      ['bet-2', 'bet', '-5.00', 'BRL', 'rolled_back'],
      ['rb-2', 'rollback', '5.00', 'BRL', 'ok'],
      ['bet-4', 'bet', '-1.00', 'BRL', 'rolled_back'],
      ['theirs', 'unknown', '7.00', 'BRL', 'ok'],
    ],
    "kind and sign ours; a bet Hub88's list rolls back is rolled back; declined moved no money",
  );
  t.same(odd, [
    {
      transactionId: 'bet-3',
      what: 'amount',
      theirs: { kind: 'bet', currency: 'BRL', playerId: 'p1', roundId: 'r1', amount: '-3.00', exactAmount: '-3.00500', status: 'ok' },
    },
    {
      transactionId: 'bet-5',
      what: 'status',
      theirs: { kind: 'bet', currency: 'BRL', playerId: 'p1', roundId: 'r1', amount: '-1.00', status: 'TS_PENDING' },
    },
  ]);
  t.equal(declinedUnknown, 1, 'a declined call we never took is no line');
});
