// A player's standing changes only through its own flow (issue #41): our team's generic status
// change (players.admin.status) refuses to end a running self-exclusion or an impediment
// restriction, or to make a player `restrito`, with 409 STANDING_HAS_OWN_FLOW naming the flow;
// the check is made on the locked row, so a self-exclusion racing the change is never undone; a
// pause is no status and stays in force; every change it makes writes `player.status.changed`.
// (The sanctions freeze: services/compliance/test/screening/sanctions-freeze.test.ts.)
import t from 'tap';
import { PLAYER_STATE_SUBJECT } from '@bo/contracts';
import { setRuleClockOffset, waitFor } from '@bo/service-kit/testing';
import { playersServiceWith } from '../src/service.ts';
import { admin, brSpaPlayer, errorCode, internal, newKey, okBody, scopes, startPlayers } from './harness.ts';

const DAY = 86_400_000;

t.test('standing changes only through their flows', async (t) => {
  let now = Date.now();
  const service = playersServiceWith({ clock: () => new Date(now) });
  const h = await startPlayers(t, 'standing', service, { IMPEDIMENT_LOOP_MS: 50, RG_TERMS_INTERVAL_MS: 50 });
  t.teardown(() => setRuleClockOffset(0));
  const scope = scopes.aProduction;
  const setStatus = (id: string, status: string) => h.call('players.admin.status', admin, { params: { id }, body: { status } });
  const body = (reply: { ok: boolean; body?: unknown }) => {
    if (!reply.ok) throw new Error(JSON.stringify(reply));
    return reply.body as any;
  };
  const state = async (playerId: string) => body(await h.call(PLAYER_STATE_SUBJECT, internal, { body: { brandId: scope.brandId, playerId } }));
  const standing = async (id: string) => body(await h.call('players.admin.get', admin, { params: { id } })).standing;
  const selfExclude = (playerId: string, body: unknown) => h.call('players.rg.selfExclude', scope, { params: { playerId }, body, key: newKey() });
  const refusal = (reply: Awaited<ReturnType<typeof setStatus>>) => (reply.ok ? undefined : reply.error);

  t.test('nothing holds the status: any but restrito, each change a neutral player.status.changed', async (t) => {
    const p = await h.createPlayer(t, scope, { externalId: 'st-free', cpf: '390.533.447-05' });
    t.same(await standing(p.id), { heldBy: null, flow: null, statuses: ['ativo', 'suspenso', 'bloqueado', 'autoexcluido', 'encerrado'] });
    okBody(t, await setStatus(p.id, 'suspenso'), 200);
    okBody(t, await setStatus(p.id, 'ativo'), 200);
    okBody(t, await setStatus(p.id, 'ativo'), 200);
    const restricted = await setStatus(p.id, 'restrito');
    errorCode(t, restricted, 'STANDING_HAS_OWN_FLOW', 'restrito only through an impediment hit');
    t.match(refusal(restricted), { message: /POST \/admin\/impediments/, details: { heldBy: 'impediment', status: 'ativo' } });
    const events = (await h.events()).filter((e) => e.event.type === 'player.status.changed' && (e.event.data as any).playerId === p.id);
    t.same(
      events.map((e) => e.event.data),
      [
        { playerId: p.id, externalId: 'st-free', previousStatus: 'ativo', status: 'suspenso' },
        { playerId: p.id, externalId: 'st-free', previousStatus: 'suspenso', status: 'ativo' },
      ],
      'one event per change, the status only',
    );
  });

  t.test('an indefinite self-exclusion: refused until compliance lifts it', async (t) => {
    setRuleClockOffset(0);
    const p = await h.createPlayer(t, scope, { externalId: 'st-se', cpf: '111.444.777-35' });
    okBody(t, await selfExclude(p.id, { indefinite: true }), 200);
    for (const status of ['ativo', 'suspenso', 'encerrado']) {
      const refused = await setStatus(p.id, status);
      errorCode(t, refused, 'STANDING_HAS_OWN_FLOW', `autoexcluido → ${status}`);
      t.match(refusal(refused), { message: /self-exclusion\/lift/, details: { heldBy: 'self_exclusion', status: 'autoexcluido', liftableAt: String } });
    }
    t.match(await state(p.id), { status: 'autoexcluido', selfExcluded: true }, 'still self-excluded');
    t.match(await standing(p.id), { heldBy: 'self_exclusion', statuses: ['autoexcluido'] });
    const history = await h.sql("select kind from players.rg_history where player_id = ? and kind like 'self_exclusion%'", [p.id]);
    t.same(history, [{ kind: 'self_exclusion' }], 'nothing ended it');

    setRuleClockOffset(31 * DAY);
    okBody(t, await h.call('players.admin.liftSelfExclusion', admin, { params: { id: p.id }, body: { reason: 'reviewed with the player' } }), 200);
    setRuleClockOffset(0);
    t.match(await state(p.id), { status: 'ativo', selfExcluded: false }, 'lifted through its flow');
    t.match(okBody<any>(t, await setStatus(p.id, 'suspenso'), 200), { status: 'suspenso' }, 'then the generic change applies again');
  });

  t.test('a fixed term: refused, it ends by itself', async (t) => {
    setRuleClockOffset(0);
    const p = await h.createPlayer(t, scope, { externalId: 'st-term', cpf: '863.184.730-50' });
    const term = okBody<any>(t, await selfExclude(p.id, { months: 1 }), 200).selfExclusion;
    const refused = await setStatus(p.id, 'ativo');
    errorCode(t, refused, 'STANDING_HAS_OWN_FLOW');
    t.match(refusal(refused), { message: /ends by itself/, details: { heldBy: 'self_exclusion', until: term.until } });
    t.match(await state(p.id), { status: 'autoexcluido' });
  });

  t.test('a status change racing a self-exclusion never undoes it', async (t) => {
    setRuleClockOffset(0);
    for (let i = 0; i < 8; i++) {
      const p = await h.createPlayer(t, scope, { externalId: `st-race-${i}`, cpf: '529.982.247-25' });
      okBody(t, await setStatus(p.id, 'suspenso'), 200);
      await Promise.all([selfExclude(p.id, { indefinite: true }), setStatus(p.id, 'ativo')]);
      const [row] = await h.sql('select status, self_excluded_since is not null as excluded from players.players where id = ?', [p.id]);
      t.same(row, { status: 'autoexcluido', excluded: true }, `race ${i}: self-excluded`);
    }
  });

  t.test('a pause is no status: the generic change leaves it in force', async (t) => {
    setRuleClockOffset(0);
    const p = await h.createPlayer(t, scope, { externalId: 'st-pause', cpf: '390.533.447-05' });
    const until = new Date(Date.now() + 2 * DAY).toISOString();
    okBody(t, await h.call('players.rg.pause', scope, { params: { playerId: p.id }, body: { until }, key: newKey() }), 200);
    okBody(t, await setStatus(p.id, 'suspenso'), 200);
    okBody(t, await setStatus(p.id, 'ativo'), 200);
    t.match((await state(p.id)).rg, { pausedUntil: until }, 'still paused');
  });

  t.test('an impediment restriction: restrito and the closed player stay so', async (t) => {
    okBody(t, await h.call('players.admin.setCompliance', admin, { params: { id: scope.operatorId }, body: { profile: 'br-spa' } }), 200);
    const p = await h.createPlayer(t, scope, { externalId: 'st-imp', cpf: '714.602.380-01', limits: brSpaPlayer.limits });
    const added = await h.call('players.admin.impediments.add', admin, { body: { cpf: '71460238001', category: 'athlete', note: 'a club player' } });
    t.same(okBody<any>(t, added, 201).restricted, [p.id]);
    for (const status of ['ativo', 'suspenso']) {
      const refused = await setStatus(p.id, status);
      errorCode(t, refused, 'STANDING_HAS_OWN_FLOW', `restrito → ${status}`);
      t.match(refusal(refused), { message: /new registration/, details: { heldBy: 'impediment', status: 'restrito' } });
    }
    t.match(await standing(p.id), { heldBy: 'impediment', statuses: ['restrito'] });
    now += 3 * DAY;
    await waitFor(async () => (await h.sql('select status from players.players where id = ?', [p.id]))[0].status === 'encerrado', { what: 'closed' });
    errorCode(t, await setStatus(p.id, 'ativo'), 'STANDING_HAS_OWN_FLOW', 'encerrado after a hit → ativo');
    t.match(await state(p.id), { status: 'encerrado' });
  });
});
