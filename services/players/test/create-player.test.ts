// players.create and players.find: the Player shape, externalId uniqueness per brand (races
// included), idempotent replays, CPF stored as digits.
import t from 'tap';
import { Value } from '@sinclair/typebox/value';
import { PlayerSchema } from '@bo/contracts';
import { errorCode, newKey, okBody, scopes, startPlayers, validPlayer } from './harness.ts';

const PLAYER_KEYS = ['birthDate', 'cpf', 'createdAt', 'currency', 'email', 'externalId', 'id', 'kycStatus', 'marketing', 'name', 'phone', 'status'];

t.test('players.create and players.find', async (t) => {
  const h = await startPlayers(t, 'create');

  t.test('201 with exactly the Player fields; new player ativo / nao_iniciado; cpf as digits', async (t) => {
    const before = Date.now();
    const player = okBody<any>(t, await h.call('players.create', scopes.aSandbox, { body: validPlayer, key: newKey() }), 201);
    t.same(Object.keys(player).sort(), PLAYER_KEYS);
    t.ok(Value.Check(PlayerSchema, player), 'matches the contract schema');
    t.match(player.id, /^plr_[0-9a-f]{32}$/);
    t.same(
      { ...player, id: undefined, createdAt: undefined },
      {
        id: undefined,
        createdAt: undefined,
        externalId: 'ext-1',
        name: 'Maria Silva',
        email: 'maria@example.com',
        cpf: '52998224725',
        phone: '+5511987654321',
        birthDate: '1990-05-17',
        status: 'ativo',
        kycStatus: 'nao_iniciado',
        currency: 'BRL',
        marketing: { consent: false, allowed: false, blockedBy: null, consentChangedAt: null },
      },
    );
    t.match(player.createdAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    t.ok(Date.parse(player.createdAt) >= before - 1000);
    const [row] = await h.sql('select cpf, operator_id, brand_id, environment, currency, birth_date::text as birth_date from players.players where id = ?', [
      player.id,
    ]);
    t.same(row, { cpf: '52998224725', operator_id: 'op_A', brand_id: 'brd_A_sandbox', environment: 'sandbox', currency: 'BRL', birth_date: '1990-05-17' });
  });

  t.test('phone is optional and comes back null; currency is the brand currency', async (t) => {
    const { phone: _phone, ...noPhone } = validPlayer;
    const player = okBody<any>(t, await h.call('players.create', scopes.bSandbox, { body: { ...noPhone, externalId: 'no-phone' }, key: newKey() }), 201);
    t.equal(player.phone, null);
    t.equal(player.currency, 'USD');
    t.same(Object.keys(player).sort(), PLAYER_KEYS);
  });

  t.test('players.find returns the player of the brand, or an empty list', async (t) => {
    const created = await h.createPlayer(t, scopes.aSandbox, { externalId: 'find-me' });
    t.same(okBody(t, await h.call('players.find', scopes.aSandbox, { query: { externalId: 'find-me' } }), 200), { data: [created] });
    t.same(okBody(t, await h.call('players.find', scopes.aSandbox, { query: { externalId: 'nobody' } }), 200), { data: [] });
  });

  t.test('duplicate externalId in the same brand: 409; in another brand or environment: 201', async (t) => {
    const first = await h.createPlayer(t, scopes.aSandbox, { externalId: 'dup-1' });
    errorCode(
      t,
      await h.call('players.create', scopes.aSandbox, { body: { ...validPlayer, externalId: 'dup-1', name: 'Other' }, key: newKey() }),
      'PLAYER_ALREADY_EXISTS',
    );
    const inProduction = await h.createPlayer(t, scopes.aProduction, { externalId: 'dup-1' });
    const otherOperator = await h.createPlayer(t, scopes.bSandbox, { externalId: 'dup-1' });
    t.not(inProduction.id, first.id);
    t.not(otherOperator.id, first.id);
    const rows = await h.sql<{ brand_id: string }>("select brand_id from players.players where external_id = 'dup-1' order by brand_id");
    t.same(
      rows.map((r) => r.brand_id),
      ['brd_A_production', 'brd_A_sandbox', 'brd_B_sandbox'],
    );
  });

  t.test('ten racing creates with different keys and one externalId: exactly one 201', async (t) => {
    const replies = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        h.call('players.create', scopes.aSandbox, { body: { ...validPlayer, externalId: 'race-1', name: `Racer ${i}` }, key: newKey() }),
      ),
    );
    const created = replies.filter((r) => r.ok && r.status === 201);
    const conflicts = replies.filter((r) => !r.ok && r.error.code === 'PLAYER_ALREADY_EXISTS');
    t.equal(created.length, 1, 'one created');
    t.equal(conflicts.length, 9, 'nine 409 PLAYER_ALREADY_EXISTS (none a 500)');
    const { c } = (await h.sql<{ c: string }>("select count(*) c from players.players where external_id = 'race-1'"))[0]!;
    t.equal(c, '1');
  });

  t.test('a replay with the same key returns the same player and writes no second row', async (t) => {
    const key = newKey();
    const body = { ...validPlayer, externalId: 'replay-1' };
    const first = okBody<any>(t, await h.call('players.create', scopes.aSandbox, { body, key }), 201);
    const again = okBody<any>(t, await h.call('players.create', scopes.aSandbox, { body, key }), 201);
    t.same(again, first);
    const { c } = (await h.sql<{ c: string }>("select count(*) c from players.players where external_id = 'replay-1'"))[0]!;
    t.equal(c, '1');
  });

  t.test('ten racing requests with ONE key: all get the same 201, one row', async (t) => {
    const key = newKey();
    const body = { ...validPlayer, externalId: 'replay-race' };
    const replies = await Promise.all(Array.from({ length: 10 }, () => h.call('players.create', scopes.aSandbox, { body, key })));
    const first = okBody<any>(t, replies[0]!, 201);
    for (const { replayed: _, ...answer } of replies) t.same(answer, { ok: true, status: 201, body: first });
    t.equal(replies.filter((r) => !r.replayed).length, 1, 'one ran; the others are its answer given again');
    const { c } = (await h.sql<{ c: string }>("select count(*) c from players.players where external_id = 'replay-race'"))[0]!;
    t.equal(c, '1');
  });

  t.test('the same key in another operator or environment is another request', async (t) => {
    const key = newKey();
    const a = okBody<any>(t, await h.call('players.create', scopes.aSandbox, { body: { ...validPlayer, externalId: 'k-shared' }, key }), 201);
    const b = okBody<any>(t, await h.call('players.create', scopes.aProduction, { body: { ...validPlayer, externalId: 'k-shared' }, key }), 201);
    const c = okBody<any>(t, await h.call('players.create', scopes.bSandbox, { body: { ...validPlayer, externalId: 'k-shared' }, key }), 201);
    t.equal(new Set([a.id, b.id, c.id]).size, 3);
  });

  t.test('the service validates the body itself (422 with every issue)', async (t) => {
    const reply = await h.call('players.create', scopes.aSandbox, { body: { ...validPlayer, cpf: '11111111111', birthDate: '2001-02-29' }, key: newKey() });
    errorCode(t, reply, 'VALIDATION_ERROR');
    const issues = !reply.ok ? (reply.error.details as any).issues.map((i: any) => i.path).sort() : [];
    t.same(issues, ['/birthDate', '/cpf']);
    t.equal(!reply.ok && (reply.error.details as any).in, 'body');
  });

  t.test('public operations refuse a non-operator scope', async (t) => {
    errorCode(t, await h.call('players.create', { kind: 'admin', actor: 'x' }, { body: validPlayer, key: newKey() }), 'UNAUTHORIZED');
  });
});
