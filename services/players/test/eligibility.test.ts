// br-spa eligibility through NATS with the simulated SPA registry (issue 27, docs/eligibility.md):
// registration refused for an impeded CPF (neutral, only an audit row) and on an outage (503),
// one player per CPF per brand (races included), the login check once a day, the 15-day grace
// while the registry is down, a hit restricting the player, and nothing of it under `off`.
import t from 'tap';
import { ERROR_CATALOGUE, type OperatorScope } from '@bo/contracts';
import { playersServiceWith } from '../src/service.ts';
import type { Eligibility } from '../src/impediments/index.ts';
import { admin, brSpaPlayer, errorCode, internal, newKey, okBody, scopes, startPlayers } from './harness.ts';

const DAY = 86_400_000;
const IMPEDED_CPF = '111.444.777-35';
const OTHER_CPF = '390.533.447-05';

t.test('br-spa eligibility', async (t) => {
  let now = Date.now();
  let elig: Eligibility | undefined;
  const service = playersServiceWith({ clock: () => new Date(now), onSetup: (e) => (elig = e) });
  // Loops parked: this file drives the checks; closing and sweeps have their own tests.
  const h = await startPlayers(t, 'elig', service, { IMPEDIMENT_LOOP_MS: 3_600_000 });
  const sim = elig!.simulator;
  const sandbox = scopes.aSandbox;
  const checks = async (cpf: string) =>
    h.sql<{ moment: string; outcome: string; player_id: string | null }>(
      'select moment, outcome, player_id from players.impediment_checks where cpf = ? order by id',
      [cpf.replace(/\D/g, '')],
    );
  const register = (scope: OperatorScope, overrides: Partial<typeof brSpaPlayer>) =>
    h.call('players.create', scope, { body: { ...brSpaPlayer, ...overrides }, key: newKey() });
  const login = (playerId: string) => h.call('players.logins.report', sandbox, { params: { playerId } });

  t.test('profile off: no check, a CPF may register twice, logins are allowed', async (t) => {
    await h.call('players.sandbox.impediments.add', scopes.bSandbox, { body: { cpf: IMPEDED_CPF, reason: 'social_program' } });
    const a = okBody<any>(t, await register(scopes.bSandbox, { externalId: 'off-1', cpf: IMPEDED_CPF }), 201);
    okBody(t, await register(scopes.bSandbox, { externalId: 'off-2', cpf: IMPEDED_CPF }), 201);
    t.same(okBody(t, await h.call('players.logins.report', scopes.bSandbox, { params: { playerId: a.id } }), 200), { allowed: true });
    t.same(await checks(IMPEDED_CPF), [], 'nobody asked the registry');
  });

  okBody(
    t,
    await h.call('players.admin.setCompliance', admin, {
      params: { id: sandbox.operatorId },
      body: { profile: 'br-spa', reason: 'the operator is licensed in Brazil' },
    }),
    200,
  );

  t.test('registration of an impeded CPF: 403 neutral, nothing stored but the audit row', async (t) => {
    const added = okBody<any>(
      t,
      await h.call('players.sandbox.impediments.add', sandbox, { body: { cpf: IMPEDED_CPF, reason: 'central_self_exclusion' } }),
      201,
    );
    t.same(added, { cpf: '11144477735', reason: 'central_self_exclusion' });
    const refused = await register(sandbox, { externalId: 'imp-1', cpf: IMPEDED_CPF });
    errorCode(t, refused, 'PLAYER_IMPEDED');
    t.equal(refused.ok ? '' : refused.error.message, ERROR_CATALOGUE.PLAYER_IMPEDED.message);
    t.notMatch(JSON.stringify(refused), /self|exclus|social|program|SIGAP|SPA/i, 'the refusal does not say which list matched');
    t.same(await h.sql('select id from players.players where brand_id = ? and cpf = ?', [sandbox.brandId, '11144477735']), [], 'no player stored');
    t.same(await checks(IMPEDED_CPF), [{ moment: 'registration', outcome: 'impeded', player_id: null }], 'the audit row');

    const removed = okBody<any>(t, await h.call('players.sandbox.impediments.remove', sandbox, { params: { cpf: '111.444.777-35' } }), 200);
    t.same(removed, { cpf: '11144477735', removed: true });
    const player = okBody<any>(t, await register(sandbox, { externalId: 'imp-1', cpf: IMPEDED_CPF }), 201);
    t.equal(player.status, 'ativo', 'off the list: registered');
    t.same(
      (await checks(IMPEDED_CPF)).at(-1),
      { moment: 'registration', outcome: 'not_impeded', player_id: player.id },
      "the clean check's row commits with the player and names it",
    );
  });

  t.test('registry down at registration: 503 IMPEDIMENT_CHECK_UNAVAILABLE, nothing stored', async (t) => {
    sim.control({ down: true });
    t.teardown(() => sim.control({ down: false }));
    const refused = await register(sandbox, { externalId: 'down-1', cpf: OTHER_CPF });
    errorCode(t, refused, 'IMPEDIMENT_CHECK_UNAVAILABLE');
    t.equal(ERROR_CATALOGUE.IMPEDIMENT_CHECK_UNAVAILABLE.status, 503);
    t.same(await h.sql('select id from players.players where external_id = ?', ['down-1']), []);
    t.same((await checks(OTHER_CPF)).at(-1), { moment: 'registration', outcome: 'unavailable', player_id: null });
  });

  t.test('one player per CPF per brand: 409 with the holder, also when two race', async (t) => {
    const first = okBody<any>(t, await register(sandbox, { externalId: 'cpf-1', cpf: OTHER_CPF }), 201);
    const again = await register(sandbox, { externalId: 'cpf-2', cpf: OTHER_CPF });
    errorCode(t, again, 'PLAYER_CPF_EXISTS');
    t.same(again.ok ? undefined : again.error.details, { playerId: first.id });
    okBody(t, await register(scopes.aProduction, { externalId: 'cpf-1', cpf: OTHER_CPF }), 201);

    const racing = '714.602.380-01';
    const replies = await Promise.all(Array.from({ length: 6 }, (_, i) => register(sandbox, { externalId: `race-${i}`, cpf: racing })));
    t.equal(replies.filter((r) => r.ok && r.status === 201).length, 1, 'one registration wins');
    t.equal(replies.filter((r) => !r.ok && r.error.code === 'PLAYER_CPF_EXISTS').length, 5, 'the others are told the CPF exists');
    const winner = replies.find((r) => r.ok) as { body: { id: string } } | undefined;
    t.same(
      [...new Set(replies.flatMap((r) => (r.ok ? [] : [JSON.stringify(r.error.details)])))],
      [JSON.stringify({ playerId: winner?.body.id })],
      'each names the winner, whether it lost at the look or at the unique index',
    );
  });

  t.test('logins: the first of the day asks, the rest do not; an outage is let through for 15 days only', async (t) => {
    const cpf = '153.509.460-56';
    const player = okBody<any>(t, await register(sandbox, { externalId: 'login-1', cpf }), 201);
    t.same(okBody(t, await login(player.id), 200), { allowed: true });
    t.equal((await checks(cpf)).length, 1, 'checked at registration today: the login asks nobody');

    now += DAY;
    t.same(okBody(t, await login(player.id), 200), { allowed: true });
    okBody(t, await login(player.id), 200);
    t.same(
      (await checks(cpf)).map((c) => `${c.moment}:${c.outcome}`),
      ['registration:not_impeded', 'login:not_impeded'],
      'one check for the new day',
    );
    const askedBefore = sim.asked;
    okBody(t, await h.call('players.activity.check', internal, { body: { brandId: sandbox.brandId, playerId: player.id, activity: 'deposit' } }), 200);
    t.equal(sim.asked, askedBefore, 'a deposit after the login asks nobody');

    sim.control({ down: true });
    t.teardown(() => sim.control({ down: false }));
    now += 14 * DAY;
    t.same(okBody(t, await login(player.id), 200), { allowed: true }, 'down, last success 14 days ago: goes on');
    now += DAY;
    const refused = await login(player.id);
    errorCode(t, refused, 'IMPEDIMENT_CHECK_UNAVAILABLE', 'down, last success 15 days ago: 503');
    const deposit = await h.call('players.activity.check', internal, { body: { brandId: sandbox.brandId, playerId: player.id, activity: 'deposit' } });
    errorCode(t, deposit, 'IMPEDIMENT_CHECK_UNAVAILABLE', 'the first deposit of the day too');
    sim.control({ down: false });
    okBody(t, await login(player.id), 200);
    t.same(
      (await checks(cpf)).map((c) => `${c.moment}:${c.outcome}`),
      ['registration:not_impeded', 'login:not_impeded', 'login:unavailable', 'login:unavailable', 'deposit:unavailable', 'login:not_impeded'],
    );
  });

  t.test('a hit on an existing player: restrito, player.restricted, refused from then on', async (t) => {
    const cpf = '863.184.730-50';
    const player = okBody<any>(t, await register(sandbox, { externalId: 'hit-1', cpf }), 201);
    okBody(t, await h.call('players.sandbox.impediments.add', sandbox, { body: { cpf, reason: 'social_program' } }), 201);
    now += DAY;
    const first = await h.call('players.activity.check', internal, { body: { brandId: sandbox.brandId, playerId: player.id, activity: 'game_session' } });
    errorCode(t, first, 'PLAYER_IMPEDED', 'a first game session of the day with no login runs the check');
    const [row] = await h.sql('select status, restricted_at from players.players where id = ?', [player.id]);
    t.equal(row.status, 'restrito');
    t.equal(new Date(row.restricted_at).getTime(), now);
    const state = okBody<any>(t, await h.call('players.state', internal, { body: { brandId: sandbox.brandId, playerId: player.id } }), 200);
    t.match(state, { status: 'restrito', compliance: 'br-spa', cpf: '86318473050', restrictedAt: new Date(now).toISOString() });
    t.equal(state.withdrawalsUntil, new Date(now + 2 * DAY).toISOString(), 'withdrawals open for 2 days');
    const asked = sim.asked;
    errorCode(t, await login(player.id), 'PLAYER_IMPEDED', 'a restricted player is refused without asking again');
    t.equal(sim.asked, asked);
    const events = (await h.events()).filter((e) => e.event.type === 'player.restricted');
    t.same(
      events.map((e) => e.event.data),
      [{ playerId: player.id, externalId: 'hit-1', reason: 'impeded', withdrawalsUntil: new Date(now + 2 * DAY).toISOString() }],
      'reason code only',
    );
  });

  t.test('another operator or brand: not found', async (t) => {
    const player = okBody<any>(t, await register(sandbox, { externalId: 'scope-1', cpf: '529.982.247-25' }), 201);
    errorCode(t, await h.call('players.logins.report', scopes.aProduction, { params: { playerId: player.id } }), 'PLAYER_NOT_FOUND');
    errorCode(t, await h.call('players.logins.report', scopes.bSandbox, { params: { playerId: player.id } }), 'PLAYER_NOT_FOUND');
  });
});
