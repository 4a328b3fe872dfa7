// Tenancy: a player of one brand is invisible to every other brand, including the other
// environment of the same operator, on every subject: 404 (or an empty list) like an unknown id.
import t from 'tap';
import { PLAYER_STATE_SUBJECT } from '@bo/contracts';
import { errorCode, internal, newKey, okBody, scopes, startPlayers } from './harness.ts';

t.test('brand isolation on every players subject', async (t) => {
  const h = await startPlayers(t, 'isolation');
  const owner = scopes.aSandbox;
  const p = await h.createPlayer(t, owner, { externalId: 'iso-1' });

  const strangers = { 'same operator, production': scopes.aProduction, 'other operator': scopes.bSandbox };
  for (const [who, scope] of Object.entries(strangers)) {
    t.test(who, async (t) => {
      t.same(okBody(t, await h.call('players.find', scope, { query: { externalId: 'iso-1' } }), 200), { data: [] }, 'find: empty');
      errorCode(t, await h.call('players.get', scope, { params: { playerId: p.id } }), 'PLAYER_NOT_FOUND', 'get: 404');
      errorCode(t, await h.call('players.kyc.get', scope, { params: { playerId: p.id } }), 'PLAYER_NOT_FOUND', 'kyc.get: 404');
      errorCode(
        t,
        await h.call('players.kyc.submit', scope, { params: { playerId: p.id }, body: { documentType: 'rg', reference: 'x' }, key: newKey() }),
        'PLAYER_NOT_FOUND',
        'kyc.submit: 404',
      );
      if (scope.environment === 'sandbox') {
        errorCode(
          t,
          await h.call('players.kyc.decide', scope, { params: { playerId: p.id }, body: { status: 'aprovado' } }),
          'PLAYER_NOT_FOUND',
          'kyc.decide: 404',
        );
      } else {
        errorCode(
          t,
          await h.call('players.kyc.decide', scope, { params: { playerId: p.id }, body: { status: 'aprovado' } }),
          'SANDBOX_ONLY',
          'kyc.decide in production: 403 first',
        );
      }
      t.same(
        okBody(t, await h.call(PLAYER_STATE_SUBJECT, internal, { body: { brandId: scope.brandId, playerId: p.id } }), 200),
        { exists: false, playerId: p.id },
        'state: does not exist',
      );
      // The same externalId is free in the stranger's brand.
      const own = await h.createPlayer(t, scope, { externalId: 'iso-1' });
      t.not(own.id, p.id);
      t.same(okBody(t, await h.call('players.find', scope, { query: { externalId: 'iso-1' } }), 200), { data: [own] }, 'find: only its own player');
    });
  }

  t.test('an approved player of another brand is 404, not 409 (existence is checked first)', async (t) => {
    okBody(t, await h.call('players.kyc.decide', owner, { params: { playerId: p.id }, body: { status: 'aprovado' } }), 200);
    errorCode(
      t,
      await h.call('players.kyc.submit', scopes.bSandbox, { params: { playerId: p.id }, body: { documentType: 'rg', reference: 'x' }, key: newKey() }),
      'PLAYER_NOT_FOUND',
    );
    errorCode(
      t,
      await h.call('players.kyc.submit', owner, { params: { playerId: p.id }, body: { documentType: 'rg', reference: 'x' }, key: newKey() }),
      'KYC_ALREADY_APPROVED',
    );
  });

  t.test('the owner still sees its player untouched by the strangers', async (t) => {
    const record = okBody<any>(t, await h.call('players.kyc.get', owner, { params: { playerId: p.id } }), 200);
    t.same(record.submissions, [], 'no stranger submission was stored');
    t.same(okBody(t, await h.call('players.find', owner, { query: { externalId: 'iso-1' } }), 200), { data: [{ ...p, kycStatus: 'aprovado' }] });
    t.same(okBody(t, await h.call('players.get', owner, { params: { playerId: p.id } }), 200), { ...p, kycStatus: 'aprovado' }, 'get: the player by id');
    errorCode(t, await h.call('players.get', owner, { params: { playerId: 'plr_unknown' } }), 'PLAYER_NOT_FOUND', 'get: an unknown id');
    const events = (await h.events()).filter((e) => (e.event.data as any).playerId === p.id);
    t.same(
      events.map((e) => (e.event.data as any).status),
      ['aprovado'],
      "only the owner's decision wrote an event",
    );
  });
});
