// PEP and sanctions screening through the simulator (real Postgres and NATS, the real players,
// wallet and payments services): a PEP found when a player is first seen raises their risk to high
// and opens a case; a sanctions entry added later (a list change) freezes the player before the
// change is answered (deposits, rounds, withdrawals refused with PLAYER_NOT_ACTIVE) and opens a
// case; a later change does not act on it again.
import t from 'tap';
import { randomCpf, waitFor } from '@bo/service-kit/testing';
import { BR_SPA_LIMITS, BR_SPA_REGISTRATION, outboxAudits } from '@bo/test-support';
import { adminScope, errorOf, key, ok, startComplianceStack } from '../support/stack.ts';

t.test('screening at first sight and on a list change', async (t) => {
  const s = await startComplianceStack(t, 'amlscreen');
  const op = await s.brSpaOperator();
  const cpfOf = async (playerId: string) => (await s.db.query('select cpf from players.players where id = $1', [playerId])).rows[0].cpf as string;
  const screened = (playerId: string) =>
    waitFor(async () => (await s.db.query('select 1 from compliance.screened_players where player_id = $1', [playerId])).rowCount === 1, {
      what: `${playerId} screened`,
    });
  const addEntry = (body: Record<string, string>) => s.call('compliance.admin.screening.add', { scope: adminScope, body });

  t.test('a PEP found at first sight (the first KYC event): risk high and a case', async (t) => {
    const cpf = randomCpf();
    t.same(
      ok<{ rescreen: { hits: unknown[] } }>(await addEntry({ list: 'pep', cpf, name: 'Ana Teste', detail: 'Mayor of a capital (2025-2028)' })).rescreen.hits,
      [],
    );
    const created = ok<{ id: string }>(
      await s.call('players.create', {
        scope: op,
        key: key('p'),
        body: {
          externalId: key('ext'),
          name: 'Ana Teste',
          email: 'ana@example.com',
          cpf,
          birthDate: '1980-02-03',
          ...BR_SPA_REGISTRATION,
          limits: BR_SPA_LIMITS,
        },
      }),
    );
    ok(await s.call('players.admin.kycDecision', { scope: adminScope, params: { id: created.id }, body: { status: 'aprovado' } }));
    await screened(created.id);
    const [c] = await s.cases(created.id);
    t.match(c, { risk: 'high', rules: ['pep'], status: 'open' });
    t.match((await s.caseOf(c!.id)).evidence, [{ rule: 'pep', facts: { detail: 'Mayor of a capital (2025-2028)' } }]);
    t.match(ok(await s.call('compliance.admin.risk.get', { scope: adminScope, params: { id: created.id } })), {
      level: 'high',
      history: [{ level: 'high', by: 'aml-screening' }],
    });
    t.match(await s.db.query('select status from players.players where id = $1', [created.id]), { rows: [{ status: 'ativo' }] }, 'a PEP is not frozen');
  });

  t.test('a PEP added to the list later: the change screens the player again', async (t) => {
    const clean = await s.player(op);
    await screened(clean);
    t.same(await s.cases(clean), [], 'not listed: no case');
    const added = ok<{ rescreen: { hits: Array<{ playerId: string; list: string }> } }>(
      await addEntry({ list: 'pep', cpf: await cpfOf(clean), name: 'Maria Teste', detail: 'Sister of a federal deputy' }),
    );
    t.match(added.rescreen.hits, [{ playerId: clean, list: 'pep' }], 'found by the list change');
    t.match(await s.cases(clean), [{ risk: 'high', rules: ['pep'] }]);
  });

  t.test('a sanctions entry freezes the player at once and opens a case', async (t) => {
    const p = await s.player(op);
    await s.deposit(op, p, '100.00');
    await screened(p);
    const added = ok<{ rescreen: { hits: Array<{ playerId: string; list: string }> } }>(
      await addEntry({ list: 'sanctions', cpf: await cpfOf(p), name: 'Maria Teste', detail: 'UNSC 1267 list, QDi.999' }),
    );
    t.match(added.rescreen.hits, [{ playerId: p, list: 'sanctions' }]);
    // In force when the list change answered: no waiting.
    t.match(await s.db.query('select status from players.players where id = $1', [p]), { rows: [{ status: 'bloqueado' }] }, 'frozen');
    const deposit = await s.call('payments.deposits.create', {
      scope: op,
      key: key('d'),
      params: { playerId: p },
      body: { amount: '10.00', currency: 'BRL', method: 'pix', externalReference: key('r') },
    });
    t.match(errorOf(deposit), { code: 'PLAYER_NOT_ACTIVE' }, 'deposit refused');
    const withdrawal = await s.call('payments.withdrawals.create', {
      scope: op,
      key: key('w'),
      params: { playerId: p },
      body: { amount: '10.00', currency: 'BRL', method: 'pix', destination: 'k' },
    });
    t.match(errorOf(withdrawal), { code: 'PLAYER_NOT_ACTIVE' }, 'withdrawal refused');
    const session = await s.call('games.sessions.create', { scope: op, key: key('g'), params: { playerId: p }, body: { gameId: 'gm_dice_classic' } });
    t.match(errorOf(session), { code: 'PLAYER_NOT_ACTIVE' }, 'play refused');
    const [c] = await s.cases(p);
    t.match(c, { risk: 'high', rules: ['sanctions'] });

    const again = ok<{ rescreen: { hits: unknown[] } }>(await addEntry({ list: 'pep', cpf: '11144477735', name: 'Someone Else', detail: 'Mayor' }));
    t.same(again.rescreen.hits, [], 'a later list change does not act again on what was found before');
    t.equal((await s.caseOf(c!.id)).evidence.length, 1, 'no new evidence');
  });

  t.test("our team's list changes and rescreens are audited, once each, through the outbox", async (t) => {
    const ana = { kind: 'admin' as const, actor: 'user:ana@ourteam.example', personId: 'usr_ana' };
    const body = { list: 'pep', cpf: randomCpf(), name: 'Audited Entry', detail: 'Mayor' };
    const k = key('entry');
    const added = await s.call<{ entry: { id: string } }>('compliance.admin.screening.add', { scope: ana, key: k, body });
    const target = `screening_entry:${ok(added).entry.id}`;
    const replayed = await s.call('compliance.admin.screening.add', { scope: ana, key: k, body });
    t.equal(replayed.ok && replayed.replayed, true, 'the same request again: its stored answer');
    ok(await s.call('compliance.admin.screening.remove', { scope: ana, key: key('remove'), params: { id: ok(added).entry.id } }));
    ok(await s.call('compliance.admin.screening.rescreen', { scope: ana, key: key('rescreen') }));
    t.match(
      (await outboxAudits(s.db, 'compliance', target)).map((a) => [a.action, a.actor, a.actorId, a.before === null, a.after === null]),
      [
        ['adminAddScreeningEntry', 'user:ana@ourteam.example', 'usr_ana', true, false],
        ['adminRemoveScreeningEntry', 'user:ana@ourteam.example', 'usr_ana', false, true],
      ],
      "the entry's add and removal, each in its transaction, the replay adding none",
    );
    t.match(
      (await outboxAudits(s.db, 'compliance', 'screening:rescreen')).map((a) => [a.action, a.actor]),
      [['adminRescreen', 'user:ana@ourteam.example']],
      'the rescreen, once it was done',
    );
  });
});
