// players.state: what deposits, withdrawals and game sessions read before applying their rules.
import t from 'tap';
import { PLAYER_STATE_SUBJECT } from '@bo/contracts';
import { admin, errorCode, internal, okBody, scopes, startPlayers } from './harness.ts';

t.test('players.state', async (t) => {
  const h = await startPlayers(t, 'state');
  const state = (brandId: string, playerId: string, scope = internal) => h.call(PLAYER_STATE_SUBJECT, scope, { body: { brandId, playerId } });

  t.test('a new player; unknown and other-brand players do not exist', async (t) => {
    const p = await h.createPlayer(t, scopes.bSandbox, { externalId: 'st-1' });
    t.same(okBody(t, await state('brd_B_sandbox', p.id), 200), {
      exists: true,
      playerId: p.id,
      externalId: 'st-1',
      currency: 'USD',
      status: 'ativo',
      kycStatus: 'nao_iniciado',
      selfExcluded: false,
      selfExcludedUntil: null,
      dailyDepositLimit: null,
    });
    t.same(okBody(t, await state('brd_A_sandbox', p.id), 200), { exists: false, playerId: p.id });
    t.same(okBody(t, await state('brd_B_sandbox', 'plr_unknown'), 200), { exists: false, playerId: 'plr_unknown' });
    t.same(
      okBody(t, await state('brd_A_sandbox', p.id, scopes.bSandbox), 200),
      { exists: false, playerId: p.id },
      'an operator scope never reads another brand',
    );
    errorCode(t, await state('', p.id), 'VALIDATION_ERROR');
  });

  t.test('limits, status and self-exclusion', async (t) => {
    const p = await h.createPlayer(t, scopes.aSandbox, { externalId: 'st-2' });
    // A week ahead: a date within SELF_EXCLUSION_REPEAT_HOURS (24 h) of the running end is the same term
    // again (200), so a day ahead and a second's past, asked more than a second apart, read as that.
    const future = new Date(Date.now() + 7 * 86_400_000).toISOString();
    okBody(t, await h.call('players.admin.limits', admin, { params: { id: p.id }, body: { dailyDepositLimit: '250', selfExcludedUntil: future } }), 200);
    t.match(okBody(t, await state('brd_A_sandbox', p.id), 200), { selfExcluded: true, selfExcludedUntil: future, dailyDepositLimit: '250.00' });

    t.match(okBody(t, await state('brd_A_sandbox', p.id), 200), { status: 'autoexcluido' }, 'the date starts a self-exclusion');

    // Neither a past date nor the generic status change ends it (issue #56: standing only through its flow).
    const past = new Date(Date.now() - 1000).toISOString();
    errorCode(
      t,
      await h.call('players.admin.limits', admin, { params: { id: p.id }, body: { dailyDepositLimit: '250', selfExcludedUntil: past } }),
      'STANDING_HAS_OWN_FLOW',
    );
    errorCode(t, await h.call('players.admin.status', admin, { params: { id: p.id }, body: { status: 'ativo' } }), 'STANDING_HAS_OWN_FLOW');
    t.match(okBody(t, await state('brd_A_sandbox', p.id), 200), { status: 'autoexcluido', selfExcluded: true, selfExcludedUntil: future });

    okBody(t, await h.call('players.admin.kycDecision', admin, { params: { id: p.id }, body: { status: 'aprovado' } }), 200);
    t.match(okBody(t, await state('brd_A_sandbox', p.id), 200), { kycStatus: 'aprovado' });
  });
});
