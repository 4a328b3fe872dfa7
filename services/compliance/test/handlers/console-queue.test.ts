// Issue #61 on the compliance service (real Postgres, NATS and the players, wallet and payments
// services): the in-and-out rule's partial cash-out of own-account money is medium and holds no
// payout (200 of 1,000; 30 of 100), and cashing out the rest raises the case to high; the queue names
// each case's player and amount, sorts the riskiest first (the largest first within a risk level) and
// the largest first, with a cursor that follows the order, and shows one environment at a time; and a case that holds payouts is dismissed only by a
// second person after a review, with a reason (a case that holds none, by its reviewer as before).
import t from 'tap';
import type { AmlCase, AmlCaseSummary } from '@bo/contracts';
import { errorOf, ok, operatorScope, startComplianceStack } from '../support/stack.ts';

type Page = { data: AmlCaseSummary[]; nextCursor: string | null };
const as = (actor: string) => ({ kind: 'admin' as const, actor });

t.test('the queue a compliance team works in', async (t) => {
  const s = await startComplianceStack(t, 'amlqueue');
  const op = await s.brSpaOperator();
  // A sandbox brand of its own under br-spa, for the environment switch.
  const sandbox = operatorScope('amlsbx', 'sandbox');
  ok(
    await s.call('players.admin.setCompliance', {
      scope: { kind: 'admin', actor: 'test-admin' },
      params: { id: sandbox.operatorId },
      body: { profile: 'br-spa', reason: 'the operator is licensed in Brazil' },
    }),
  );
  const list = (query: Record<string, unknown>) => s.call<Page>('compliance.admin.cases.list', { scope: as('a'), query });
  const decide = (id: string, body: Record<string, unknown>, actor: string) =>
    s.call<AmlCase>('compliance.admin.cases.decide', { scope: as(actor), params: { id }, body });
  const held = (p: string, scope = op) =>
    s.call<{ held: boolean }>('compliance.holds.check', { scope: { kind: 'internal', service: 'payments' }, body: { brandId: scope.brandId, playerId: p } });

  const inAndOut = async (scope: typeof op, deposit: string, out: string) => {
    const p = await s.player(scope);
    await s.deposit(scope, p, deposit);
    await s.withdraw(scope, p, out);
    await s.watched(p, 2);
    const [c] = await s.cases(p);
    return { p, c: c! };
  };

  const partial = await inAndOut(op, '1000.00', '200.00');
  const small = await inAndOut(op, '100.00', '30.00');
  const full = await inAndOut(op, '2000.00', '1900.00');
  const sbx = await inAndOut(sandbox, '5000.00', '4900.00');

  t.test('a partial cash-out of own-account money is medium and holds no payout; the rest cashed out makes it high', async (t) => {
    t.match(partial.c, { risk: 'medium', rules: ['in_and_out'], holdsPayouts: false, amount: '1200.00' }, '200 of 1,000: medium');
    t.match(small.c, { risk: 'medium', holdsPayouts: false }, '30 of 100 (at the 30% bar): medium');
    t.match(full.c, { risk: 'high', holdsPayouts: true }, '1,900 of 2,000: high, held');
    t.same(ok(await held(partial.p)), { held: false }, 'payments is told no hold');
    const evidence = (await s.caseOf(partial.c.id)).evidence[0]!;
    t.match(evidence.summary, /a partial cash-out: 200\.00 out of 1000\.00 \(at most 30%\)/, 'the evidence says why');
    t.match(evidence.facts, { cashedOut: '200.00', partialPercentBar: 30 });
    // The rest: 900 of 1,000 within the window is no partial cash-out.
    await s.withdraw(op, partial.p, '700.00');
    await s.watched(partial.p, 3);
    const [raised] = await s.cases(partial.p);
    t.match(
      raised,
      { id: partial.c.id, risk: 'high', holdsPayouts: true, amount: '1900.00' },
      'the same case, raised to high, its amount with the second withdrawal',
    );
    t.same(ok(await held(partial.p)), { held: true });
  });

  t.test('rows name the player and the amount; riskiest and largest first, with a cursor that follows the order', async (t) => {
    const names = new Map(
      (await s.db.query('select id, name from players.players where id = any($1)', [[partial.p, small.p, full.p]])).rows.map((r) => [r.id, r.name]),
    );
    const risk = ok(await list({ status: 'open', brandId: op.brandId, order: 'risk', limit: 2 }));
    t.same(
      risk.data.map((c) => [c.playerName, c.risk, c.amount]),
      [
        [names.get(full.p), 'high', '3900.00'],
        [names.get(partial.p), 'high', '1900.00'],
      ],
      'the high cases first, the largest first among them though opened later (issue #70)',
    );
    const rest = ok(await list({ status: 'open', brandId: op.brandId, order: 'risk', limit: 2, cursor: risk.nextCursor }));
    t.same(
      rest.data.map((c) => [c.playerId, c.risk, c.amount]),
      [[small.p, 'medium', '130.00']],
      'then the medium one, on the next page',
    );
    t.equal(rest.nextCursor, null);
    const byAmount = ok(await list({ status: 'open', brandId: op.brandId, order: 'amount' }));
    t.same(
      byAmount.data.map((c) => c.amount),
      ['3900.00', '1900.00', '130.00'],
      'the largest first',
    );
    t.match(
      errorOf(await list({ status: 'open', brandId: op.brandId, order: 'amount', cursor: risk.nextCursor })),
      { code: 'VALIDATION_ERROR' },
      "another order's cursor is refused",
    );
  });

  t.test('one environment at a time', async (t) => {
    const production = ok(await list({ status: 'open', environment: 'production', limit: 200 })).data.map((c) => c.id);
    const sandboxed = ok(await list({ status: 'open', environment: 'sandbox', limit: 200 })).data.map((c) => c.id);
    t.ok(production.includes(full.c.id) && !production.includes(sbx.c.id), 'production: no sandbox case');
    t.ok(sandboxed.includes(sbx.c.id) && !sandboxed.includes(full.c.id), 'sandbox: no production case');
    const both = ok(await list({ status: 'open', limit: 200 })).data.map((c) => c.id);
    t.ok(both.includes(full.c.id) && both.includes(sbx.c.id), 'both when none is asked');
  });

  t.test('a case that holds payouts is dismissed by a second person, after a review, with a reason', async (t) => {
    const id = full.c.id;
    t.match(
      errorOf(await decide(id, { status: 'dismissed', reason: 'salary, documented' }, 'ana@team')),
      { code: 'FOUR_EYES_REQUIRED', details: { holdsPayouts: true } },
      'not from open',
    );
    ok(await decide(id, { status: 'under_review', reason: 'looking at the payslips' }, 'ana@team'));
    t.match(
      errorOf(await decide(id, { status: 'dismissed', reason: 'salary, documented' }, 'ana@team')),
      { code: 'FOUR_EYES_REQUIRED' },
      'not by its reviewer',
    );
    t.same(ok(await held(full.p)), { held: true }, 'still held');
    t.match(errorOf(await decide(id, { status: 'dismissed', reason: '' }, 'bia@team')), { code: 'VALIDATION_ERROR' }, 'never without a reason');
    const dismissed = ok(await decide(id, { status: 'dismissed', reason: 'salary, documented' }, 'bia@team'));
    t.match(dismissed, { status: 'dismissed', holdsPayouts: false, playerName: String, amount: '3900.00' });
    t.same(ok(await held(full.p)), { held: false }, 'the hold lifted');
    // One that holds no payout (medium): its reviewer dismisses it, as before.
    ok(await decide(small.c.id, { status: 'under_review', reason: 'a small cash-out' }, 'ana@team'));
    t.match(ok(await decide(small.c.id, { status: 'dismissed', reason: 'ordinary play' }, 'ana@team')), { status: 'dismissed' });
  });
});
