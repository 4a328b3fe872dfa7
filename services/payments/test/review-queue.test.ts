// The withdrawal review queue as our team works it (issue #61), against real Postgres, NATS and the
// players and wallet services: one environment at a time (a cursor of one is refused by the other),
// a page of cards in one request (each withdrawal with its player's name, status and KYC, and their
// balance), and a rejection only with its reason, which the audit log keeps with the decision.
import t from 'tap';
import type { WithdrawalReviewCard } from '@bo/contracts';
import { outboxAudits } from '@bo/test-support';
import { startPaymentsStack, operatorScope, ok, errorOf, key } from './support/stack.ts';

type Page<T> = { data: T[]; nextCursor: string | null };

t.test('the review queue', async (t) => {
  const stack = await startPaymentsStack(t, 'review-queue');
  const { money, call } = stack;
  const production = operatorScope('rq-live', 'production');
  const sandbox = operatorScope('rq-test', 'sandbox');
  const finance = { kind: 'admin' as const, actor: 'user:fin@team.example', personId: 'usr_fin' };
  const request = async (scope: typeof production, amount: string) => {
    const player = await money.fundedPlayer(scope, '100.00');
    return { player, wd: ok(await money.createWithdrawal(scope, player, amount)) };
  };
  const live = [await request(production, '10.00'), await request(production, '20.00')];
  const test = await request(sandbox, '30.00');
  const list = (query: Record<string, unknown>) => call<Page<{ id: string; environment: string }>>('payments.admin.withdrawals', { scope: finance, query });
  const cards = (query: Record<string, unknown>) => call<Page<WithdrawalReviewCard>>('payments.admin.withdrawalQueue', { scope: finance, query });
  const ours = new Set([...live.map((x) => x.wd.id), test.wd.id]);

  t.test('one environment at a time', async (t) => {
    const prod = ok(await list({ status: 'under_review', environment: 'production', limit: 200 })).data.filter((w) => ours.has(w.id));
    t.same(prod.map((w) => w.id).sort(), live.map((x) => x.wd.id).sort(), 'production: its own withdrawals');
    const sbx = ok(await list({ status: 'under_review', environment: 'sandbox', limit: 200 })).data.filter((w) => ours.has(w.id));
    t.same(
      sbx.map((w) => w.id),
      [test.wd.id],
      'sandbox: its own',
    );
    t.equal(ok(await list({ status: 'under_review', limit: 200 })).data.filter((w) => ours.has(w.id)).length, 3, 'both when none is asked');
    const first = ok(await list({ status: 'under_review', environment: 'production', limit: 1 }));
    t.ok(first.nextCursor, 'a page of one, and a cursor');
    t.match(
      errorOf(await list({ status: 'under_review', environment: 'sandbox', limit: 1, cursor: first.nextCursor })),
      { code: 'VALIDATION_ERROR' },
      "production's cursor is refused by the sandbox's queue",
    );
  });

  t.test('a page of cards: each withdrawal with its player and balance', async (t) => {
    const page = ok(await cards({ status: 'under_review', environment: 'production', limit: 200 }));
    const mine = page.data.filter((c) => ours.has(c.withdrawal.id));
    t.equal(mine.length, 2, 'production only');
    const names = new Map(
      (await stack.sql.query('select id, name, external_id from players.players where id = any($1)', [live.map((x) => x.player)])).rows.map((r) => [r.id, r]),
    );
    for (const { player, wd } of live) {
      const card = mine.find((c) => c.withdrawal.id === wd.id)!;
      t.match(
        card,
        {
          withdrawal: { id: wd.id, playerId: player, environment: 'production', status: 'under_review' },
          player: { name: names.get(player).name, externalId: names.get(player).external_id, status: 'ativo', kycStatus: 'aprovado' },
          wallet: { available: '100.00', withdrawable: String(100 - Number(wd.amount)).concat('.00'), currency: 'BRL' },
        },
        `${wd.amount}: named, with its balance`,
      );
    }
  });

  t.test('a rejection says why; the audit log keeps it', async (t) => {
    const { wd } = live[0]!;
    const reject = (body: Record<string, unknown>) =>
      call('payments.admin.withdrawalDecision', { scope: finance, key: key('rej'), params: { id: wd.id }, body });
    t.match(
      errorOf(await reject({ decision: 'reject' })),
      { code: 'VALIDATION_ERROR', details: { issues: [{ path: '/reason' }] } },
      'without a reason: refused',
    );
    t.match(errorOf(await reject({ decision: 'reject', reason: '  ' })), { code: 'VALIDATION_ERROR' }, 'blank: refused');
    t.equal(await money.withdrawalStatus(wd.id), 'under_review', 'nothing decided');
    t.equal(ok<{ status: string }>(await reject({ decision: 'reject', reason: 'the destination is a third party’s' })).status, 'rejected');
    t.match(
      (await outboxAudits(stack.sql, 'payments', `withdrawal:${wd.id}`)).map((a) => [a.action, a.after]),
      [['adminWithdrawalDecision', { status: 'rejected', reason: 'the destination is a third party’s' }]],
      'one audit row, with the reason',
    );
    const approved = ok<{ status: string }>(
      await call('payments.admin.withdrawalDecision', { scope: finance, key: key('ok'), params: { id: live[1]!.wd.id }, body: { decision: 'approve' } }),
    );
    t.equal(approved.status, 'approved', 'an approval needs no reason');
  });
});
