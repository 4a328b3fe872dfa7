// KYC: the record, submissions, sandbox decisions, and kyc.status_changed events read back from
// the JetStream stream: exactly one per change, none when the status stays the same.
import t from 'tap';
import { Value } from '@sinclair/typebox/value';
import { KycRecordSchema, KycSubmissionCreatedSchema } from '@bo/contracts';
import { errorCode, newKey, okBody, scopes, startPlayers } from './harness.ts';

t.test('KYC flows and events', async (t) => {
  const h = await startPlayers(t, 'kyc');
  const kycEventsOf = async (playerId: string) =>
    (await h.events()).filter((e) => e.event.type === 'kyc.status_changed' && (e.event.data as any).playerId === playerId);

  t.test('a new player: nao_iniciado, no submissions, updatedAt = createdAt', async (t) => {
    const p = await h.createPlayer(t, scopes.aSandbox, { externalId: 'kyc-new' });
    const record = okBody<any>(t, await h.call('players.kyc.get', scopes.aSandbox, { params: { playerId: p.id } }), 200);
    t.same(record, { playerId: p.id, status: 'nao_iniciado', submissions: [], updatedAt: p.createdAt });
    t.ok(Value.Check(KycRecordSchema, record));
  });

  t.test('submissions, decisions and the events they write', async (t) => {
    const p = await h.createPlayer(t, scopes.aSandbox, { externalId: 'kyc-flow' });
    const submit = (documentType: string, reference: string, key = newKey()) =>
      h.call('players.kyc.submit', scopes.aSandbox, { params: { playerId: p.id }, body: { documentType, reference }, key });
    const decide = (status: string) => h.call('players.kyc.decide', scopes.aSandbox, { params: { playerId: p.id }, body: { status } });

    const s1 = okBody<any>(t, await submit('rg', 'doc-001'), 201);
    t.same(Object.keys(s1).sort(), ['createdAt', 'documentType', 'id', 'kycStatus', 'playerId', 'reference']);
    t.ok(Value.Check(KycSubmissionCreatedSchema, s1));
    t.match(s1, { playerId: p.id, documentType: 'rg', reference: 'doc-001', kycStatus: 'em_analise' });
    t.match(s1.id, /^kyc_[0-9a-f]{32}$/);

    // em_analise → em_analise: a submission, no event.
    const s2 = okBody<any>(t, await submit('selfie', 'doc-002'), 201);
    t.equal(s2.kycStatus, 'em_analise');

    const afterSubmissions = okBody<any>(t, await h.call('players.kyc.get', scopes.aSandbox, { params: { playerId: p.id } }), 200);
    t.equal(afterSubmissions.status, 'em_analise');
    t.same(
      afterSubmissions.submissions,
      [
        { id: s2.id, documentType: 'selfie', reference: 'doc-002', createdAt: s2.createdAt },
        { id: s1.id, documentType: 'rg', reference: 'doc-001', createdAt: s1.createdAt },
      ],
      'newest first, exactly the submission fields',
    );
    t.equal(afterSubmissions.updatedAt, s2.createdAt, 'a submission updates the record');

    const asked = okBody<any>(t, await decide('documento_solicitado'), 200);
    t.equal(asked.status, 'documento_solicitado');
    t.equal(asked.submissions.length, 2);
    t.ok(Value.Check(KycRecordSchema, asked));
    okBody(t, await submit('cnh', 'doc-003'), 201);
    const approved = okBody<any>(t, await decide('aprovado'), 200);
    t.equal(approved.status, 'aprovado');
    const sameAgain = okBody<any>(t, await decide('aprovado'), 200);
    t.equal(sameAgain.updatedAt, approved.updatedAt, 'no change, no new updatedAt');

    errorCode(t, await submit('rg', 'doc-004'), 'KYC_ALREADY_APPROVED');
    const { c } = (await h.sql<{ c: string }>('select count(*) c from players.kyc_submissions where player_id = ?', [p.id]))[0]!;
    t.equal(c, '3', 'the refused submission is not stored');

    const events = await kycEventsOf(p.id);
    t.same(
      events.map((e) => e.event.data),
      [
        { playerId: p.id, externalId: 'kyc-flow', previousStatus: 'nao_iniciado', status: 'em_analise' },
        { playerId: p.id, externalId: 'kyc-flow', previousStatus: 'em_analise', status: 'documento_solicitado' },
        { playerId: p.id, externalId: 'kyc-flow', previousStatus: 'documento_solicitado', status: 'em_analise' },
        { playerId: p.id, externalId: 'kyc-flow', previousStatus: 'em_analise', status: 'aprovado' },
      ],
      'exactly one event per change, in order',
    );
    for (const e of events) {
      t.same(Object.keys(e.event).sort(), ['createdAt', 'data', 'environment', 'id', 'type']);
      t.match(e.event.id, /^evt_[0-9a-f]{32}$/);
      t.equal(e.event.environment, 'sandbox');
      t.equal(e.subject, `${h.prefix}.events.sandbox.kyc.status_changed`);
      t.equal(e.msgId, e.event.id, 'msgID = event id');
      t.equal(e.brandId, 'brd_A_sandbox');
      t.equal(e.operatorId, 'op_A');
    }
  });

  t.test('reprovado and expirado can be resubmitted; every decided status but nao_iniciado', async (t) => {
    const p = await h.createPlayer(t, scopes.aSandbox, { externalId: 'kyc-resubmit' });
    for (const status of ['pendente', 'reprovado', 'expirado']) {
      okBody(t, await h.call('players.kyc.decide', scopes.aSandbox, { params: { playerId: p.id }, body: { status } }), 200);
      const s = okBody<any>(
        t,
        await h.call('players.kyc.submit', scopes.aSandbox, {
          params: { playerId: p.id },
          body: { documentType: 'passaporte', reference: `r-${status}` },
          key: newKey(),
        }),
        201,
      );
      t.equal(s.kycStatus, 'em_analise', `${status} → em_analise`);
    }
    errorCode(t, await h.call('players.kyc.decide', scopes.aSandbox, { params: { playerId: p.id }, body: { status: 'nao_iniciado' } }), 'VALIDATION_ERROR');
    errorCode(t, await h.call('players.kyc.decide', scopes.aSandbox, { params: { playerId: p.id }, body: { status: 'aprovada' } }), 'VALIDATION_ERROR');
    const statuses = (await kycEventsOf(p.id)).map((e) => `${(e.event.data as any).previousStatus}>${(e.event.data as any).status}`);
    t.same(statuses, [
      'nao_iniciado>pendente',
      'pendente>em_analise',
      'em_analise>reprovado',
      'reprovado>em_analise',
      'em_analise>expirado',
      'expirado>em_analise',
    ]);
  });

  t.test('submission replay with the same key: one submission, one event, same body', async (t) => {
    const p = await h.createPlayer(t, scopes.aSandbox, { externalId: 'kyc-replay' });
    const key = newKey();
    const call = () => h.call('players.kyc.submit', scopes.aSandbox, { params: { playerId: p.id }, body: { documentType: 'rg', reference: 'once' }, key });
    const replies = await Promise.all([call(), call(), call(), call(), call()]);
    const first = okBody<any>(t, replies[0], 201);
    for (const { replayed: _, ...answer } of replies) t.same(answer, { ok: true, status: 201, body: first });
    t.equal(replies.filter((r) => !r.replayed).length, 1, 'one ran; the others are its answer given again');
    t.same(okBody(t, await call(), 201), first, 'later replay');
    const { c } = (await h.sql<{ c: string }>('select count(*) c from players.kyc_submissions where player_id = ?', [p.id]))[0]!;
    t.equal(c, '1');
    t.equal((await kycEventsOf(p.id)).length, 1);
  });

  t.test('concurrent submissions with different keys: every one stored, a single event', async (t) => {
    const p = await h.createPlayer(t, scopes.aSandbox, { externalId: 'kyc-concurrent' });
    const replies = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        h.call('players.kyc.submit', scopes.aSandbox, { params: { playerId: p.id }, body: { documentType: 'rg', reference: `c-${i}` }, key: newKey() }),
      ),
    );
    for (const r of replies) t.equal(r.ok && r.status, 201);
    const { c } = (await h.sql<{ c: string }>('select count(*) c from players.kyc_submissions where player_id = ?', [p.id]))[0]!;
    t.equal(c, '8');
    t.same(
      (await kycEventsOf(p.id)).map((e) => (e.event.data as any).status),
      ['em_analise'],
    );
  });

  t.test('check order: unknown player 404 before anything else; SANDBOX_ONLY in production', async (t) => {
    errorCode(
      t,
      await h.call('players.kyc.submit', scopes.aSandbox, { params: { playerId: 'plr_unknown' }, body: { documentType: 'rg', reference: 'x' }, key: newKey() }),
      'PLAYER_NOT_FOUND',
    );
    errorCode(t, await h.call('players.kyc.get', scopes.aSandbox, { params: { playerId: 'plr_unknown' } }), 'PLAYER_NOT_FOUND');
    errorCode(
      t,
      await h.call('players.kyc.decide', scopes.aSandbox, { params: { playerId: 'plr_unknown' }, body: { status: 'aprovado' } }),
      'PLAYER_NOT_FOUND',
    );
    const prod = await h.createPlayer(t, scopes.aProduction, { externalId: 'kyc-prod' });
    errorCode(t, await h.call('players.kyc.decide', scopes.aProduction, { params: { playerId: prod.id }, body: { status: 'aprovado' } }), 'SANDBOX_ONLY');
    const record = okBody<any>(t, await h.call('players.kyc.get', scopes.aProduction, { params: { playerId: prod.id } }), 200);
    t.equal(record.status, 'nao_iniciado', 'the refused decision changed nothing');
  });

  t.test('production events carry environment production', async (t) => {
    const p = await h.createPlayer(t, scopes.aProduction, { externalId: 'kyc-prod-event' });
    okBody(
      t,
      await h.call('players.kyc.submit', scopes.aProduction, { params: { playerId: p.id }, body: { documentType: 'rg', reference: 'x' }, key: newKey() }),
      201,
    );
    const [e] = await kycEventsOf(p.id);
    t.equal(e?.event.environment, 'production');
    t.equal(e?.subject, `${h.prefix}.events.production.kyc.status_changed`);
    t.equal(e?.brandId, 'brd_A_production');
  });
});
