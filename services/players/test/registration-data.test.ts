// Registration data under br-spa (issue #60 item 1; docs/players.md, "Registration data"): a
// registration carries the phone, gender, sign-up IP and address with the limits (422 naming what is
// missing, nothing stored, no registry question); the address is validated and kept (CEP as 8 digits);
// PATCH /players/{playerId} completes or corrects the data (never the CPF nor the birth date), each
// change kept with who and when, idempotent; a player registered without the data is restricted
// (players.state's `registrationMissing`, the enforcing services' RG_BLOCKED registration_incomplete)
// and announced to the operator (`player.registration_incomplete`, then `player.registration_completed`).
import t from 'tap';
import { PLAYER_STATE_SUBJECT } from '@bo/contracts';
import { randomCpf, waitFor } from '@bo/service-kit/testing';
import {
  REGISTRATION_DATA,
  REQUIRED_LIMITS,
  admin,
  errorCode,
  internal,
  newKey,
  okBody,
  scopes,
  setComplianceProfile,
  startPlayers,
  validPlayer,
} from './harness.ts';

const ADDRESS = {
  street: 'Av. Paulista',
  number: '1000',
  complement: 'ap 12',
  district: 'Bela Vista',
  city: 'São Paulo',
  state: 'SP',
  postalCode: '01310-100',
};

t.test('registration data under br-spa', async (t) => {
  const h = await startPlayers(t, 'regdata', undefined, { REGISTRATION_NOTICE_INTERVAL_MS: 100 });
  const register = (scope: (typeof scopes)[keyof typeof scopes], body: Record<string, unknown>) =>
    h.call('players.create', scope, { body: { ...validPlayer, cpf: randomCpf(), ...body }, key: newKey() });
  const patch = (scope: (typeof scopes)[keyof typeof scopes], playerId: string, body: Record<string, unknown>, key = newKey()) =>
    h.call('players.update', scope, { params: { playerId }, body, key });
  const state = (playerId: string) => h.call<any>(PLAYER_STATE_SUBJECT, internal, { body: { brandId: scopes.aProduction.brandId, playerId } });
  const eventsOf = async (playerId: string) => (await h.events()).filter((e) => (e.event.data as { playerId?: string }).playerId === playerId);

  // Registered while the operator was `off`, with limits but none of the data: a legacy player once br-spa is on.
  const legacy = okBody<any>(t, await register(scopes.aProduction, { externalId: 'legacy', limits: REQUIRED_LIMITS }), 201);
  t.equal(legacy.registration, undefined, 'under off: no registration status');
  t.same(legacy.marketing, { consent: false, allowed: false, blockedBy: null, consentChangedAt: null }, 'no consent given');
  okBody(t, await setComplianceProfile(h, scopes.aProduction.operatorId, 'br-spa'), 200);

  t.test('a registration without the data is 422 naming each missing item; nothing stored, no registry question', async (t) => {
    // The CPFs these refusals sent: the count below reads only what this test caused (a background
    // loop may check the file's other players, the legacy one, meanwhile).
    const cpfs: string[] = [];
    const refused = (body: Record<string, unknown>) => {
      const cpf = randomCpf();
      cpfs.push(cpf);
      return register(scopes.aProduction, { ...body, cpf });
    };
    const { phone: _phone, ...noPhone } = validPlayer;
    const bareCpf = randomCpf();
    cpfs.push(bareCpf);
    const bare = await h.call('players.create', scopes.aProduction, {
      body: { ...noPhone, cpf: bareCpf, externalId: 'bare', limits: REQUIRED_LIMITS },
      key: newKey(),
    });
    errorCode(t, bare, 'VALIDATION_ERROR');
    t.same(!bare.ok && (bare.error.details as any).missing, ['phone', 'gender', 'signupIp', 'address']);
    t.same(!bare.ok && (bare.error.details as any).issues.map((i: any) => i.path), ['/phone', '/gender', '/signupIp', '/address']);
    const noLimits = await refused({ externalId: 'nolim', gender: 'masculino', signupIp: '203.0.113.4', address: ADDRESS });
    t.same(!noLimits.ok && (noLimits.error.details as any).missing, ['loss', 'time'], 'the limits named by type, as before');
    for (const [label, address] of [
      ['an unknown state', { ...ADDRESS, state: 'XX' }],
      ['a CEP of 7 digits', { ...ADDRESS, postalCode: '0131010' }],
      ['no city', { ...ADDRESS, city: undefined }],
    ] as const) {
      errorCode(t, await refused({ ...REGISTRATION_DATA, externalId: `bad-${label}`, address, limits: REQUIRED_LIMITS }), 'VALIDATION_ERROR', label);
    }
    t.equal(
      (await h.sql<{ c: string }>(`select count(*) c from players.players where external_id in ('bare', 'nolim') or external_id like 'bad-%'`))[0]!.c,
      '0',
    );
    const audit = await h.sql<{ c: string }>(`select count(*) c from players.impediment_checks where cpf in (${cpfs.map(() => '?').join(', ')})`, cpfs);
    t.equal(audit[0]!.c, '0', 'the registry is not asked');
  });

  t.test('a complete registration is kept: the address with its CEP as 8 digits; registration complete', async (t) => {
    const p = okBody<any>(t, await register(scopes.aProduction, { ...REGISTRATION_DATA, externalId: 'full', address: ADDRESS, limits: REQUIRED_LIMITS }), 201);
    t.same(p.address, { ...ADDRESS, postalCode: '01310100' });
    t.same(p.registration, { complete: true, missing: [] });
    t.same(okBody<any>(t, await h.call('players.get', scopes.aProduction, { params: { playerId: p.id } }), 200).registration, { complete: true, missing: [] });
    t.notOk('registrationMissing' in (okBody<any>(t, await state(p.id), 200).rg ?? {}), 'players.state: nothing missing');
  });

  t.test('the legacy player is restricted and announced, then completes the data through PATCH', async (t) => {
    t.same(okBody<any>(t, await state(legacy.id), 200).rg.registrationMissing, ['gender', 'signupIp', 'address'], 'players.state restricts');
    t.same(okBody<any>(t, await h.call('players.get', scopes.aProduction, { params: { playerId: legacy.id } }), 200).registration, {
      complete: false,
      missing: ['gender', 'signupIp', 'address'],
    });
    const announced = await waitFor(async () => (await eventsOf(legacy.id)).find((e) => e.event.type === 'player.registration_incomplete'), {
      what: 'player.registration_incomplete',
    });
    t.same(announced.event.data, { playerId: legacy.id, externalId: 'legacy', missing: ['gender', 'signupIp', 'address'] });
    t.equal(announced.brandId, scopes.aProduction.brandId, 'routed to the brand');

    // The CPF and the birth date never change; an empty PATCH and another brand's player are refused.
    const cpf = await patch(scopes.aProduction, legacy.id, { cpf: randomCpf() });
    errorCode(t, cpf, 'VALIDATION_ERROR', 'the CPF');
    t.same(!cpf.ok && (cpf.error.details as any).issues.map((i: any) => i.path), ['/cpf']);
    errorCode(t, await patch(scopes.aProduction, legacy.id, { birthDate: '1980-01-01' }), 'VALIDATION_ERROR', 'the birth date');
    errorCode(t, await patch(scopes.aProduction, legacy.id, {}), 'VALIDATION_ERROR', 'nothing to change');
    errorCode(t, await patch(scopes.aSandbox, legacy.id, { gender: 'feminino' }), 'PLAYER_NOT_FOUND', "another brand's player");

    // Part of it: still restricted, told what is left.
    const partial = okBody<any>(t, await patch(scopes.aProduction, legacy.id, { gender: 'feminino', email: 'maria.nova@example.com' }), 200);
    t.same(partial.registration, { complete: false, missing: ['signupIp', 'address'] });
    t.same(okBody<any>(t, await state(legacy.id), 200).rg.registrationMissing, ['signupIp', 'address'], 'in force before the answer');
    const key = newKey();
    const done = okBody<any>(t, await patch(scopes.aProduction, legacy.id, { signupIp: '198.51.100.99', address: ADDRESS }, key), 200);
    t.same(done.registration, { complete: true, missing: [] });
    t.same(
      [done.gender, done.signupIp, done.email, done.cpf, done.birthDate],
      ['feminino', '198.51.100.99', 'maria.nova@example.com', legacy.cpf, legacy.birthDate],
    );
    t.notOk('registrationMissing' in okBody<any>(t, await state(legacy.id), 200).rg, 'the restriction is lifted');
    t.same(
      okBody<any>(t, await patch(scopes.aProduction, legacy.id, { signupIp: '198.51.100.99', address: ADDRESS }, key), 200),
      done,
      'the same key answers the same',
    );

    const types = (await eventsOf(legacy.id)).map((e) => e.event.type).filter((ty) => ty.startsWith('player.registration'));
    t.same(types, ['player.registration_incomplete', 'player.registration_incomplete', 'player.registration_completed'], 'told what is left, then completed');
    const changes = await h.sql<{ field: string; old_value: unknown; new_value: unknown; by: string; actor: string; request_id: string | null }>(
      'select field, old_value, new_value, "by", actor, request_id from players.registration_changes where player_id = ? order by id',
      [legacy.id],
    );
    t.same(
      changes.map((c) => [c.field, c.old_value, c.by, c.actor]),
      [
        ['email', 'maria@example.com', 'operator', 'operator:op_A'],
        ['gender', null, 'operator', 'operator:op_A'],
        ['signupIp', null, 'operator', 'operator:op_A'],
        ['address', null, 'operator', 'operator:op_A'],
      ],
      'each change kept once with who; the replay added none',
    );
    t.ok(
      changes.every((c) => typeof c.request_id === 'string'),
      'and the request',
    );
    const file = okBody<any>(t, await h.call('players.admin.get', admin, { params: { id: legacy.id } }), 200);
    t.same(file.registration.status, { complete: true, missing: [] });
    t.same(file.registration.changes.length, 4, 'our team reads every change');
    await t.rejects(h.sql('update players.registration_changes set field = ? where player_id = ?', ['x', legacy.id]), 'append-only');
  });
});
