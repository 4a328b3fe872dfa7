// A sanctions freeze ends only through its case (issue #41): our team's generic status change
// refuses to move a frozen player (409 STANDING_HAS_OWN_FLOW naming the case decision) and the
// player stays refused; dismissing the sanctions case lifts the freeze, back to the status it held,
// with the neutral `player.status.changed`; reporting it keeps the freeze.
import t from 'tap';
import { waitFor } from '@bo/service-kit/testing';
import { adminScope, errorOf, key, ok, startComplianceStack } from '../support/stack.ts';

t.test('a sanctions freeze ends only through its case', async (t) => {
  const s = await startComplianceStack(t, 'amlfreeze');
  const op = await s.brSpaOperator();
  const statusOf = async (id: string) => (await s.db.query('select status, frozen_at from players.players where id = $1', [id])).rows[0];
  const statusEvents = async (id: string) =>
    (
      await s.db.query(
        "select payload::jsonb -> 'data' as data from players.outbox where subject_type = 'player.status.changed' and payload::jsonb -> 'data' ->> 'playerId' = $1 order by seq",
        [id],
      )
    ).rows.map((r) => r.data);
  const frozenPlayer = async () => {
    const p = await s.player(op);
    await s.deposit(op, p, '100.00');
    await waitFor(async () => (await s.db.query('select 1 from compliance.screened_players where player_id = $1', [p])).rowCount === 1, {
      what: `${p} screened`,
    });
    ok(
      await s.call('compliance.admin.screening.add', {
        scope: adminScope,
        body: { list: 'sanctions', cpf: await s.cpfOf(p), name: 'Maria Teste', detail: 'UNSC' },
      }),
    );
    const [c] = await s.cases(p);
    return { p, caseId: c!.id };
  };
  const deposit = (p: string) =>
    s.call('payments.deposits.create', {
      scope: op,
      key: key('d'),
      params: { playerId: p },
      body: { amount: '10.00', currency: 'BRL', method: 'pix', externalReference: key('r') },
    });
  const decide = (caseId: string, status: string, reason: string, actor = 'ana@example.com', receipt?: string) =>
    s.call('compliance.admin.cases.decide', {
      scope: { kind: 'admin', actor },
      params: { id: caseId },
      body: { status, reason, ...(receipt ? { receipt } : {}) },
    });

  t.test('the generic status change refuses every move of a frozen player', async (t) => {
    const { p } = await frozenPlayer();
    t.match(await statusOf(p), { status: 'bloqueado', frozen_at: Date });
    t.same(
      await statusEvents(p),
      [{ playerId: p, externalId: await externalIdOf(p), previousStatus: 'ativo', status: 'bloqueado' }],
      'the freeze: a neutral status event',
    );
    for (const status of ['ativo', 'suspenso', 'encerrado']) {
      const refused = await s.call('players.admin.status', { scope: adminScope, params: { id: p }, body: { status } });
      t.match(errorOf(refused), { code: 'STANDING_HAS_OWN_FLOW', details: { heldBy: 'sanctions_freeze', status: 'bloqueado' } }, `to ${status}: refused`);
      t.match(refused, { ok: false, error: { message: /sanctions case/ } });
    }
    t.match(await statusOf(p), { status: 'bloqueado', frozen_at: Date }, 'still frozen');
    t.match(errorOf(await deposit(p)), { code: 'PLAYER_NOT_ACTIVE' }, 'a deposit is still refused');
    const file = ok<{ standing: unknown }>(await s.call('players.admin.get', { scope: adminScope, params: { id: p } }));
    t.match(file.standing, { heldBy: 'sanctions_freeze', statuses: ['bloqueado'] }, 'the file says what holds it');
  });

  t.test('reporting the case keeps the freeze; dismissing one lifts it', async (t) => {
    const reported = await frozenPlayer();
    ok(await decide(reported.caseId, 'under_review', 'looking'));
    ok(await decide(reported.caseId, 'reported', 'a true match', 'bruno@example.com', 'SISCOAF-1'));
    t.match(await statusOf(reported.p), { status: 'bloqueado', frozen_at: Date }, 'reported: still frozen');

    const dismissed = await frozenPlayer();
    ok(await decide(dismissed.caseId, 'under_review', 'looking', 'bruno@example.com'));
    // The case holds the player's payouts: a second person dismisses it (issue #61).
    ok(await decide(dismissed.caseId, 'dismissed', 'homonym: another birth date'));
    t.match(await statusOf(dismissed.p), { status: 'ativo', frozen_at: null }, 'dismissed: back to the status the freeze held');
    t.same(
      (await statusEvents(dismissed.p)).map((d: { status: string }) => d.status),
      ['bloqueado', 'ativo'],
      'the freeze and its lift: one neutral event each',
    );
    t.match((await s.caseOf(dismissed.caseId)).steps.at(-1), { status: 'dismissed', by: 'ana@example.com', reason: 'homonym: another birth date' });
    t.equal((await deposit(dismissed.p)).ok, true, 'deposits again');
  });

  async function externalIdOf(p: string) {
    return (await s.db.query('select external_id from players.players where id = $1', [p])).rows[0].external_id as string;
  }
});
