// Responsible gaming in the players service, through NATS as the gateway calls it: limits (a new
// or lower one at once, a higher one or a removal after the cooling-off, on a clock the test
// moves), br-spa's required loss and time limits, pauses, self-exclusion (fixed terms end by
// themselves; compliance lifts an indefinite one after 30 days), limits at registration, the
// history and the events. Usage comes from payments and the wallet: here a fake of each answers
// with fixed numbers (their real counting is tested in their suites).
import t from 'tap';
import { PLAYER_STATE_SUBJECT, PAYMENTS_RG_USAGE_SUBJECT, WALLET_RG_USAGE_SUBJECT, adminOperations, rpcSubject, type RgUsageRequest } from '@bo/contracts';
import { setRuleClockOffset, waitFor } from '@bo/service-kit/testing';
import { admin, errorCode, setComplianceProfile, internal, newKey, okBody, scopes, startPlayers } from './harness.ts';
import { playersService } from '../src/service.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

t.test('responsible gaming', async (t) => {
  const h = await startPlayers(t, 'rg', playersService, { RG_TERMS_INTERVAL_MS: 50 });
  t.teardown(() => setRuleClockOffset(0));
  const asked: RgUsageRequest[] = [];
  const fake = (subject: string, usage: { type: string; period: string; used: string }[]) =>
    h.svc.nc.subscribe(rpcSubject(h.prefix, subject), {
      callback: (_err, msg) => {
        asked.push(msg.json<{ body: RgUsageRequest }>().body);
        msg.respond(JSON.stringify({ ok: true, status: 200, body: { usage } }));
      },
    });
  const subs = [
    fake(PAYMENTS_RG_USAGE_SUBJECT, [{ type: 'deposit', period: 'day', used: '30.00' }]),
    fake(WALLET_RG_USAGE_SUBJECT, [
      { type: 'loss', period: 'day', used: '12.50' },
      { type: 'time', period: 'week', used: '42' },
    ]),
  ];
  t.teardown(() => {
    for (const s of subs) s.unsubscribe();
  });
  const scope = scopes.aProduction;
  const rg = (playerId: string) => h.call('players.rg.get', scope, { params: { playerId } });
  const setLimit = (playerId: string, type: string, period: string, value: unknown) =>
    h.call('players.rg.setLimit', scope, { params: { playerId, type, period }, body: { value }, key: newKey() });
  const removeLimit = (playerId: string, type: string, period: string) =>
    h.call('players.rg.removeLimit', scope, { params: { playerId, type, period }, key: newKey() });
  const state = (playerId: string) => h.call(PLAYER_STATE_SUBJECT, internal, { body: { brandId: scope.brandId, playerId } });

  t.test('a new or lower limit applies at once; a higher one waits for the cooling-off', async (t) => {
    setRuleClockOffset(0);
    const p = await h.createPlayer(t, scope, { externalId: 'rg-1' });
    const first = okBody<any>(t, await setLimit(p.id, 'loss', 'day', '100'), 200);
    t.match(first.limits, [{ type: 'loss', period: 'day', value: '100.00', used: '12.50', pending: null }]);
    t.ok(Date.parse(first.limits[0].resetsAt) > Date.now(), 'resetsAt is ahead');
    t.match(asked.at(-1), { brandId: scope.brandId, playerId: p.id, timeZone: 'America/Sao_Paulo' }, 'usage asked in the operator time zone');

    t.match(okBody<any>(t, await setLimit(p.id, 'loss', 'day', '50.00'), 200).limits, [{ value: '50.00', pending: null }], 'lower: at once');
    const raised = okBody<any>(t, await setLimit(p.id, 'loss', 'day', '80.00'), 200).limits[0];
    t.equal(raised.value, '50.00', 'higher: the lower value stays in force');
    t.equal(raised.pending.value, '80.00');
    const wait = Date.parse(raised.pending.effectiveAt) - Date.now();
    t.ok(wait > 23.9 * HOUR && wait <= 24 * HOUR, 'pending for the 24 h cooling-off');
    t.match(okBody<any>(t, await state(p.id), 200).rg, {
      profile: 'off',
      limits: [{ type: 'loss', period: 'day', value: '50.00', pending: { value: '80.00' } }],
    });

    setRuleClockOffset(24 * HOUR + 1000);
    t.match(okBody<any>(t, await rg(p.id), 200).limits, [{ value: '80.00', pending: null }], 'in force once the cooling-off ends');

    const removal = okBody<any>(t, await removeLimit(p.id, 'loss', 'day'), 200).limits[0];
    t.same(removal.pending.value, null, 'a removal waits too');
    setRuleClockOffset(48 * HOUR + 2000);
    t.same(okBody<any>(t, await rg(p.id), 200).limits, [], 'removed after the cooling-off');

    t.match(okBody<any>(t, await setLimit(p.id, 'time', 'week', 120), 200).limits, [{ type: 'time', period: 'week', value: 120, used: 42 }]);
    errorCode(t, await setLimit(p.id, 'time', 'day', '120'), 'VALIDATION_ERROR', 'time is whole minutes');
    errorCode(t, await setLimit(p.id, 'deposit', 'day', 100), 'VALIDATION_ERROR', 'money is a string');
    errorCode(t, await setLimit(p.id, 'bet', 'day', '1'), 'VALIDATION_ERROR', 'unknown type');
    errorCode(t, await setLimit(p.id, 'loss', 'year', '1'), 'VALIDATION_ERROR', 'unknown period');
    errorCode(t, await setLimit('plr_unknown', 'loss', 'day', '1'), 'PLAYER_NOT_FOUND');
    errorCode(t, await h.call('players.rg.get', scopes.aSandbox, { params: { playerId: p.id } }), 'PLAYER_NOT_FOUND', "another brand's player is not found");

    errorCode(
      t,
      await h.call('players.admin.rg', admin, { params: { id: 'plr_unknown' } }),
      'PLAYER_NOT_FOUND',
      'the admin read of a player that does not exist',
    );
    t.ok(
      (adminOperations.adminGetResponsibleGaming.errors as readonly string[] | undefined)?.includes('PLAYER_NOT_FOUND'),
      'and its refusal is in the documented list',
    );
    const file = okBody<any>(t, await h.call('players.admin.rg', admin, { params: { id: p.id } }), 200);
    t.same(
      file.history.map((c: any) => [c.kind, c.type, c.period, c.oldValue, c.newValue, c.by]).reverse(),
      [
        ['limit', 'loss', 'day', null, '100.00', 'operator'],
        ['limit', 'loss', 'day', '100.00', '50.00', 'operator'],
        ['limit', 'loss', 'day', '50.00', '80.00', 'operator'],
        ['limit', 'loss', 'day', '80.00', null, 'operator'],
        ['limit', 'time', 'week', null, '120', 'operator'],
      ],
      'every change: old, new, who',
    );
    setRuleClockOffset(0);
  });

  t.test('br-spa: the last loss or time limit cannot be removed; our team may only lower', async (t) => {
    setRuleClockOffset(0);
    // Registered before the operator switched to br-spa (a new br-spa registration carries the limits).
    const p = await h.createPlayer(t, scope, { externalId: 'rg-2', cpf: '111.444.777-35' });
    okBody(
      t,
      await h.call('players.admin.setCompliance', admin, {
        params: { id: scope.operatorId },
        body: { profile: 'br-spa', reason: 'the operator is licensed in Brazil' },
      }),
      200,
    );
    t.teardown(async () => {
      await setComplianceProfile(h, scope.operatorId, 'off');
    });
    t.match(okBody<any>(t, await state(p.id), 200).rg, { profile: 'br-spa', limits: [] }, 'br-spa players always carry their rules');
    okBody(t, await setLimit(p.id, 'loss', 'day', '100.00'), 200);
    okBody(t, await setLimit(p.id, 'loss', 'month', '1000.00'), 200);
    okBody(t, await setLimit(p.id, 'time', 'day', 60), 200);
    errorCode(t, await removeLimit(p.id, 'time', 'day'), 'LIMIT_REQUIRED', 'the only time limit');
    okBody(t, await removeLimit(p.id, 'loss', 'month'), 200);
    errorCode(t, await removeLimit(p.id, 'loss', 'day'), 'LIMIT_REQUIRED', 'the other loss limit is being removed');

    const team = (dailyDepositLimit: string | null) =>
      h.call('players.admin.limits', admin, { params: { id: p.id }, body: { dailyDepositLimit, selfExcludedUntil: null } });
    okBody(t, await team('200.00'), 200);
    okBody(t, await team('150.00'), 200);
    errorCode(t, await team('300.00'), 'FORBIDDEN_ROLE', 'our team cannot raise');
    errorCode(t, await team(null), 'FORBIDDEN_ROLE', 'nor remove');
    t.match(okBody<any>(t, await rg(p.id), 200).limits, [{ type: 'deposit', period: 'day', value: '150.00', pending: null }]);
    const history = okBody<any>(t, await h.call('players.admin.rg', admin, { params: { id: p.id } }), 200).history;
    t.match(history[0], { kind: 'limit', type: 'deposit', oldValue: '200.00', newValue: '150.00', by: 'team', actor: 'compliance@team' });
  });

  t.test('pause: 24 h to 6 weeks ahead, never shortened', async (t) => {
    setRuleClockOffset(0);
    const p = await h.createPlayer(t, scope, { externalId: 'rg-3' });
    const pause = (ms: number) =>
      h.call('players.rg.pause', scope, { params: { playerId: p.id }, body: { until: new Date(Date.now() + ms).toISOString() }, key: newKey() });
    errorCode(t, await pause(23 * HOUR), 'VALIDATION_ERROR', 'less than 24 h');
    errorCode(t, await pause(43 * DAY), 'VALIDATION_ERROR', 'more than 6 weeks');
    const until = okBody<any>(t, await pause(2 * DAY), 200).pause.until;
    t.ok(Date.parse(until) > Date.now() + DAY);
    t.match(okBody<any>(t, await state(p.id), 200).rg, { pausedUntil: until }, 'the enforcing services see it');
    errorCode(t, await pause(DAY), 'PAUSE_ACTIVE', 'shorter');
    const longer = okBody<any>(t, await pause(3 * DAY), 200).pause.until;
    t.ok(Date.parse(longer) > Date.parse(until), 'a longer one replaces it');
    setRuleClockOffset(4 * DAY);
    t.same(okBody<any>(t, await rg(p.id), 200).pause, null, 'over once its time has passed');
    setRuleClockOffset(0);
  });

  t.test("our team's pause (a measure after an interaction): the same bounds, a reason, audited, never shortened", async (t) => {
    setRuleClockOffset(0);
    const p = await h.createPlayer(t, scope, { externalId: 'rg-3t' });
    const pause = (ms: number, reason = 'agreed with the player after a call') =>
      h.call('players.admin.pause', admin, { params: { id: p.id }, body: { until: new Date(Date.now() + ms).toISOString(), reason } });
    errorCode(t, await pause(23 * HOUR), 'VALIDATION_ERROR', 'less than 24 h');
    errorCode(t, await pause(43 * DAY), 'VALIDATION_ERROR', 'more than 6 weeks');
    errorCode(t, await pause(2 * DAY, ''), 'VALIDATION_ERROR', 'a reason is required');
    const body = okBody<any>(t, await pause(7 * DAY), 200);
    const until = body.responsibleGaming.pause.until;
    t.ok(Date.parse(until) > Date.now() + 6 * DAY, 'a week ahead');
    t.match(body.history[0], { kind: 'pause', by: 'team', actor: 'compliance@team', reason: 'agreed with the player after a call', newValue: until });
    t.match(
      await h.lastAudit(`player:${p.id}`),
      { before: { pausedUntil: null }, after: { pausedUntil: until, reason: 'agreed with the player after a call' } },
      'audited with the reason',
    );
    t.match(okBody<any>(t, await state(p.id), 200).rg, { pausedUntil: until }, 'the enforcing services see it');
    t.ok(
      (await h.events()).some((e) => e.event.type === 'player.paused' && (e.event.data as any).playerId === p.id),
      'the operator is told, as for its own pause',
    );
    errorCode(t, await pause(2 * DAY), 'PAUSE_ACTIVE', 'never shortened by our team either');
  });

  t.test("our team's stricter limit (a measure after an interaction): at once, with a reason, audited, never looser", async (t) => {
    setRuleClockOffset(0);
    const p = await h.createPlayer(t, scope, { externalId: 'rg-3s' });
    const stricter = (type: string, period: string, value: unknown, reason = 'agreed with the player after a call') =>
      h.call('players.admin.stricterLimit', admin, { params: { id: p.id, type, period }, body: { value, reason } });
    okBody(t, await setLimit(p.id, 'loss', 'day', '200.00'), 200);
    const raise = okBody<any>(t, await setLimit(p.id, 'loss', 'day', '500.00'), 200).limits[0];
    t.equal(raise.pending.value, '500.00', "the player's own raise waits for its cooling-off");
    const lowered = okBody<any>(t, await stricter('loss', 'day', '100.00'), 200);
    t.match(lowered.responsibleGaming.limits, [{ type: 'loss', period: 'day', value: '100.00', pending: null }], 'lower: at once, the waiting raise dropped');
    t.match(lowered.history[0], { kind: 'limit', type: 'loss', period: 'day', newValue: '100.00', by: 'team', actor: 'compliance@team' });
    t.match(await h.lastAudit(`player:${p.id}`), {
      before: { type: 'loss', period: 'day', value: '200.00' },
      after: { value: '100.00', reason: 'agreed with the player after a call' },
    });
    const added = okBody<any>(t, await stricter('time', 'week', 600), 200).responsibleGaming.limits;
    t.match(
      added.find((l: any) => l.type === 'time'),
      { period: 'week', value: 600, pending: null },
      'a new limit: at once',
    );
    errorCode(t, await stricter('loss', 'day', '100.00'), 'VALIDATION_ERROR', 'the same value is not stricter');
    errorCode(t, await stricter('loss', 'day', '150.00'), 'VALIDATION_ERROR', 'never looser');
    errorCode(t, await stricter('time', 'week', '60'), 'VALIDATION_ERROR', 'time is whole minutes');
    const looserTime = await stricter('time', 'week', 700);
    t.match(
      looserTime.ok ? null : looserTime.error.details,
      { in: 'body', issues: [{ path: '/value', message: /limit in force \(600 minutes\)/ }] },
      'a looser time limit refused, the limit in force in minutes as the API shows it',
    );
    t.match(await h.lastAudit(`player:${p.id}`), { after: { type: 'time', value: 600 } }, 'the audit in the same units');
    errorCode(t, await stricter('loss', 'day', '50.00', ''), 'VALIDATION_ERROR', 'a reason is required');
    t.match(
      okBody<any>(t, await state(p.id), 200).rg.limits,
      [
        { type: 'loss', period: 'day', value: '100.00' },
        { type: 'time', period: 'week' },
      ],
      'the enforcing services see them',
    );
  });

  t.test("our team's reality check more often (a measure after an interaction): at once, read by the enforcing services, never less often", async (t) => {
    setRuleClockOffset(0);
    const p = await h.createPlayer(t, scope, { externalId: 'rg-3r' });
    const every = (minutes: unknown, reason = 'agreed with the player after a call') =>
      h.call('players.admin.realityCheck', admin, { params: { id: p.id }, body: { minutes, reason } });
    t.equal(okBody<any>(t, await rg(p.id), 200).realityCheckMinutes, 60, "the operator's interval at first");
    t.equal(okBody<any>(t, await state(p.id), 200).rg, undefined, 'no rules for a player of an off operator without limits');
    const set = okBody<any>(t, await every(20), 200);
    t.equal(set.responsibleGaming.realityCheckMinutes, 20, 'every 20 minutes, at once');
    t.match(set.history[0], { kind: 'reality_check', oldValue: '60', newValue: '20', by: 'team', actor: 'compliance@team' });
    t.match(await h.lastAudit(`player:${p.id}`), {
      before: { realityCheckMinutes: 60 },
      after: { realityCheckMinutes: 20, reason: 'agreed with the player after a call' },
    });
    t.equal(okBody<any>(t, await rg(p.id), 200).realityCheckMinutes, 20, "the operator's read says so");
    t.match(
      okBody<any>(t, await state(p.id), 200).rg,
      { realityCheckMinutes: 20 },
      'the wallet and the providers read it (the rules now exist for this player)',
    );
    errorCode(t, await every(20), 'VALIDATION_ERROR', 'the same interval is not more often');
    const lessOften = await every(45);
    t.match(
      lessOften.ok ? null : lessOften.error.details,
      { in: 'body', issues: [{ path: '/minutes', message: /interval in force \(20 minutes\)/ }] },
      'never less often, the interval in force named',
    );
    errorCode(t, await every(10, ''), 'VALIDATION_ERROR', 'a reason is required');
    errorCode(t, await every(0), 'VALIDATION_ERROR', 'a minute at least');
    okBody(t, await every(10), 200);
    t.match(okBody<any>(t, await state(p.id), 200).rg, { realityCheckMinutes: 10 }, 'more often again: 10');
  });

  t.test('self-exclusion: autoexcluido at once, never shortened, a fixed term ends by itself', async (t) => {
    setRuleClockOffset(0);
    const p = await h.createPlayer(t, scope, { externalId: 'rg-4' });
    const exclude = (body: unknown) => h.call('players.rg.selfExclude', scope, { params: { playerId: p.id }, body, key: newKey() });
    errorCode(t, await exclude({ months: 13 }), 'VALIDATION_ERROR');
    errorCode(t, await exclude({ indefinite: false }), 'VALIDATION_ERROR');
    const first = okBody<any>(t, await exclude({ months: 1 }), 200);
    t.equal(first.selfExclusionChange, 'started');
    const one = first.selfExclusion;
    t.ok(Date.parse(one.until) > Date.now() + 27 * DAY, 'a month ahead');
    t.match(okBody<any>(t, await state(p.id), 200), { status: 'autoexcluido', selfExcluded: true });
    const longer = okBody<any>(t, await exclude({ months: 3 }), 200);
    t.equal(longer.selfExclusionChange, 'extended', 'a longer term says it extended');
    const three = longer.selfExclusion;
    t.equal(three.since, one.since, 'a longer term keeps its start');
    const repeated = okBody<any>(t, await exclude({ months: 3 }), 200);
    t.same([repeated.selfExclusionChange, repeated.selfExclusion], ['unchanged', three], 'the same request again answers the running one');
    errorCode(t, await exclude({ months: 1 }), 'SELF_EXCLUSION_ACTIVE', 'never shortened');
    errorCode(
      t,
      await h.call('players.admin.liftSelfExclusion', admin, { params: { id: p.id }, body: { reason: 'asked by the player' } }),
      'SELF_EXCLUSION_ACTIVE',
      'a fixed term is not lifted by our team',
    );

    setRuleClockOffset(93 * DAY);
    // The poll asserts nothing (its tries vary with the machine's speed); the state is asserted once after it.
    await waitFor(
      async () => {
        const r = await state(p.id);
        return r.ok && (r.body as { status: string }).status === 'ativo';
      },
      { what: 'the term ended' },
    );
    t.equal(okBody<any>(t, await state(p.id), 200).status, 'ativo', 'the term ended by itself');
    t.same(okBody<any>(t, await rg(p.id), 200).selfExclusion, null);
    setRuleClockOffset(0);
    const events = (await h.events()).filter((e) => e.event.type.startsWith('player.') && (e.event.data as any).playerId === p.id);
    t.same(
      events.map((e) => e.event.type),
      ['player.self_excluded', 'player.self_excluded', 'player.self_exclusion.ended'],
    );
    t.match(events[2]!.event.data, { by: 'system' });
  });

  t.test('indefinite self-exclusion: lifted only by compliance, after 30 days, with a reason', async (t) => {
    setRuleClockOffset(0);
    const p = await h.createPlayer(t, scope, { externalId: 'rg-5' });
    const excluded = okBody<any>(
      t,
      await h.call('players.rg.selfExclude', scope, { params: { playerId: p.id }, body: { indefinite: true }, key: newKey() }),
      200,
    );
    t.same(excluded.selfExclusion.until, null);
    const again = okBody<any>(t, await h.call('players.rg.selfExclude', scope, { params: { playerId: p.id }, body: { indefinite: true }, key: newKey() }), 200);
    t.same([again.selfExclusionChange, again.selfExclusion], ['unchanged', excluded.selfExclusion], 'without end again: the running one');
    const seEvents = (await h.events()).filter((e) => e.event.type === 'player.self_excluded' && (e.event.data as any).playerId === p.id);
    t.equal(seEvents.length, 1, 'one event: nothing changed the second time');
    errorCode(
      t,
      await h.call('players.rg.selfExclude', scope, { params: { playerId: p.id }, body: { months: 12 }, key: newKey() }),
      'SELF_EXCLUSION_ACTIVE',
      'an operator cannot turn it into a term',
    );
    const lift = () => h.call('players.admin.liftSelfExclusion', admin, { params: { id: p.id }, body: { reason: 'reviewed with the player' } });
    const early = await lift();
    errorCode(t, early, 'SELF_EXCLUSION_ACTIVE', 'before 30 days');
    t.match(!early.ok && early.error.details, { liftableAt: String });
    const view = okBody<any>(t, await h.call('players.admin.rg', admin, { params: { id: p.id } }), 200);
    t.equal(view.selfExclusionLiftableAt, !early.ok && early.error.details?.liftableAt, "the team's view says from when it can be lifted: the refusal's date");
    errorCode(t, await h.call('players.admin.liftSelfExclusion', admin, { params: { id: p.id }, body: {} }), 'VALIDATION_ERROR', 'a reason is required');

    setRuleClockOffset(31 * DAY);
    const lifted = await lift();
    const body = okBody<any>(t, lifted, 200);
    t.same(body.responsibleGaming.selfExclusion, null);
    t.equal(body.selfExclusionLiftableAt, null, 'nothing left to lift');
    t.match(body.history[0], { kind: 'self_exclusion_lifted', by: 'team', actor: 'compliance@team', reason: 'reviewed with the player' });
    t.match(await h.lastAudit(`player:${p.id}`), { target: `player:${p.id}`, before: { status: 'autoexcluido' }, after: { status: 'ativo' } });
    t.match(okBody<any>(t, await state(p.id), 200), { status: 'ativo', selfExcluded: false });
    setRuleClockOffset(0);
  });

  t.test('limits at registration, in one call', async (t) => {
    setRuleClockOffset(0);
    const created = await h.call('players.create', scope, {
      body: {
        externalId: 'rg-6',
        name: 'Ana Souza',
        email: 'ana@example.com',
        cpf: '529.982.247-25',
        birthDate: '1990-05-17',
        limits: [
          { type: 'loss', period: 'day', value: '100.00' },
          { type: 'time', period: 'day', value: 90 },
        ],
      },
      key: newKey(),
    });
    const p = okBody<any>(t, created, 201);
    t.match(okBody<any>(t, await rg(p.id), 200).limits, [
      { type: 'loss', period: 'day', value: '100.00', pending: null },
      { type: 'time', period: 'day', value: 90, pending: null },
    ]);
    const twice = await h.call('players.create', scope, {
      body: {
        externalId: 'rg-7',
        name: 'Ana Souza',
        email: 'ana@example.com',
        cpf: '529.982.247-25',
        birthDate: '1990-05-17',
        limits: [
          { type: 'loss', period: 'day', value: '100.00' },
          { type: 'loss', period: 'day', value: '50.00' },
        ],
      },
      key: newKey(),
    });
    errorCode(t, twice, 'VALIDATION_ERROR', 'one limit per type and period');
    const events = (await h.events()).filter((e) => e.event.type === 'player.limits.changed' && (e.event.data as any).playerId === p.id);
    t.same(
      events.map((e) => [(e.event.data as any).type, (e.event.data as any).value, (e.event.data as any).by]),
      [
        ['loss', '100.00', 'operator'],
        ['time', '90', 'operator'],
      ],
    );
  });
});
