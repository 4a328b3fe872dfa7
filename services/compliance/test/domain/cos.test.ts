// The COS record and its CSV as plain functions: operations once each, in time order; CSV cells
// with commas, quotes or line breaks quoted.
import t from 'tap';
import { cosCsvOf, cosRecordOf, type CaseRecord } from '../../src/domain/cos.ts';

const at = (m: number) => new Date(Date.UTC(2026, 10, 20, 12, m)).toISOString();
const c: CaseRecord = {
  id: 'aml_1',
  operatorId: 'op_1',
  brandId: 'brd_1',
  environment: 'production',
  playerId: 'plr_1',
  risk: 'high',
  status: 'reported',
  rules: ['high_value', 'in_and_out'],
  openedAt: at(5),
  updatedAt: at(9),
  receipt: 'R-1',
  steps: [{ status: 'open', by: 'aml-watch', at: at(5), reason: 'deposit, then "payout"', receipt: null }],
  evidence: [
    {
      rule: 'high_value',
      eventId: 'e2',
      at: at(2),
      summary: 's',
      facts: { events: [{ id: 'e2', type: 'deposit', reference: 'dep_2', amount: '60000.00', at: at(2) }] },
    },
    {
      rule: 'in_and_out',
      eventId: 'e3',
      at: at(3),
      summary: 's',
      facts: {
        events: [
          { id: 'e1', type: 'deposit', reference: 'dep_1', amount: '10.00', at: at(1) },
          { id: 'e2', type: 'deposit', reference: 'dep_2', amount: '60000.00', at: at(2) },
          { id: 'e3', type: 'withdrawal', reference: 'wd_1', amount: '50000.00', at: at(3) },
        ],
      },
    },
  ],
};

t.test('the record and its CSV', async (t) => {
  const r = cosRecordOf(c, { cpf: '52998224725', name: 'Silva, Ana', birthDate: '1990-05-17' });
  t.same(
    r.operations.map((o) => o.eventId),
    ['e1', 'e2', 'e3'],
    'each operation once, in time order',
  );
  t.equal(r.totalAmount, '110010.00');
  t.same(r.period, { from: at(1), to: at(3) });
  const lines = cosCsvOf(r).split('\r\n');
  t.equal(lines.length, 5, 'header, three rows, and the final line break');
  t.match(lines[1], /^aml_1,brd_1,plr_1,"Silva, Ana",52998224725,high_value in_and_out,high,deposit,dep_1,10\.00,/);
  t.match(lines[1], /,"[^"]*deposit, then ""payout"""$/, 'quotes doubled inside a quoted cell');
});
