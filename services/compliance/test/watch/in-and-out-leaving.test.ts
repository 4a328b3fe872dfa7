// Rule 1 reads a person leaving right (issue #41, docs/aml.md): the cash-out of a self-excluded,
// paused or impeded player within hours of a deposit, with no play, is recorded as expected in a
// low case with the reason, which holds no payout; the same pattern of a player who is not leaving
// stays a high case that holds payouts (rules-through-the-watch.test.ts, and the control below).
import t from 'tap';
import { adminScope, key, ok, startComplianceStack } from '../support/stack.ts';

t.test('in and out: a person leaving is expected, not a pass-through', async (t) => {
  const s = await startComplianceStack(t, 'amlleave');
  const op = await s.brSpaOperator();
  const held = async (playerId: string) =>
    ok<{ held: boolean }>(await s.call('compliance.holds.check', { scope: { kind: 'internal', service: 'payments' }, body: { brandId: op.brandId, playerId } }))
      .held;
  /** A 200.00 deposit, then `leave`, then the whole 200.00 withdrawn, with no play. */
  const cashOut = async (leave: (playerId: string) => Promise<unknown>) => {
    const p = await s.player(op);
    await s.deposit(op, p, '200.00');
    await leave(p);
    await s.withdraw(op, p, '200.00');
    await s.watched(p, 2);
    return p;
  };

  const cases = [
    {
      name: 'self-excluded',
      leaving: 'self_excluded',
      words: /expected: the player is self-excluded/,
      leave: (p: string) => s.call('players.rg.selfExclude', { scope: op, key: key('se'), params: { playerId: p }, body: { indefinite: true } }),
    },
    {
      name: 'paused',
      leaving: 'paused',
      words: /expected: the player is paused/,
      leave: (p: string) =>
        s.call('players.rg.pause', {
          scope: op,
          key: key('pause'),
          params: { playerId: p },
          body: { until: new Date(Date.now() + 3 * 86_400_000).toISOString() },
        }),
    },
    {
      name: 'impeded',
      leaving: 'impeded',
      words: /expected: the player is restricted by an impediment/,
      leave: async (p: string) =>
        s.call('players.admin.impediments.add', { scope: adminScope, body: { cpf: await s.cpfOf(p), category: 'athlete', note: 'a club player' } }),
    },
  ];
  for (const c of cases) {
    t.test(`${c.name}: a low case with the reason, no payout held`, async (t) => {
      const p = await cashOut(async (id) => ok(await c.leave(id)));
      const [found] = await s.cases(p);
      t.match(found, { risk: 'low', status: 'open', rules: ['in_and_out'] }, 'recorded, low');
      const full = await s.caseOf(found!.id);
      t.match(full.evidence, [{ rule: 'in_and_out', summary: c.words, facts: { leaving: c.leaving, deposited: '200.00', stakes: '0.00' } }], 'the reason');
      t.equal(await held(p), false, 'the payout is not held');
      t.match(ok(await s.call('compliance.admin.risk.get', { scope: adminScope, params: { id: p } })), { level: 'low' }, 'the player risk stays low');
    });
  }

  t.test('control: the same cash-out of a player who stays is a high case that holds payouts', async (t) => {
    const p = await cashOut(async () => undefined);
    t.match(await s.cases(p), [{ risk: 'high', rules: ['in_and_out'] }]);
    t.equal(await held(p), true);
  });
});
