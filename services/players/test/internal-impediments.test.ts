// Our internal impediments registry (Lei 14.790/2023 art. 26, docs/eligibility.md) through NATS as the
// gateway calls it: our team puts, lists, refiles and removes entries (each writing its audit
// row); a listed CPF is refused at registration with the same neutral 403 as an SPA hit, also while
// the SPA registry is down; an existing player's first login of the day and the sweep restrict a
// listed player, the SPA not asked; putting a CPF on the list restricts its production br-spa players
// at once; sandbox brands and operators under `off` never consult it; removing an entry lifts nothing.
import t, { type Test } from 'tap';
import { ERROR_CATALOGUE, type OperatorScope } from '@bo/contracts';
import { playersServiceWith } from '../src/service.ts';
import type { Eligibility } from '../src/impediments/index.ts';
import { sweepBatch } from '../src/impediments/flows/sweep.ts';
import { admin, brSpaPlayer, setComplianceProfile, errorCode, newKey, okBody, scopes, startPlayers } from './harness.ts';

const DAY = 86_400_000;
/** An operator whose profile the tests switch on after our team filed its players' CPFs. */
const late: OperatorScope = { kind: 'operator', operatorId: 'op_C', brandId: 'brd_C_production', environment: 'production', currency: 'BRL' };

t.test('the internal impediments registry', async (t) => {
  let now = Date.parse('2026-11-20T15:00:00Z');
  let elig: Eligibility | undefined;
  // Loops parked: this file runs the sweep's batches itself.
  const h = await startPlayers(t, 'intimp', playersServiceWith({ clock: () => new Date(now), onSetup: (e) => (elig = e) }), { IMPEDIMENT_LOOP_MS: 3_600_000 });
  const sim = elig!.simulator;
  const live = scopes.aProduction;
  const put = (cpf: string, category: string, note = 'filed by the test') =>
    h.call('players.admin.impediments.add', admin, { body: { cpf, category, note }, key: newKey() });
  const list = (query: Record<string, unknown> = {}) => h.call('players.admin.impediments.list', admin, { query });
  const remove = (cpf: string) => h.call('players.admin.impediments.remove', admin, { params: { cpf }, key: newKey() });
  const register = (scope: OperatorScope, externalId: string, cpf: string) =>
    h.call('players.create', scope, { body: { ...brSpaPlayer, externalId, cpf }, key: newKey() });
  const checks = (cpf: string) =>
    h.sql<{ moment: string; outcome: string; reasons: string | null; player_id: string | null }>(
      'select moment, outcome, reasons, player_id from players.impediment_checks where cpf = ? order by id',
      [cpf.replace(/\D/g, '')],
    );
  const statusOf = async (id: string) => (await h.sql<{ status: string }>('select status from players.players where id = ?', [id]))[0]!.status;
  const restrictedEvents = async () => (await h.events()).filter((e) => e.event.type === 'player.restricted').map((e) => (e.event.data as any).playerId);
  // Turning br-spa off takes two people (issue #56): the helper requests it and confirms it as another.
  const setProfile = async (t: Test, operatorId: string, profile: 'off' | 'br-spa') => okBody(t, await setComplianceProfile(h, operatorId, profile), 200);

  await setProfile(t, 'op_A', 'br-spa');

  t.test('our team puts, lists, refiles and removes entries; each writes its audit row', async (t) => {
    const first = await put('111.444.777-35', 'referee', 'Referee of the state league (federation list 2026)');
    const entry = {
      cpf: '11144477735',
      category: 'referee',
      note: 'Referee of the state league (federation list 2026)',
      addedBy: 'compliance@team',
      addedAt: new Date(now).toISOString(),
    };
    t.same(okBody(t, first, 201), { entry, restricted: [] });
    t.same(await h.lastAudit('impediment:11144477735'), { target: 'impediment:11144477735', before: null, after: { ...entry, restricted: [] } });
    now += 1000;
    okBody(t, await put('390.533.447-05', 'operator_staff', 'Head of trading at the operator'), 201);
    now += 1000;
    okBody(t, await put('153.509.460-56', 'relative', "Brother of the operator's director"), 201);

    for (const [body, path] of [
      [{ cpf: '111.444.777-35', category: 'boss', note: 'x' }, '/category'],
      [{ cpf: '111.444.777-36', category: 'athlete', note: 'x' }, '/cpf'],
      [{ cpf: '111.444.777-35', category: 'athlete', note: '' }, '/note'],
    ] as const) {
      const refused = await h.call('players.admin.impediments.add', admin, { body, key: newKey() });
      errorCode(t, refused, 'VALIDATION_ERROR');
      t.equal(refused.ok ? '' : (refused.error.details as any).issues[0].path, path, `${path} is checked`);
    }

    const page1 = okBody<any>(t, await list({ limit: 2 }), 200);
    t.same(
      page1.data.map((e: any) => e.cpf),
      ['15350946056', '39053344705'],
      'newest first',
    );
    const page2 = okBody<any>(t, await list({ limit: 2, cursor: page1.nextCursor }), 200);
    t.same([page2.data.map((e: any) => e.cpf), page2.nextCursor], [['11144477735'], null], 'then the rest');
    t.same(okBody<any>(t, await list({ cpf: '111.444.777-35' }), 200).data, [entry], 'one CPF, punctuation ignored');
    errorCode(t, await list({ cpf: '390.533.447-05', cursor: page1.nextCursor }), 'VALIDATION_ERROR', "a cursor of another filter's list is refused");

    now += 1000;
    const refiled = await put('11144477735', 'athlete', 'Plays in the state league');
    const after = { ...entry, category: 'athlete', note: 'Plays in the state league', addedAt: new Date(now).toISOString() };
    t.same(okBody(t, refiled, 201).entry, after, 'put again: category and note replaced');
    t.same(
      await h.lastAudit('impediment:11144477735'),
      { target: 'impediment:11144477735', before: entry, after: { ...after, restricted: [] } },
      'before and after',
    );

    const removed = await remove('153.509.460-56');
    t.same(okBody(t, removed, 200), { cpf: '15350946056', removed: true });
    t.match(await h.lastAudit('impediment:15350946056'), { target: 'impediment:15350946056', before: { category: 'relative' }, after: null });
    t.same(okBody(t, await remove('153.509.460-56'), 200), { cpf: '15350946056', removed: false }, 'not there: nothing removed');
    t.same(
      okBody<any>(t, await list(), 200).data.map((e: any) => e.cpf),
      ['11144477735', '39053344705'],
    );
    errorCode(t, await h.call('players.admin.impediments.list', live, {}), 'UNAUTHORIZED', 'never with an operator scope');
  });

  t.test('registration of a listed CPF: 403 as an SPA hit, neutral, also with the SPA down; sandbox brands do not consult the list', async (t) => {
    const asked = sim.asked;
    const refused = await register(live, 'int-1', '111.444.777-35');
    errorCode(t, refused, 'PLAYER_IMPEDED');
    t.equal(refused.ok ? '' : refused.error.message, ERROR_CATALOGUE.PLAYER_IMPEDED.message);
    t.notMatch(JSON.stringify(refused), /internal|registry|athlete|list|categor/i, 'the refusal does not say which list matched');
    t.equal(sim.asked, asked, 'the SPA registry is not asked for a listed CPF');
    t.same(await h.sql('select id from players.players where cpf = ?', ['11144477735']), [], 'no player stored');
    t.same(await checks('11144477735'), [{ moment: 'registration', outcome: 'impeded', reasons: 'internal_registry', player_id: null }], 'the audit row');

    sim.control({ down: true });
    t.teardown(() => sim.control({ down: false }));
    errorCode(t, await register(live, 'int-2', '111.444.777-35'), 'PLAYER_IMPEDED', 'the SPA down: the internal list still refuses');
    errorCode(t, await register(live, 'int-3', '529.982.247-25'), 'IMPEDIMENT_CHECK_UNAVAILABLE', 'an unlisted CPF waits for the SPA');
    sim.control({ down: false });

    const sandbox = okBody<any>(t, await register(scopes.aSandbox, 'int-sbx', '111.444.777-35'), 201);
    t.equal(sandbox.status, 'ativo', 'a sandbox brand asks the simulator only');
  });

  t.test('putting a CPF on the list restricts its production br-spa players at once', async (t) => {
    const cpf = '863.184.730-50';
    const prod = okBody<any>(t, await register(live, 'put-1', cpf), 201);
    const sbx = okBody<any>(t, await register(scopes.aSandbox, 'put-1', cpf), 201);
    const elsewhere = okBody<any>(t, await register(late, 'put-1', cpf), 201);
    now += 1000;
    const filed = okBody<any>(t, await put(cpf, 'coach', 'Coach of a first-division club'), 201);
    t.same(filed.restricted, [prod.id], 'only the production player of the br-spa operator');
    t.equal(await statusOf(prod.id), 'restrito');
    t.equal(await statusOf(sbx.id), 'ativo', 'the sandbox player is untouched');
    t.equal(await statusOf(elsewhere.id), 'ativo', "an `off` operator's player is untouched");
    t.same((await checks(cpf)).at(-1), { moment: 'internal_listing', outcome: 'impeded', reasons: 'internal_registry', player_id: prod.id });
    const state = okBody<any>(
      t,
      await h.call('players.state', { kind: 'internal', service: 'wallet' }, { body: { brandId: live.brandId, playerId: prod.id } }),
      200,
    );
    t.match(state, { status: 'restrito', restrictedAt: new Date(now).toISOString() });
    t.ok((await restrictedEvents()).includes(prod.id), 'player.restricted');
    t.same(okBody<any>(t, await put(cpf, 'coach', 'Again'), 201).restricted, [], 'put again: already restricted');
    okBody(t, await remove(cpf), 200);
    t.equal(await statusOf(prod.id), 'restrito', 'a removal lifts nothing');
  });

  t.test("an existing player's first login of the day: restricted, the SPA not asked, also while it is down", async (t) => {
    // Filed while the operator was `off`: nobody restricted then; br-spa switched on afterwards.
    const one = okBody<any>(t, await register(late, 'login-1', '714.602.380-01'), 201);
    const two = okBody<any>(t, await register(late, 'login-2', '703.982.952-55'), 201);
    t.same(okBody<any>(t, await put('714.602.380-01', 'sports_agent', "Agent of the club's players"), 201).restricted, []);
    t.same(okBody<any>(t, await put('703.982.952-55', 'system_access', 'Contractor with access to the platform'), 201).restricted, []);
    await setProfile(t, 'op_C', 'br-spa');
    now += DAY;
    const asked = sim.asked;
    const login = await h.call('players.logins.report', late, { params: { playerId: one.id } });
    errorCode(t, login, 'PLAYER_IMPEDED');
    t.notMatch(JSON.stringify(login), /internal|registry|agent|list/i, 'neutral');
    t.equal(await statusOf(one.id), 'restrito');
    t.same((await checks('714.602.380-01')).at(-1), { moment: 'login', outcome: 'impeded', reasons: 'internal_registry', player_id: one.id });

    sim.control({ down: true });
    t.teardown(() => sim.control({ down: false }));
    const deposit = await h.call(
      'players.activity.check',
      { kind: 'internal', service: 'payments' },
      {
        body: { brandId: late.brandId, playerId: two.id, activity: 'deposit' },
      },
    );
    errorCode(t, deposit, 'PLAYER_IMPEDED', 'the SPA down, never checked: the internal list still answers (no 503)');
    t.equal(await statusOf(two.id), 'restrito');
    t.equal(sim.asked, asked, 'the SPA registry was not asked');
    const events = await restrictedEvents();
    t.ok(events.includes(one.id) && events.includes(two.id), 'player.restricted for both');
  });

  t.test('the sweep restricts a listed player without asking the SPA, also while it is down', async (t) => {
    await setProfile(t, 'op_C', 'off');
    const listed = okBody<any>(t, await register(late, 'sweep-1', '946.315.620-80'), 201);
    const free = okBody<any>(t, await register(late, 'sweep-2', '288.624.870-37'), 201);
    okBody(t, await put('946.315.620-80', 'court_or_administrative_order', 'Barred by a court order (case 0001234-56.2026)'), 201);
    await setProfile(t, 'op_C', 'br-spa');
    // Every sweep so far done, and the next one due: the players above were never checked.
    now += 16 * DAY;
    sim.control({ down: true });
    t.teardown(() => sim.control({ down: false }));
    while (await sweepBatch(h.svc, elig!));
    t.equal(await statusOf(listed.id), 'restrito', 'the listed player is restricted');
    t.equal(await statusOf(free.id), 'ativo', 'the other waits for the SPA');
    t.same(await checks('946.315.620-80'), [{ moment: 'sweep', outcome: 'impeded', reasons: 'internal_registry', player_id: listed.id }]);
    t.same(
      (await checks('288.624.870-37')).map((c) => c.outcome),
      ['unavailable'],
    );
    sim.control({ down: false });
    while (await sweepBatch(h.svc, elig!));
    t.same(
      (await checks('288.624.870-37')).map((c) => c.outcome),
      ['unavailable', 'not_impeded'],
      'asked again once the SPA answers',
    );
    t.equal((await checks('946.315.620-80')).length, 1, 'the restricted player is not asked again');
    t.ok((await restrictedEvents()).includes(listed.id), 'player.restricted');
  });
});
