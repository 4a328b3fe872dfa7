// The one list cursor: a position signed for its list and scope. Anything else is a 422 on the query.
import t from 'tap';
import { isAppError } from '@bo/contracts';
import { listCursor } from '../src/index.ts';

const SECRET = 'test-list-cursor-secret-0123456789';
const refusal = (fn: () => unknown) => {
  try {
    fn();
    return undefined;
  } catch (e) {
    return isAppError(e) ? { status: e.status, code: e.code, details: e.details } : String(e);
  }
};
const asQuery422 = { status: 422, code: 'VALIDATION_ERROR', details: { in: 'query', issues: [{ path: '/cursor' }] } };

t.test('a cursor carries its position back to the list and scope that issued it', async (t) => {
  const ledger = listCursor(SECRET, 'wallet.transactions');
  const pos = { at: '2026-11-21T10:00:00.123Z', id: 'le_01' };
  const cursor = ledger.encode(['brd_1', 'ply_1'], pos);
  t.same(ledger.decode(['brd_1', 'ply_1'], cursor), pos);
  t.same(listCursor(SECRET, 'wallet.transactions').decode(['brd_1', 'ply_1'], cursor), pos, 'another replica with the same secret reads it');
});

t.test('garbage, an altered cursor, another scope, another list or another secret is a 422 on the query', async (t) => {
  const ledger = listCursor(SECRET, 'wallet.transactions');
  const cursor = ledger.encode(['brd_1', 'ply_1'], { at: '2026-11-21T10:00:00.123Z', id: 'le_01' });
  const [payload, mac] = cursor.split('.') as [string, string];
  const forged = Buffer.from(JSON.stringify(['2999-01-01T00:00:00.000Z', 'le_99'])).toString('base64url');
  const refused: Array<[string, () => unknown]> = [
    ['garbage', () => ledger.decode(['brd_1', 'ply_1'], 'garbage')],
    ['empty parts', () => ledger.decode(['brd_1', 'ply_1'], '.')],
    ['an extra part', () => ledger.decode(['brd_1', 'ply_1'], `${cursor}.x`)],
    ['an altered signature', () => ledger.decode(['brd_1', 'ply_1'], `${payload}.${mac.slice(0, -2)}xx`)],
    ['a position written by hand', () => ledger.decode(['brd_1', 'ply_1'], `${forged}.${mac}`)],
    ["another player's", () => ledger.decode(['brd_1', 'ply_2'], cursor)],
    ["another brand's", () => ledger.decode(['brd_2', 'ply_1'], cursor)],
    ['scope parts shifted', () => ledger.decode(['brd_1ply_1'], cursor)],
    ["another list's", () => listCursor(SECRET, 'payments.withdrawals').decode(['brd_1', 'ply_1'], cursor)],
    ['signed with another secret', () => listCursor(`${SECRET}-other`, 'wallet.transactions').decode(['brd_1', 'ply_1'], cursor)],
  ];
  for (const [what, decode] of refused) t.match(refusal(decode), asQuery422, `${what}: refused`);
});

t.test('a page from limit + 1 rows: the first limit through the view, a cursor after the last only when more follow', async (t) => {
  const list = listCursor(SECRET, 'test.items');
  const rows = [1, 2, 3].map((n) => ({ id: `i_${n}`, at: `2026-11-0${n}T00:00:00.000Z` }));
  const position = (r: (typeof rows)[number]) => ({ at: r.at, id: r.id });
  const more = list.page(['s'], rows, 2, (r) => r.id, position);
  t.same(more.data, ['i_1', 'i_2'], 'the first two, through the view');
  t.same(list.decode(['s'], more.nextCursor!), { at: rows[1]!.at, id: 'i_2' }, 'the cursor continues after the last shown');
  t.same(
    list.page(['s'], rows.slice(0, 2), 2, (r) => r.id, position),
    { data: ['i_1', 'i_2'], nextCursor: null },
    'no extra row: no cursor',
  );
  t.same(
    list.page(['s'], [], 2, (r: (typeof rows)[number]) => r.id, position),
    { data: [], nextCursor: null },
    'an empty page',
  );
});
