// What our team reads about players: the KYC queue (newest change first, submissions and history,
// cursor), a decision with a reason and who made it, the search by id / externalId / CPF / e-mail
// across brands, and one player's file. Operators cannot call any of them.
import t from 'tap';
import { admin, errorCode, internal, newKey, okBody, scopes, startPlayers } from './harness.ts';

t.test('admin queries', async (t) => {
  const h = await startPlayers(t, 'admin-queries');
  const submit = (playerId: string, reference: string) =>
    h.call('players.kyc.submit', scopes.aSandbox, { params: { playerId }, body: { documentType: 'rg', reference }, key: newKey() });
  const queue = (query: Record<string, unknown> = {}) => h.call<any>('players.admin.kycQueue', admin, { query });

  t.test('the KYC queue: players in review, newest change first, with submissions and history', async (t) => {
    const first = await h.createPlayer(t, scopes.aSandbox, { externalId: 'q-1', cpf: '111.444.777-35', email: 'first@example.com' });
    const second = await h.createPlayer(t, scopes.aSandbox, { externalId: 'q-2', cpf: '390.533.447-05', email: 'second@example.com' });
    await h.createPlayer(t, scopes.aSandbox, { externalId: 'q-none', cpf: '987.654.321-00', email: 'none@example.com' });
    okBody(t, await submit(first.id, 'doc-1'), 201);
    okBody(t, await submit(second.id, 'doc-2'), 201);
    okBody(t, await submit(first.id, 'selfie-1'), 201);

    const page = okBody<any>(t, await queue(), 200);
    t.same(
      page.data.map((f: any) => f.player.externalId),
      ['q-1', 'q-2'],
      'newest change first; players with no submission are not waiting',
    );
    const file = page.data[0];
    t.match(file.player, { id: first.id, name: 'Maria Silva', operatorId: 'op_A', brandId: 'brd_A_sandbox', environment: 'sandbox', kycStatus: 'em_analise' });
    t.same(
      file.kyc.submissions.map((s: any) => s.reference),
      ['selfie-1', 'doc-1'],
    );
    t.match(file.kyc.history, [{ previousStatus: 'nao_iniciado', status: 'em_analise', actor: null, reason: null }]);
    t.same(file.limits, { playerId: first.id, dailyDepositLimit: null, selfExcludedUntil: null });

    const one = okBody<any>(t, await queue({ limit: 1 }), 200);
    t.equal(one.data.length, 1);
    const rest = okBody<any>(t, await queue({ limit: 1, cursor: one.nextCursor }), 200);
    t.same(
      rest.data.map((f: any) => f.player.id),
      [second.id],
      'the cursor continues',
    );
    t.equal(rest.nextCursor, null);
    errorCode(t, await queue({ cursor: 'garbage' }), 'VALIDATION_ERROR');
    errorCode(t, await queue({ cursor: one.nextCursor, status: 'pendente' }), 'VALIDATION_ERROR');
    // A position written by hand (the shape the cursor once had, unsigned) is refused: cursors are signed.
    const handWritten = Buffer.from(JSON.stringify(['em_analise', '2999-01-01T00:00:00.000Z', 'zzz'])).toString('base64url');
    errorCode(t, await queue({ cursor: handWritten }), 'VALIDATION_ERROR');
    errorCode(t, await queue({ status: 'aprovado' }), 'VALIDATION_ERROR');
  });

  t.test('a decision with a reason: in the history with who made it, in the audit trail; the player leaves the queue', async (t) => {
    const p = await h.createPlayer(t, scopes.bSandbox, { externalId: 'q-decide', cpf: '714.602.380-01', email: 'Decide@Example.com' });
    okBody(
      t,
      await h.call('players.kyc.submit', scopes.bSandbox, { params: { playerId: p.id }, body: { documentType: 'cnh', reference: 'cnh-1' }, key: newKey() }),
      201,
    );
    const reply = await h.call<any>('players.admin.kycDecision', admin, { params: { id: p.id }, body: { status: 'reprovado', reason: 'document expired' } });
    t.equal(okBody<any>(t, reply, 200).status, 'reprovado');
    t.same(await h.lastAudit(`player:${p.id}`), {
      target: `player:${p.id}`,
      before: { kycStatus: 'em_analise' },
      after: { kycStatus: 'reprovado', reason: 'document expired' },
    });
    const file = okBody<any>(t, await h.call('players.admin.get', admin, { params: { id: p.id } }), 200);
    t.match(file.kyc.history, [
      { previousStatus: 'em_analise', status: 'reprovado', actor: 'compliance@team', reason: 'document expired' },
      { previousStatus: 'nao_iniciado', status: 'em_analise', actor: null, reason: null },
    ]);
    t.notOk(
      okBody<any>(t, await queue({ limit: 100 }), 200).data.some((f: any) => f.player.id === p.id),
      'decided: no longer in the queue',
    );
    errorCode(t, await h.call('players.admin.kycDecision', admin, { params: { id: p.id }, body: { status: 'aprovado', reason: '' } }), 'VALIDATION_ERROR');
  });

  t.test('search: exact id, externalId, CPF with or without punctuation, e-mail in any case; across brands', async (t) => {
    const a = await h.createPlayer(t, scopes.aProduction, { externalId: 'shared-ext', cpf: '935.411.347-80', email: 'Ana@Example.com' });
    const b = await h.createPlayer(t, scopes.bSandbox, { externalId: 'shared-ext', cpf: '935.411.347-80', email: 'other@example.com' });
    const search = async (q: string) =>
      okBody<any>(t, await h.call('players.admin.search', admin, { query: { q } }), 200)
        .data.map((p: any) => p.id)
        .sort();
    t.same(await search(a.id), [a.id]);
    t.same(await search('shared-ext'), [a.id, b.id].sort(), 'an externalId is unique per brand only');
    t.same(await search('93541134780'), [a.id, b.id].sort());
    t.same(await search('935.411.347-80'), [a.id, b.id].sort());
    t.same(await search('ana@example.COM'), [a.id]);
    t.same(await search('%@example.com'), [], 'no wildcards');
    t.same(await search('nobody'), []);
    errorCode(t, await h.call('players.admin.search', admin, { query: {} }), 'VALIDATION_ERROR');
  });

  t.test('issue #61: by name, one environment, one operator; the KYC queue of one environment; summaries by id', async (t) => {
    const live = await h.createPlayer(t, scopes.aProduction, {
      externalId: 'n-live',
      name: 'Joana Conceição Prado',
      cpf: '529.982.247-25',
      email: 'joana@example.com',
    });
    const test = await h.createPlayer(t, scopes.aSandbox, { externalId: 'n-test', name: 'Joana Prado', cpf: '529.982.247-25', email: 'joana.t@example.com' });
    const other = await h.createPlayer(t, scopes.bSandbox, { externalId: 'n-other', name: 'Bruno Prado', cpf: '111.444.777-35', email: 'bruno@example.com' });
    const search = async (query: Record<string, unknown>) =>
      okBody<any>(t, await h.call('players.admin.search', admin, { query }), 200)
        .data.map((p: any) => p.id)
        .sort();
    t.same(await search({ q: 'joana prado' }), [live.id, test.id].sort(), 'by the words of the name, any case, in order');
    t.same(await search({ q: 'PRADO' }), [live.id, test.id, other.id].sort(), 'a part of it');
    t.same(await search({ q: 'pr' }), [], 'not under three characters');
    t.same(await search({ q: 'prado', environment: 'production' }), [live.id], 'production only');
    t.same(await search({ q: 'prado', environment: 'sandbox' }), [test.id, other.id].sort(), 'the sandbox only');
    t.same(await search({ q: 'prado', operatorId: 'op_B' }), [other.id], 'one operator');
    t.same(await search({ q: '529.982.247-25', environment: 'sandbox' }), [test.id], 'a CPF, narrowed too');

    for (const p of [live, test]) {
      const scope = p === live ? scopes.aProduction : scopes.aSandbox;
      okBody(
        t,
        await h.call('players.kyc.submit', scope, { params: { playerId: p.id }, body: { documentType: 'rg', reference: `doc-${p.id}` }, key: newKey() }),
        201,
      );
    }
    const ids = async (query: Record<string, unknown>) => okBody<any>(t, await queue(query), 200).data.map((f: any) => f.player.id);
    t.ok(
      (await ids({ environment: 'production' })).includes(live.id) && !(await ids({ environment: 'production' })).includes(test.id),
      'the queue of production',
    );
    t.ok((await ids({ environment: 'sandbox' })).includes(test.id) && !(await ids({ environment: 'sandbox' })).includes(live.id), 'the queue of the sandbox');
    const page = okBody<any>(t, await queue({ environment: 'sandbox', limit: 1 }), 200);
    if (page.nextCursor) errorCode(t, await queue({ environment: 'production', limit: 1, cursor: page.nextCursor }), 'VALIDATION_ERROR');
    else t.pass('one page only');

    const summaries = okBody<any>(t, await h.call('players.summaries', internal, { body: { playerIds: [live.id, other.id, 'plr_nobody'] } }), 200);
    t.same(
      summaries.players.map((p: any) => [p.id, p.name, p.externalId, p.status, p.kycStatus]).sort(),
      [
        [live.id, 'Joana Conceição Prado', 'n-live', 'ativo', 'em_analise'],
        [other.id, 'Bruno Prado', 'n-other', 'ativo', 'nao_iniciado'],
      ].sort(),
      'summaries of the players found, none for an unknown id',
    );
    errorCode(t, await h.call('players.summaries', admin, { body: { playerIds: [live.id] } }), 'UNAUTHORIZED');
  });

  t.test('a player file; unknown ids are 404; operators cannot call admin reads', async (t) => {
    const p = await h.createPlayer(t, scopes.aSandbox, { externalId: 'q-file', email: 'file@example.com' });
    const file = okBody<any>(t, await h.call('players.admin.get', admin, { params: { id: p.id } }), 200);
    t.same(file.player, { ...p, operatorId: 'op_A', brandId: 'brd_A_sandbox', environment: 'sandbox' });
    t.same(file.kyc, { status: 'nao_iniciado', updatedAt: file.kyc.updatedAt, submissions: [], history: [] });
    errorCode(t, await h.call('players.admin.get', admin, { params: { id: 'plr_unknown' } }), 'PLAYER_NOT_FOUND');
    for (const subject of ['players.admin.get', 'players.admin.search', 'players.admin.kycQueue'])
      errorCode(t, await h.call(subject, scopes.aSandbox, { params: { id: p.id }, query: { q: p.id } }), 'UNAUTHORIZED');
  });
});
