// The sandbox routes over the screening simulator (real Postgres and NATS, the real players, wallet,
// payments and compliance services): an operator's test key puts a CPF on its own sandbox's
// sanctions list, and its sandbox player with that CPF is frozen before the answer; the same CPF at
// another operator's sandbox, or at the operator's own production brand, is untouched. The answer
// names the entry only (no case, no hit). Only the operator's own entries can be removed, and a
// removal lifts no freeze.
import t from 'tap';
import { randomCpf, waitFor } from '@bo/service-kit/testing';
import { BR_SPA_LIMITS, BR_SPA_REGISTRATION, operatorScope } from '@bo/test-support';
import type { OperatorScope } from '@bo/contracts';
import { adminScope, key, ok, startComplianceStack } from '../support/stack.ts';

t.test("a sandbox entry screens the operator's own sandbox players only", async (t) => {
  const s = await startComplianceStack(t, 'amlsbx');
  const brSpa = async (scope: OperatorScope) =>
    ok(
      await s.call('players.admin.setCompliance', {
        scope: adminScope,
        params: { id: scope.operatorId },
        body: { profile: 'br-spa', reason: 'the operator is licensed in Brazil' },
      }),
    );
  const aSandbox = operatorScope('sa', 'sandbox');
  const aProduction: OperatorScope = { ...operatorScope('sa', 'production'), operatorId: aSandbox.operatorId };
  const bSandbox = operatorScope('sb', 'sandbox');
  await brSpa(aSandbox);
  await brSpa(bSandbox);

  const cpf = randomCpf();
  const playerWith = async (scope: OperatorScope) => {
    const { id } = ok<{ id: string }>(
      await s.call('players.create', {
        scope,
        key: key('p'),
        body: {
          externalId: key('ext'),
          name: 'Bea Teste',
          email: 'bea@example.com',
          cpf,
          birthDate: '1985-04-05',
          ...BR_SPA_REGISTRATION,
          limits: BR_SPA_LIMITS,
        },
      }),
    );
    // The first KYC event is when screening first sees a player.
    ok(await s.call('players.admin.kycDecision', { scope: adminScope, params: { id }, body: { status: 'aprovado' } }));
    await waitFor(async () => (await s.db.query('select 1 from compliance.screened_players where player_id = $1', [id])).rowCount === 1, {
      what: `${id} screened`,
    });
    return id;
  };
  const mine = await playerWith(aSandbox);
  const othersSandbox = await playerWith(bSandbox);
  const mineInProduction = await playerWith(aProduction);
  const statusOf = async (id: string) => (await s.db.query('select status from players.players where id = $1', [id])).rows[0].status as string;

  const added = await s.call('compliance.sandbox.screening.add', { scope: aSandbox, key: key('scr'), body: { list: 'sanctions', cpf } });
  const entry = ok<{ id: string; list: string; cpf: string; createdAt: string }>(added);
  t.same(Object.keys(entry).sort(), ['cpf', 'createdAt', 'id', 'list'], 'the answer names the entry only: no hit, risk or case');
  t.match(entry, { list: 'sanctions', cpf });
  t.equal(await statusOf(mine), 'bloqueado', "the operator's sandbox player is frozen when the answer comes");
  t.equal(await statusOf(othersSandbox), 'ativo', "another operator's sandbox player with the same CPF is untouched");
  t.equal(await statusOf(mineInProduction), 'ativo', "the operator's production player with the same CPF is untouched");
  t.match(await s.cases(mine), [{ rules: ['sanctions'] }], 'our team sees the case');

  const theirs = ok<{ removed: boolean }>(await s.call('compliance.sandbox.screening.remove', { scope: bSandbox, params: { id: entry.id } }));
  t.equal(theirs.removed, false, 'another operator cannot remove the entry');
  const removed = ok<{ removed: boolean }>(await s.call('compliance.sandbox.screening.remove', { scope: aSandbox, params: { id: entry.id } }));
  t.equal(removed.removed, true, 'the operator removes its own entry');
  t.equal(await statusOf(mine), 'bloqueado', 'a removal lifts no freeze (our team decides that)');
});
