// A player's standing changes only through its own flow (issues #41, #56): our team's generic status
// change (players.admin.status) refuses to end a running self-exclusion or an impediment
// restriction, or to make a player `restrito` or `autoexcluido`, with 409 STANDING_HAS_OWN_FLOW
// naming the flow; the check is made on the locked row, so a self-exclusion racing the change is
// never undone; a pause is no status and stays in force; every change it makes writes
// `player.status.changed`. The older limits form (players.admin.limits) may start or lengthen a
// self-exclusion, as a real one with its history naming the person, never end or shorten one; a
// term's end names the rule; a self-exclusion never ends an impediment restriction or a freeze. A
// self-exclusion keeps the status it replaced (our team's suspenso or bloqueado) and its end (the
// term's, or compliance's lift) gives it back, never ativo in its place; a closed account stays closed
// and is not reopened while one runs; a term that runs out under a freeze leaves the earlier status for
// the dismissal; migration 0018 finds the kept status of running ones in the status history.
// (The sanctions freeze's case: services/compliance/test/screening/sanctions-freeze.test.ts.)
import t from 'tap';
import { PLAYER_STATE_SUBJECT } from '@bo/contracts';
import { setRuleClockOffset, waitFor } from '@bo/service-kit/testing';
import { playersServiceWith } from '../src/service.ts';
import { RECORD_HAND_SET_SELF_EXCLUSIONS, RECORD_STATUS_BEFORE_SELF_EXCLUSION } from '../src/store/migrations.ts';
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
  const limits = (id: string, selfExcludedUntil: string | null, dailyDepositLimit: string | null = null) =>
    h.call('players.admin.limits', admin, { params: { id }, body: { dailyDepositLimit, selfExcludedUntil } });
  const isoSql = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  /** The player's status and self-exclusion as stored (times as ISO 8601, as the API gives them). */
  const row = async (id: string) =>
    (
      await h.sql(
        `select status, ${isoSql('self_excluded_since')} as since, ${isoSql('self_excluded_until')} as until, frozen_at is not null as frozen from players.players where id = ?`,
        [id],
      )
    )[0];
  const seHistory = (id: string) =>
    h.sql("select kind, old_value, new_value, by, actor from players.rg_history where player_id = ? and kind like 'self_exclusion%' order by id", [id]);
  const depositPerDay = async (id: string) => body(await h.call('players.admin.get', admin, { params: { id } })).limits.dailyDepositLimit;
  const seEvents = async (id: string) =>
    (await h.events()).filter((e) => e.event.type.startsWith('player.self_exclu') && (e.event.data as any).playerId === id).map((e) => e.event);
  const iso = (ms: number) => new Date(ms).toISOString();
  /** The data of the player's `player.self_exclusion.ended` events, as the webhooks service receives them. */
  const endedEvents = async (id: string) => (await seEvents(id)).filter((e) => e.type === 'player.self_exclusion.ended').map((e) => e.data);

  t.test('nothing holds the status: any but restrito and autoexcluido, each change a neutral player.status.changed', async (t) => {
    const p = await h.createPlayer(t, scope, { externalId: 'st-free', cpf: '390.533.447-05' });
    t.same(await standing(p.id), { heldBy: null, flow: null, statuses: ['ativo', 'suspenso', 'bloqueado', 'encerrado'] });
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
    okBody(t, await limits(p.id, null, '80.00'), 200);
    t.match((await state(p.id)).rg, { pausedUntil: until }, 'the older limits form leaves it in force too');
  });

  t.test('the older limits form never ends or shortens an indefinite self-exclusion', async (t) => {
    setRuleClockOffset(0);
    const p = await h.createPlayer(t, scope, { externalId: 'st-lf-ind', cpf: '111.444.777-35' });
    okBody(t, await selfExclude(p.id, { indefinite: true }), 200);
    const before = await row(p.id);
    for (const [what, until] of [
      ['a past date', iso(Date.now() - DAY)],
      ['day 0', iso(Date.now())],
      ['a date ahead (a term in place of no end)', iso(Date.now() + 60 * DAY)],
    ] as const) {
      const refused = await limits(p.id, until, '50.00');
      errorCode(t, refused, 'STANDING_HAS_OWN_FLOW', `${what}: refused`);
      t.match(refusal(refused), { message: /self-exclusion\/lift/, details: { heldBy: 'self_exclusion', liftableAt: String } }, `${what}: naming the lift`);
    }
    t.same(await row(p.id), before, 'nothing written');
    t.equal(await depositPerDay(p.id), null, 'not even the deposit limit of a refused request');
    t.same(
      okBody(t, await limits(p.id, null, '50.00'), 200),
      { playerId: p.id, dailyDepositLimit: '50.00', selfExcludedUntil: null },
      'an empty date keeps it: the rest of the form applies',
    );
    t.same(await row(p.id), before, 'still self-excluded without end');
    t.same(
      (await seHistory(p.id)).map((r: any) => `${r.kind} by ${r.by}`),
      ['self_exclusion by operator'],
      'nothing ended it',
    );
    t.match(await state(p.id), { status: 'autoexcluido', selfExcluded: true });
  });

  t.test('the older limits form lengthens a fixed term, never ends or shortens it', async (t) => {
    setRuleClockOffset(0);
    const p = await h.createPlayer(t, scope, { externalId: 'st-lf-term', cpf: '863.184.730-50' });
    const until: string = okBody<any>(t, await selfExclude(p.id, { months: 2 }), 200).selfExclusion.until;
    const before = await row(p.id);
    for (const [what, date] of [
      ['an empty date', null],
      ['a past date', iso(Date.now() - DAY)],
      ['two days earlier', iso(Date.parse(until) - 2 * DAY)],
    ] as const) {
      const refused = await limits(p.id, date);
      errorCode(t, refused, 'STANDING_HAS_OWN_FLOW', `${what}: refused`);
      t.match(refusal(refused), { message: /ends by itself/, details: { heldBy: 'self_exclusion', until } }, `${what}: naming its end`);
    }
    t.same(await row(p.id), before, 'nothing written');
    // The console's date field sends the day at 00:00 UTC: less than a day earlier is the same term.
    const sameDay = okBody<any>(t, await limits(p.id, `${until.slice(0, 10)}T00:00:00.000Z`), 200);
    t.equal(sameDay.selfExcludedUntil, until, 'its day again: the running term, unchanged');
    const later = iso(Date.parse(until) + 10 * DAY);
    t.equal(okBody<any>(t, await limits(p.id, later), 200).selfExcludedUntil, later, 'a later date lengthens it');
    t.same(await row(p.id), { ...before, until: later }, 'the same self-exclusion, its start kept');
    t.match(
      await seHistory(p.id),
      [
        { kind: 'self_exclusion', by: 'operator' },
        { kind: 'self_exclusion', old_value: until, new_value: later, by: 'team', actor: 'compliance@team' },
      ],
      'the history names the person who lengthened it',
    );
    t.match(
      await seEvents(p.id),
      [
        { type: 'player.self_excluded', data: { until } },
        { type: 'player.self_excluded', data: { until: later } },
      ],
      'the operator hears of the longer term',
    );
  });

  t.test('the older limits form starts a real self-exclusion, which ends by its rule', async (t) => {
    setRuleClockOffset(0);
    const p = await h.createPlayer(t, scope, { externalId: 'st-lf-new', cpf: '529.982.247-25' });
    const past = await limits(p.id, iso(Date.now() - 60_000));
    errorCode(t, past, 'VALIDATION_ERROR', 'a date already past starts nothing');
    t.match(refusal(past), { details: { issues: [{ path: '/selfExcludedUntil' }] } });
    const until = iso(Date.now() + 10 * DAY);
    t.equal(okBody<any>(t, await limits(p.id, until), 200).selfExcludedUntil, until);
    t.match(await row(p.id), { status: 'autoexcluido', since: String, until }, 'autoexcluido, with its start and end');
    t.match(await standing(p.id), { heldBy: 'self_exclusion', statuses: ['autoexcluido'], flow: /ends by itself/ });
    t.same(
      await seHistory(p.id),
      [{ kind: 'self_exclusion', old_value: null, new_value: until, by: 'team', actor: 'compliance@team' }],
      'the history names the person',
    );
    errorCode(t, await setStatus(p.id, 'ativo'), 'STANDING_HAS_OWN_FLOW', 'the generic change cannot end it');
    errorCode(t, await limits(p.id, null), 'STANDING_HAS_OWN_FLOW', 'nor the form that started it');

    setRuleClockOffset(11 * DAY);
    await waitFor(async () => (await row(p.id)).status === 'ativo', { what: 'the term ran out' });
    setRuleClockOffset(0);
    t.match(
      await seHistory(p.id),
      [{ kind: 'self_exclusion' }, { kind: 'self_exclusion_ended', old_value: until, by: 'system', actor: 'rule:fixed-term-ran-out' }],
      'its end names the rule that ended it',
    );
    t.same(
      (await seEvents(p.id)).map((e) => e.type),
      ['player.self_excluded', 'player.self_exclusion.ended'],
      'the operator hears of both',
    );
  });

  t.test('autoexcluido only through a self-exclusion: never set or ended by hand', async (t) => {
    setRuleClockOffset(0);
    const p = await h.createPlayer(t, scope, { externalId: 'st-hand', cpf: '390.533.447-05' });
    const byHand = await setStatus(p.id, 'autoexcluido');
    errorCode(t, byHand, 'STANDING_HAS_OWN_FLOW', 'ativo → autoexcluido by hand');
    t.match(refusal(byHand), { message: /POST \/players\/\{id\}\/self-exclusion/, details: { heldBy: 'self_exclusion', status: 'ativo' } });
    t.match(await row(p.id), { status: 'ativo', since: null });

    // A player set autoexcluido by hand before: no self-exclusion behind it.
    await h.sql("update players.players set status = 'autoexcluido', updated_at = now() - interval '40 days' where id = ?", [p.id]);
    const back = await setStatus(p.id, 'ativo');
    errorCode(t, back, 'STANDING_HAS_OWN_FLOW', 'autoexcluido → ativo by hand');
    t.match(refusal(back), { message: /self-exclusion\/lift/, details: { heldBy: 'self_exclusion', status: 'autoexcluido' } });
    // The migration records such a status as a self-exclusion without end, from the row's last change.
    await h.sql(RECORD_HAND_SET_SELF_EXCLUSIONS);
    t.match(await row(p.id), { status: 'autoexcluido', since: String, until: null });
    t.match(await seHistory(p.id), [{ kind: 'self_exclusion', old_value: null, new_value: 'indefinite', by: 'team', actor: null }]);
    const lifted = await h.call('players.admin.liftSelfExclusion', admin, { params: { id: p.id }, body: { reason: 'asked by the player, reviewed' } });
    t.match(okBody<any>(t, lifted, 200).history[0], { kind: 'self_exclusion_lifted', by: 'team', actor: 'compliance@team' }, 'ended by its flow');
    t.match(await row(p.id), { status: 'ativo', since: null });
  });

  t.test("a v1.1 date of our team's, set before: neither the operator nor the form shortens it", async (t) => {
    setRuleClockOffset(0);
    const p = await h.createPlayer(t, scope, { externalId: 'st-v11', cpf: '246.813.579-28' });
    const date = iso(Date.now() + 90 * DAY);
    await h.sql('update players.players set self_excluded_until = ? where id = ?', [date, p.id]);
    t.match(await state(p.id), { status: 'ativo', selfExcluded: true }, 'self-excluded by the date alone');
    const shorter = await selfExclude(p.id, { months: 1 });
    errorCode(t, shorter, 'SELF_EXCLUSION_ACTIVE', "the player's shorter term: refused");
    t.match(refusal(shorter), { details: { until: date } });
    const cleared = await limits(p.id, null);
    errorCode(t, cleared, 'STANDING_HAS_OWN_FLOW', 'the form: an empty date refused');
    t.match(refusal(cleared), { message: /Our team's self-exclusion date holds this player until/, details: { until: date } });
    t.match(await row(p.id), { status: 'ativo', since: null, until: date }, 'unchanged');
    const longer = okBody<any>(t, await selfExclude(p.id, { indefinite: true }), 200);
    t.same([longer.selfExclusionChange, longer.selfExclusion.until], ['extended', null], 'the player may make it longer: without end');
    t.match(await row(p.id), { status: 'autoexcluido', since: String, until: null });
  });

  t.test('a self-exclusion under a sanctions freeze: the freeze holds, the self-exclusion stays after it', async (t) => {
    setRuleClockOffset(0);
    const p = await h.createPlayer(t, scope, { externalId: 'st-frz', cpf: '987.654.321-00' });
    okBody(t, await h.call('players.sanctions.freeze', admin, { body: { playerId: p.id } }), 200);
    const until = iso(Date.now() + 20 * DAY);
    okBody(t, await limits(p.id, until), 200);
    t.match(await row(p.id), { status: 'bloqueado', frozen: true, until }, 'still frozen');
    errorCode(t, await limits(p.id, null), 'STANDING_HAS_OWN_FLOW', 'not ended by the form under the freeze either');
    okBody(t, await h.call('players.sanctions.lift', admin, { body: { playerId: p.id } }), 200);
    t.match(await row(p.id), { status: 'autoexcluido', frozen: false, until }, 'the lift goes back to the self-exclusion');
  });

  t.test('a self-exclusion keeps the status our team set: its end goes back to it, never to ativo by itself', async (t) => {
    setRuleClockOffset(0);
    // Suspended by our team, then the player's own term (through the operator).
    const suspended = await h.createPlayer(t, scope, { externalId: 'st-back-susp', cpf: '390.533.447-05' });
    okBody(t, await setStatus(suspended.id, 'suspenso'), 200);
    const term = okBody<any>(t, await selfExclude(suspended.id, { months: 1 }), 200).selfExclusion;
    t.match(await row(suspended.id), { status: 'autoexcluido', until: term.until }, 'suspenso → autoexcluido while it runs');
    t.match(
      await standing(suspended.id),
      { heldBy: 'self_exclusion', flow: /ends by itself.*goes back to suspenso/ },
      'our team reads that its suspension comes back',
    );
    // Blocked by our team, then our team's own term (the limits form).
    const blocked = await h.createPlayer(t, scope, { externalId: 'st-back-blk', cpf: '111.444.777-35' });
    okBody(t, await setStatus(blocked.id, 'bloqueado'), 200);
    okBody(t, await limits(blocked.id, iso(Date.now() + 2 * DAY)), 200);
    t.match(await row(blocked.id), { status: 'autoexcluido' });
    // Nothing set by our team: back to ativo, as before.
    const free = await h.createPlayer(t, scope, { externalId: 'st-back-free', cpf: '863.184.730-50' });
    okBody(t, await limits(free.id, iso(Date.now() + 2 * DAY)), 200);

    setRuleClockOffset(32 * DAY);
    for (const p of [suspended, blocked, free]) await waitFor(async () => (await row(p.id)).since === null, { what: `${p.externalId}: the term ran out` });
    setRuleClockOffset(0);
    t.equal((await row(suspended.id)).status, 'suspenso', 'the suspension our team made is in force again');
    t.equal((await row(blocked.id)).status, 'bloqueado', 'the block our team made is in force again');
    t.equal((await row(free.id)).status, 'ativo', 'a player nothing held goes back to ativo');
    t.same(
      [await endedEvents(suspended.id), await endedEvents(blocked.id), await endedEvents(free.id)],
      [
        [{ playerId: suspended.id, externalId: 'st-back-susp', by: 'system', status: 'suspenso' }],
        [{ playerId: blocked.id, externalId: 'st-back-blk', by: 'system', status: 'bloqueado' }],
        [{ playerId: free.id, externalId: 'st-back-free', by: 'system', status: 'ativo' }],
      ],
      'player.self_exclusion.ended tells the operator the status the end left',
    );
    t.match(
      (await seHistory(suspended.id)).at(-1),
      { kind: 'self_exclusion_ended', old_value: term.until, by: 'system', actor: 'rule:fixed-term-ran-out' },
      'the end names the rule',
    );
    const [end] = await h.sql("select reason from players.rg_history where player_id = ? and kind = 'self_exclusion_ended'", [suspended.id]);
    t.match(end.reason, /suspenso/, 'and the status it went back to');
    t.match(await state(suspended.id), { status: 'suspenso', selfExcluded: false });
    t.same(await standing(suspended.id), { heldBy: null, flow: null, statuses: ['ativo', 'suspenso', 'bloqueado', 'encerrado'] }, 'nothing holds it now');
    okBody(t, await setStatus(suspended.id, 'ativo'), 200);
    t.equal((await row(suspended.id)).status, 'ativo', 'our team lifts its suspension when it decides to');
  });

  t.test("compliance's lift of an indefinite self-exclusion goes back to the status before it", async (t) => {
    setRuleClockOffset(0);
    const p = await h.createPlayer(t, scope, { externalId: 'st-back-lift', cpf: '529.982.247-25' });
    okBody(t, await setStatus(p.id, 'suspenso'), 200);
    okBody(t, await selfExclude(p.id, { indefinite: true }), 200);
    setRuleClockOffset(31 * DAY);
    const lifted = okBody<any>(
      t,
      await h.call('players.admin.liftSelfExclusion', admin, { params: { id: p.id }, body: { reason: 'reviewed with the player' } }),
      200,
    );
    setRuleClockOffset(0);
    t.match(lifted.history[0], { kind: 'self_exclusion_lifted', by: 'team', actor: 'compliance@team', reason: 'reviewed with the player' });
    t.match(await row(p.id), { status: 'suspenso', since: null }, 'still suspended: only our team lifts that');
    t.match(await h.lastAudit(`player:${p.id}`), { before: { status: 'autoexcluido' }, after: { status: 'suspenso' } }, 'the audit says so');
    t.same(await endedEvents(p.id), [{ playerId: p.id, externalId: 'st-back-lift', by: 'team', status: 'suspenso' }], 'and the event');
  });

  t.test('a closed account stays closed: the self-exclusion is recorded, and the account is not reopened while it runs', async (t) => {
    setRuleClockOffset(0);
    const p = await h.createPlayer(t, scope, { externalId: 'st-back-closed', cpf: '246.813.579-28' });
    okBody(t, await setStatus(p.id, 'encerrado'), 200);
    const answer = okBody<any>(t, await selfExclude(p.id, { indefinite: true }), 200);
    t.match(answer, { selfExclusionChange: 'started', selfExclusion: { since: String, until: null } }, 'the operator is answered the self-exclusion');
    t.match(await row(p.id), { status: 'encerrado', since: String, until: null }, 'still encerrado');
    const reopened = await setStatus(p.id, 'ativo');
    errorCode(t, reopened, 'STANDING_HAS_OWN_FLOW', 'not reopened while the self-exclusion runs');
    t.match(refusal(reopened), { message: /self-exclusion\/lift/, details: { heldBy: 'self_exclusion', status: 'encerrado' } });
    t.match(await standing(p.id), { heldBy: 'self_exclusion', statuses: ['encerrado'], flow: /only compliance lifts it.*stays encerrado/ });
    setRuleClockOffset(31 * DAY);
    okBody(t, await h.call('players.admin.liftSelfExclusion', admin, { params: { id: p.id }, body: { reason: 'reviewed with the player' } }), 200);
    setRuleClockOffset(0);
    t.match(await row(p.id), { status: 'encerrado', since: null }, 'closed after the lift too');

    // Our team's term on a closed account: it runs out, and the account is still closed.
    okBody(t, await limits(p.id, iso(Date.now() + 2 * DAY)), 200);
    t.match(await row(p.id), { status: 'encerrado', since: String });
    setRuleClockOffset(3 * DAY);
    await waitFor(async () => (await row(p.id)).since === null, { what: 'the term ran out' });
    setRuleClockOffset(0);
    t.equal((await row(p.id)).status, 'encerrado', 'never reopened by the end of a term');
    t.match((await seHistory(p.id)).at(-1), { kind: 'self_exclusion_ended', by: 'system', actor: 'rule:fixed-term-ran-out' });
    t.same(
      (await endedEvents(p.id)).map((d: any) => [d.by, d.status]),
      [
        ['team', 'encerrado'],
        ['system', 'encerrado'],
      ],
      'both ends tell the operator the account is still encerrado',
    );
  });

  t.test('a self-exclusion and a sanctions freeze: a term that runs out under the freeze leaves the status before it for the lift', async (t) => {
    setRuleClockOffset(0);
    const p = await h.createPlayer(t, scope, { externalId: 'st-back-frz', cpf: '987.654.321-00' });
    okBody(t, await setStatus(p.id, 'suspenso'), 200);
    const until = iso(Date.now() + 2 * DAY);
    okBody(t, await limits(p.id, until), 200);
    okBody(t, await h.call('players.sanctions.freeze', admin, { body: { playerId: p.id } }), 200);
    t.match(await row(p.id), { status: 'bloqueado', frozen: true, until });
    setRuleClockOffset(3 * DAY);
    await waitFor(async () => (await row(p.id)).since === null, { what: 'the term ran out under the freeze' });
    setRuleClockOffset(0);
    t.match(await row(p.id), { status: 'bloqueado', frozen: true }, 'the freeze still holds');
    t.match((await seHistory(p.id)).at(-1), { kind: 'self_exclusion_ended', actor: 'rule:fixed-term-ran-out' });
    t.same(
      await endedEvents(p.id),
      [{ playerId: p.id, externalId: 'st-back-frz', by: 'system', status: 'bloqueado' }],
      "the event carries the player's status as it is",
    );
    okBody(t, await h.call('players.sanctions.lift', admin, { body: { playerId: p.id } }), 200);
    t.match(await row(p.id), { status: 'suspenso', frozen: false }, 'the dismissal goes back to the suspension, not to ativo');
  });

  t.test('migration 0018: running self-exclusions get the status their start replaced, from the status history', async (t) => {
    setRuleClockOffset(0);
    const before = async (id: string) => (await h.sql('select status_before_self_exclusion as s from players.players where id = ?', [id]))[0].s;
    const suspended = await h.createPlayer(t, scope, { externalId: 'st-mig-susp', cpf: '390.533.447-05' });
    okBody(t, await setStatus(suspended.id, 'suspenso'), 200);
    okBody(t, await selfExclude(suspended.id, { indefinite: true }), 200);
    const free = await h.createPlayer(t, scope, { externalId: 'st-mig-free', cpf: '111.444.777-35' });
    okBody(t, await selfExclude(free.id, { indefinite: true }), 200);
    t.same([await before(suspended.id), await before(free.id)], ['suspenso', 'ativo'], 'a self-exclusion keeps the status it replaced');
    // As rows self-excluded before the column was: nothing kept.
    await h.sql('update players.players set status_before_self_exclusion = null where id in (?, ?)', [suspended.id, free.id]);
    await h.sql(RECORD_STATUS_BEFORE_SELF_EXCLUSION);
    t.same([await before(suspended.id), await before(free.id)], ['suspenso', 'ativo'], 'found again in the status history');
    const nothing = await h.createPlayer(t, scope, { externalId: 'st-mig-none', cpf: '863.184.730-50' });
    okBody(t, await setStatus(nothing.id, 'suspenso'), 200);
    okBody(t, await selfExclude(nothing.id, { indefinite: true }), 200);
    // Self-excluded before the status history was kept (migration 0010): no transition at its start to find.
    await h.sql("update players.players set status_before_self_exclusion = null, self_excluded_since = self_excluded_since - interval '10 days' where id = ?", [
      nothing.id,
    ]);
    await h.sql(RECORD_STATUS_BEFORE_SELF_EXCLUSION);
    t.equal(await before(nothing.id), null, 'none found: nothing kept');
    setRuleClockOffset(31 * DAY);
    for (const p of [suspended, nothing]) {
      okBody(t, await h.call('players.admin.liftSelfExclusion', admin, { params: { id: p.id }, body: { reason: 'reviewed with the player' } }), 200);
    }
    setRuleClockOffset(0);
    t.equal((await row(suspended.id)).status, 'suspenso', 'the backfilled status comes back');
    t.equal((await row(nothing.id)).status, 'ativo', 'none found: ativo, as the end did before the migration');
  });

  t.test('an impediment restriction: restrito and the closed player stay so', async (t) => {
    setRuleClockOffset(0);
    const brSpa = { profile: 'br-spa', reason: 'the Brazilian rules for the impediment checks' };
    okBody(t, await h.call('players.admin.setCompliance', admin, { params: { id: scope.operatorId }, body: brSpa }), 200);
    const p = await h.createPlayer(t, scope, { ...brSpaPlayer, externalId: 'st-imp', cpf: '714.602.380-01' });
    const added = await h.call('players.admin.impediments.add', admin, { body: { cpf: '71460238001', category: 'athlete', note: 'a club player' } });
    t.same(okBody<any>(t, added, 201).restricted, [p.id]);
    // A self-exclusion during the restriction (here our team's; the player's: test/e2e/standing.test.ts)
    // is recorded and ends nothing: the status stays restrito, and the account still closes after the window.
    okBody(t, await limits(p.id, iso(Date.now() + 60 * DAY)), 200);
    t.match(await row(p.id), { status: 'restrito', since: String }, 'a self-exclusion does not replace the restriction');
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
