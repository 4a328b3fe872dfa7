// Admin operations: players addressed by id across brands, each decision's audit row written in its transaction.
import t from 'tap';
import { Value } from '@sinclair/typebox/value';
import { ERROR_CATALOGUE, PlayerSchema } from '@bo/contracts';
import { admin, brSpaPlayer, errorCode, newKey, okBody, scopes, startPlayers } from './harness.ts';

t.test('admin operations', async (t) => {
  const h = await startPlayers(t, 'admin');

  t.test('players.admin.status: any brand, 200 Player, audit before/after', async (t) => {
    const p = await h.createPlayer(t, scopes.bSandbox, { externalId: 'adm-status' });
    const reply = await h.call('players.admin.status', admin, { params: { id: p.id }, body: { status: 'suspenso' } });
    const player = okBody<any>(t, reply, 200);
    t.same(player, { ...p, status: 'suspenso' });
    t.ok(Value.Check(PlayerSchema, player));
    t.same(await h.lastAudit(`player:${p.id}`), { target: `player:${p.id}`, before: p, after: { ...p, status: 'suspenso' } });
    const found = okBody<any>(t, await h.call('players.find', scopes.bSandbox, { query: { externalId: 'adm-status' } }), 200);
    t.equal(found.data[0].status, 'suspenso', 'the operator sees it');
    errorCode(t, await h.call('players.admin.status', admin, { params: { id: p.id }, body: { status: 'banido' } }), 'VALIDATION_ERROR');
    errorCode(t, await h.call('players.admin.status', admin, { params: { id: 'plr_unknown' }, body: { status: 'ativo' } }), 'PLAYER_NOT_FOUND');
  });

  t.test('players.admin.limits: stored as numeric, returned with 2 decimals; null clears the limit, never the self-exclusion', async (t) => {
    const p = await h.createPlayer(t, scopes.aProduction, { externalId: 'adm-limits' });
    // The date starts a self-exclusion until then; sent again it is kept, and null would end it (refused).
    const until = '2030-01-02T03:04:05.678Z';
    const reply = await h.call('players.admin.limits', admin, {
      params: { id: p.id },
      body: { dailyDepositLimit: '1500.5', selfExcludedUntil: until },
    });
    const limits = okBody<any>(t, reply, 200);
    t.same(limits, { playerId: p.id, dailyDepositLimit: '1500.50', selfExcludedUntil: until });
    t.same(await h.lastAudit(`player:${p.id}`), {
      target: `player:${p.id}`,
      before: { playerId: p.id, dailyDepositLimit: null, selfExcludedUntil: null },
      after: limits,
    });
    // The daily deposit limit is the player's deposit/day limit (1.3.0).
    const [row] = await h.sql(
      "select value::text as l, pg_typeof(value)::text as t from players.rg_limits where player_id = ? and type = 'deposit' and period = 'day'",
      [p.id],
    );
    t.same(row, { l: '1500.50', t: 'numeric' });

    const big = okBody<any>(
      t,
      await h.call('players.admin.limits', admin, { params: { id: p.id }, body: { dailyDepositLimit: '1000000.00', selfExcludedUntil: until } }),
      200,
    );
    t.equal(big.dailyDepositLimit, '1000000.00', 'the largest amount a request may carry');

    errorCode(
      t,
      await h.call('players.admin.limits', admin, { params: { id: p.id }, body: { dailyDepositLimit: null, selfExcludedUntil: null } }),
      'STANDING_HAS_OWN_FLOW',
      'an empty date would end the self-exclusion: refused, nothing changed',
    );
    const cleared = await h.call('players.admin.limits', admin, { params: { id: p.id }, body: { dailyDepositLimit: null, selfExcludedUntil: until } });
    t.same(okBody(t, cleared, 200), { playerId: p.id, dailyDepositLimit: null, selfExcludedUntil: until });
    t.same((await h.lastAudit(`player:${p.id}`))?.before, big);

    const zero = okBody<any>(
      t,
      await h.call('players.admin.limits', admin, { params: { id: p.id }, body: { dailyDepositLimit: '0', selfExcludedUntil: until } }),
      200,
    );
    t.equal(zero.dailyDepositLimit, '0.00');

    for (const bad of [
      { dailyDepositLimit: '-1', selfExcludedUntil: null },
      { dailyDepositLimit: '1.234', selfExcludedUntil: null },
      { dailyDepositLimit: 100, selfExcludedUntil: null },
      { dailyDepositLimit: '12345678901234567', selfExcludedUntil: null },
      { dailyDepositLimit: '1000000.01', selfExcludedUntil: null },
      { dailyDepositLimit: '00.10', selfExcludedUntil: null },
      { dailyDepositLimit: null, selfExcludedUntil: '2030-01-02' },
      { dailyDepositLimit: null },
    ]) {
      errorCode(t, await h.call('players.admin.limits', admin, { params: { id: p.id }, body: bad }), 'VALIDATION_ERROR', `refused ${JSON.stringify(bad)}`);
    }
    errorCode(
      t,
      await h.call('players.admin.limits', admin, { params: { id: 'plr_unknown' }, body: { dailyDepositLimit: null, selfExcludedUntil: null } }),
      'PLAYER_NOT_FOUND',
    );
  });

  t.test('players.admin.kycDecision: any brand, KYC record, audit, event on change only', async (t) => {
    const p = await h.createPlayer(t, scopes.aProduction, { externalId: 'adm-kyc' });
    okBody(
      t,
      await h.call('players.kyc.submit', scopes.aProduction, { params: { playerId: p.id }, body: { documentType: 'rg', reference: 'r' }, key: newKey() }),
      201,
    );
    const reply = await h.call('players.admin.kycDecision', admin, { params: { id: p.id }, body: { status: 'aprovado' } });
    const record = okBody<any>(t, reply, 200);
    t.equal(record.status, 'aprovado');
    t.equal(record.submissions.length, 1);
    t.same(await h.lastAudit(`player:${p.id}`), { target: `player:${p.id}`, before: { kycStatus: 'em_analise' }, after: { kycStatus: 'aprovado' } });
    okBody(t, await h.call('players.admin.kycDecision', admin, { params: { id: p.id }, body: { status: 'aprovado' } }), 200);
    t.same(await h.lastAudit(`player:${p.id}`), { target: `player:${p.id}`, before: { kycStatus: 'aprovado' }, after: { kycStatus: 'aprovado' } });
    const events = (await h.events()).filter((e) => (e.event.data as any).playerId === p.id);
    t.same(
      events.map((e) => [e.event.environment, (e.event.data as any).previousStatus, (e.event.data as any).status]),
      [
        ['production', 'nao_iniciado', 'em_analise'],
        ['production', 'em_analise', 'aprovado'],
      ],
    );
    errorCode(t, await h.call('players.admin.kycDecision', admin, { params: { id: p.id }, body: { status: 'nao_iniciado' } }), 'VALIDATION_ERROR');
    errorCode(t, await h.call('players.admin.kycDecision', admin, { params: { id: 'plr_unknown' }, body: { status: 'aprovado' } }), 'PLAYER_NOT_FOUND');
  });

  t.test('admin operations refuse an operator scope', async (t) => {
    const p = await h.createPlayer(t, scopes.aSandbox, { externalId: 'adm-scope' });
    errorCode(t, await h.call('players.admin.status', scopes.aSandbox, { params: { id: p.id }, body: { status: 'bloqueado' } }), 'UNAUTHORIZED');
    errorCode(
      t,
      await h.call('players.admin.limits', scopes.aSandbox, { params: { id: p.id }, body: { dailyDepositLimit: null, selfExcludedUntil: null } }),
      'UNAUTHORIZED',
    );
    errorCode(t, await h.call('players.admin.kycDecision', scopes.aSandbox, { params: { id: p.id }, body: { status: 'aprovado' } }), 'UNAUTHORIZED');
    const [row] = await h.sql('select status, kyc_status from players.players where id = ?', [p.id]);
    t.same(row, { status: 'ativo', kyc_status: 'nao_iniciado' });
  });

  t.test('players.admin.status: a closed br-spa account whose CPF is registered again is not reopened (409 PLAYER_CPF_EXISTS naming the other)', async (t) => {
    // An operator of its own, under br-spa: a CPF registers once per brand among players not closed.
    const scope = { kind: 'operator', operatorId: 'op_C', brandId: 'brd_C_production', environment: 'production', currency: 'BRL' } as const;
    okBody(
      t,
      await h.call('players.admin.setCompliance', admin, { params: { id: scope.operatorId }, body: { profile: 'br-spa', reason: 'licensed in Brazil' } }),
      200,
    );
    const setStatus = (id: string, status: string) => h.call('players.admin.status', admin, { params: { id }, body: { status } });
    const cpf = '714.602.380-01';
    const old = await h.createPlayer(t, scope, { ...brSpaPlayer, externalId: 'adm-reopen-old', cpf });
    okBody(t, await setStatus(old.id, 'encerrado'), 200);
    const again = await h.createPlayer(t, scope, { ...brSpaPlayer, externalId: 'adm-reopen-new', cpf });
    const stored = async (id: string) => (await h.sql('select status, updated_at from players.players where id = ?', [id]))[0];
    const statusEvents = async (id: string) =>
      (await h.events()).filter((e) => e.event.type === 'player.status.changed' && (e.event.data as any).playerId === id).map((e) => e.event.data);
    const closed = await stored(old.id);
    const audit = await h.lastAudit(`player:${old.id}`);
    for (const status of ['ativo', 'suspenso', 'bloqueado']) {
      const refused = await setStatus(old.id, status);
      errorCode(t, refused, 'PLAYER_CPF_EXISTS', `encerrado → ${status}: refused`);
      t.match(
        refused.ok ? undefined : refused.error,
        { message: new RegExp(`closed.*${again.id}`), details: { playerId: again.id } },
        `encerrado → ${status}: names the account that holds the CPF`,
      );
      t.equal(refused.ok ? 200 : ERROR_CATALOGUE[refused.error.code as keyof typeof ERROR_CATALOGUE].status, 409, `encerrado → ${status}: a conflict`);
    }
    t.same(await stored(old.id), closed, 'nothing written: still encerrado, not touched');
    t.same(await h.lastAudit(`player:${old.id}`), audit, 'no audit row for a refusal');
    t.same(
      await statusEvents(old.id),
      [{ playerId: old.id, externalId: 'adm-reopen-old', previousStatus: 'ativo', status: 'encerrado' }],
      'no event for a refusal',
    );
    // The other way out of encerrado that could hit the index: a sanctions freeze skips a closed account, so its lift gives nothing back.
    t.match(okBody<any>(t, await h.call('players.sanctions.freeze', admin, { body: { playerId: old.id } }), 200), { status: 'encerrado', frozen: false });
    t.match(okBody<any>(t, await h.call('players.sanctions.lift', admin, { body: { playerId: old.id } }), 200), { status: 'encerrado', frozen: false });
    t.same(await stored(old.id), closed, 'a freeze and its lift leave it closed, untouched');

    // The CPF free again (the new account closed): the old one reopens.
    okBody(t, await setStatus(again.id, 'encerrado'), 200);
    t.match(okBody<any>(t, await setStatus(old.id, 'ativo'), 200), { id: old.id, status: 'ativo' }, 'reopened once no other account holds the CPF');

    // Two closed accounts of one CPF reopened at once: one wins, the other is refused naming it (never a 500).
    for (let i = 0; i < 4; i++) {
      const raceCpf = ['390.533.447-05', '111.444.777-35', '863.184.730-50', '246.813.579-28'][i]!;
      const a = await h.createPlayer(t, scope, { ...brSpaPlayer, externalId: `adm-race-a-${i}`, cpf: raceCpf });
      okBody(t, await setStatus(a.id, 'encerrado'), 200);
      const b = await h.createPlayer(t, scope, { ...brSpaPlayer, externalId: `adm-race-b-${i}`, cpf: raceCpf });
      okBody(t, await setStatus(b.id, 'encerrado'), 200);
      const replies = await Promise.all([setStatus(a.id, 'ativo'), setStatus(b.id, 'ativo')]);
      const won = replies.filter((r) => r.ok).map((r) => (r.ok ? r.body.id : ''));
      const lost = replies.flatMap((r) => (r.ok ? [] : [r.error]));
      t.equal(won.length, 1, `race ${i}: one reopened`);
      t.match(lost, [{ code: 'PLAYER_CPF_EXISTS', details: { playerId: won[0] } }], `race ${i}: the other refused, naming the winner`);
      const open = await h.sql("select id from players.players where id in (?, ?) and status <> 'encerrado'", [a.id, b.id]);
      t.same(open, [{ id: won[0] }], `race ${i}: one account open`);
    }
  });
});
