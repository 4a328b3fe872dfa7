// Registration under Portaria SPA/MF 2.579/2025 (issue 46, docs/players.md): under br-spa a
// registration carries a loss and a time limit (422 naming the missing ones), gender and the
// sign-up IP are kept, and the bettor's acceptance of the brand's terms is recorded (version, time,
// IP). The operator publishes its terms versions; players.state tells payments and the wallet which
// version a br-spa player still has to accept, and from when. Sandbox brands behave the same.
import t from 'tap';
import { PLAYER_STATE_SUBJECT, termsPending } from '@bo/contracts';
import { randomCpf, setRuleClockOffset } from '@bo/service-kit/testing';
import { REGISTRATION_DATA, admin, errorCode, internal, newKey, okBody, scopes, startPlayers, validPlayer } from './harness.ts';

const DAY = 24 * 3_600_000;
const LIMITS = [
  { type: 'loss', period: 'day', value: '100.00' },
  { type: 'time', period: 'day', value: 120 },
];

t.test('registration data and terms acceptance', async (t) => {
  const h = await startPlayers(t, 'terms');
  t.teardown(() => setRuleClockOffset(0));
  const register = (scope: (typeof scopes)[keyof typeof scopes], body: Record<string, unknown>) =>
    h.call('players.create', scope, { body: { ...validPlayer, ...REGISTRATION_DATA, cpf: randomCpf(), ...body }, key: newKey() });
  const publish = (scope: (typeof scopes)[keyof typeof scopes], body: Record<string, unknown>) =>
    h.call('players.terms.versions.publish', scope, { body, key: newKey() });
  const accept = (scope: (typeof scopes)[keyof typeof scopes], playerId: string, body: Record<string, unknown>) =>
    h.call('players.terms.accept', scope, { params: { playerId }, body, key: newKey() });
  const state = (scope: (typeof scopes)[keyof typeof scopes], playerId: string) =>
    h.call(PLAYER_STATE_SUBJECT, internal, { body: { brandId: scope.brandId, playerId } });

  // A player of the production brand registered while the operator was `off`: a legacy player once br-spa is on.
  const legacy = okBody<any>(
    t,
    await h.call('players.create', scopes.aProduction, { body: { ...validPlayer, externalId: 'legacy', cpf: randomCpf() }, key: newKey() }),
    201,
  );
  t.same([legacy.gender, legacy.signupIp], [undefined, undefined], 'nothing given, nothing shown: the player reads as before');
  okBody(
    t,
    await h.call('players.admin.setCompliance', admin, {
      params: { id: scopes.aProduction.operatorId },
      body: { profile: 'br-spa', reason: 'the operator is licensed in Brazil' },
    }),
    200,
  );

  t.test('br-spa: a registration without a loss and a time limit is 422 naming the missing ones', async (t) => {
    // The CPFs these refusals sent: the count below reads only what this test caused (a background
    // loop may check the file's other players meanwhile).
    const cpfs: string[] = [];
    const refused = (scope: (typeof scopes)[keyof typeof scopes], body: Record<string, unknown>) => {
      const cpf = randomCpf();
      cpfs.push(cpf);
      return register(scope, { ...body, cpf });
    };
    for (const scope of [scopes.aProduction, scopes.aSandbox]) {
      const none = await refused(scope, { externalId: `none-${scope.environment}` });
      errorCode(t, none, 'VALIDATION_ERROR', `${scope.environment}: no limits`);
      t.same(!none.ok && (none.error.details as any).missing, ['loss', 'time'], 'both named');
      t.same(!none.ok && (none.error.details as any).issues.map((i: any) => i.path), ['/limits', '/limits']);
      const lossOnly = await refused(scope, { externalId: `loss-${scope.environment}`, limits: [LIMITS[0]] });
      t.same(!lossOnly.ok && (lossOnly.error.details as any).missing, ['time'], `${scope.environment}: only the time limit named`);
      const timeAndDeposit = await refused(scope, {
        externalId: `time-${scope.environment}`,
        limits: [LIMITS[1], { type: 'deposit', period: 'day', value: '50.00' }],
      });
      t.same(!timeAndDeposit.ok && (timeAndDeposit.error.details as any).missing, ['loss'], `${scope.environment}: only the loss limit named`);
    }
    const none = await h.sql<{ c: string }>(
      `select count(*) c from players.players where external_id like 'none-%' or external_id like 'loss-%' or external_id like 'time-%'`,
    );
    t.equal(none[0]!.c, '0', 'no player stored');
    const audit = await h.sql<{ c: string }>(`select count(*) c from players.impediment_checks where cpf in (${cpfs.map(() => '?').join(', ')})`, cpfs);
    t.equal(audit[0]!.c, '0', 'the registry is not asked for an invalid registration');
  });

  t.test("the legacy player keeps today's refusal until they add the limits: the state shows none", async (t) => {
    t.match(okBody<any>(t, await state(scopes.aProduction, legacy.id), 200).rg, { profile: 'br-spa', limits: [] });
  });

  t.test('gender and sign-up IP are kept and returned; bad values are 422', async (t) => {
    const p = okBody<any>(
      t,
      await register(scopes.aProduction, { externalId: 'gip', cpf: randomCpf(), limits: LIMITS, gender: 'feminino', signupIp: '2001:db8::7' }),
      201,
    );
    t.same([p.gender, p.signupIp], ['feminino', '2001:db8::7']);
    t.match(okBody<any>(t, await h.call('players.get', scopes.aProduction, { params: { playerId: p.id } }), 200), {
      gender: 'feminino',
      signupIp: '2001:db8::7',
    });
    t.match(
      okBody<any>(t, await h.call('players.admin.get', admin, { params: { id: p.id } }), 200).player,
      { gender: 'feminino', signupIp: '2001:db8::7' },
      'our team sees them',
    );
    errorCode(t, await register(scopes.aProduction, { externalId: 'gip-2', limits: LIMITS, signupIp: '300.1.1.1' }), 'VALIDATION_ERROR', 'not an IP address');
    errorCode(
      t,
      await register(scopes.aProduction, { externalId: 'gip-3', limits: LIMITS, signupIp: '10.0.0.1:443' }),
      'VALIDATION_ERROR',
      'a port is not an address',
    );
    errorCode(t, await register(scopes.aProduction, { externalId: 'gip-4', limits: LIMITS, gender: 'x' }), 'VALIDATION_ERROR', 'unknown gender');
    const off = okBody<any>(t, await register(scopes.bSandbox, { externalId: 'gip-off', signupIp: '198.51.100.2', gender: 'outro' }), 201);
    t.same([off.gender, off.signupIp], ['outro', '198.51.100.2'], 'kept under the profile off too');
  });

  t.test('terms versions: published, listed, scheduled; a name once per brand; no backdating', async (t) => {
    const first = okBody<any>(t, await publish(scopes.aProduction, { version: '2026-01', url: 'https://acme.example/terms/2026-01' }), 201);
    t.match(first, { version: '2026-01', status: 'in_force', url: 'https://acme.example/terms/2026-01' });
    t.ok(first.id.startsWith('trm_'));
    errorCode(t, await publish(scopes.aProduction, { version: '2026-01' }), 'TERMS_VERSION_EXISTS');
    errorCode(t, await publish(scopes.aProduction, { version: 'old', publishedAt: new Date(Date.now() - DAY).toISOString() }), 'VALIDATION_ERROR', 'backdated');
    errorCode(t, await publish(scopes.aProduction, { version: 'http', url: 'http://acme.example/t' }), 'VALIDATION_ERROR', 'https only');
    errorCode(t, await publish(scopes.aProduction, { version: ' spaced' }), 'VALIDATION_ERROR', 'a name without spaces');
    const list = okBody<any>(t, await h.call('players.terms.versions.list', scopes.aProduction), 200).data;
    t.same(
      list.map((v: any) => [v.version, v.status]),
      [['2026-01', 'in_force']],
    );
    t.same(okBody<any>(t, await h.call('players.terms.versions.list', scopes.aSandbox), 200).data, [], "the sandbox brand's own list");
  });

  t.test('registration records the acceptance; an unknown version is 422', async (t) => {
    const unknown = await register(scopes.aProduction, { externalId: 'tac-0', limits: LIMITS, termsAccepted: { version: 'nope', ip: '203.0.113.9' } });
    errorCode(t, unknown, 'VALIDATION_ERROR');
    t.same(!unknown.ok && (unknown.error.details as any).issues.map((i: any) => i.path), ['/termsAccepted/version']);
    const future = await register(scopes.aProduction, {
      externalId: 'tac-f',
      limits: LIMITS,
      termsAccepted: { version: '2026-01', ip: '203.0.113.9', acceptedAt: new Date(Date.now() + DAY).toISOString() },
    });
    t.same(!future.ok && (future.error.details as any).issues.map((i: any) => i.path), ['/termsAccepted/acceptedAt'], 'not in the future');
    errorCode(
      t,
      await register(scopes.aProduction, { externalId: 'tac-i', limits: LIMITS, termsAccepted: { version: '2026-01' } }),
      'VALIDATION_ERROR',
      'the IP is required',
    );

    const p = okBody<any>(
      t,
      await register(scopes.aProduction, { externalId: 'tac-1', cpf: randomCpf(), limits: LIMITS, termsAccepted: { version: '2026-01', ip: '203.0.113.9' } }),
      201,
    );
    const acceptances = okBody<any>(t, await h.call('players.terms.acceptances.list', scopes.aProduction, { params: { playerId: p.id } }), 200).data;
    t.match(acceptances, [{ playerId: p.id, version: '2026-01', ip: '203.0.113.9' }]);
    t.ok(Math.abs(Date.parse(acceptances[0].acceptedAt) - Date.now()) < 60_000, 'accepted now when no time is given');
    t.same(okBody<any>(t, await state(scopes.aProduction, p.id), 200).rg.terms, null, 'nothing to accept');
    t.match(
      okBody<any>(t, await h.call('players.admin.get', admin, { params: { id: p.id } }), 200).termsAcceptances,
      [{ version: '2026-01', ip: '203.0.113.9' }],
      "our team's player file lists the acceptances (the console's player page)",
    );
    errorCode(t, await h.call('players.terms.acceptances.list', scopes.aSandbox, { params: { playerId: p.id } }), 'PLAYER_NOT_FOUND', "another brand's player");
  });

  t.test('a new version asks every br-spa player again; accepting it clears the state', async (t) => {
    const p = okBody<any>(
      t,
      await register(scopes.aProduction, { externalId: 'tac-2', cpf: randomCpf(), limits: LIMITS, termsAccepted: { version: '2026-01', ip: '203.0.113.10' } }),
      201,
    );
    t.same(okBody<any>(t, await state(scopes.aProduction, p.id), 200).rg.terms, null);
    const second = okBody<any>(t, await publish(scopes.aProduction, { version: '2026-02' }), 201);
    const due = okBody<any>(t, await state(scopes.aProduction, p.id), 200).rg.terms;
    t.same(due, { version: '2026-02', dueAt: second.publishedAt }, 'the new version is due from its publication');
    t.equal(termsPending(due, new Date()), true, 'pending now');
    t.match(okBody<any>(t, await state(scopes.aProduction, legacy.id), 200).rg.terms, { version: '2026-02' }, 'the legacy player too');
    t.same(
      okBody<any>(t, await h.call('players.terms.versions.list', scopes.aProduction), 200).data.map((v: any) => [v.version, v.status]),
      [
        ['2026-02', 'in_force'],
        ['2026-01', 'superseded'],
      ],
    );

    errorCode(
      t,
      await accept(scopes.aProduction, p.id, { version: '2026-02', ip: '203.0.113.10', acceptedAt: '2020-01-01T00:00:00.000Z' }),
      'VALIDATION_ERROR',
      'before its publication',
    );
    errorCode(t, await accept(scopes.aSandbox, p.id, { version: '2026-02', ip: '203.0.113.10' }), 'PLAYER_NOT_FOUND', "another brand's player");
    const acceptance = okBody<any>(t, await accept(scopes.aProduction, p.id, { version: '2026-02', ip: '203.0.113.11' }), 201);
    t.match(acceptance, { playerId: p.id, version: '2026-02', ip: '203.0.113.11' });
    t.ok(acceptance.id.startsWith('tac_'));
    t.same(okBody<any>(t, await state(scopes.aProduction, p.id), 200).rg.terms, null, 'accepted: nothing due');
    t.same(
      okBody<any>(t, await h.call('players.terms.acceptances.list', scopes.aProduction, { params: { playerId: p.id } }), 200).data.map((a: any) => a.version),
      ['2026-02', '2026-01'],
      'both acceptances kept, newest first',
    );
    await t.rejects(h.sql(`update players.terms_acceptances set ip = '0.0.0.0' where player_id = ?`, [p.id]), /append-only/, 'acceptances are never changed');
  });

  t.test('a scheduled version is due at its publication, without another broadcast', async (t) => {
    setRuleClockOffset(0);
    const p = okBody<any>(
      t,
      await register(scopes.aProduction, { externalId: 'tac-3', cpf: randomCpf(), limits: LIMITS, termsAccepted: { version: '2026-02', ip: '203.0.113.12' } }),
      201,
    );
    const at = new Date(Date.now() + 2 * DAY).toISOString();
    okBody(t, await publish(scopes.aProduction, { version: '2026-03', publishedAt: at }), 201);
    const due = okBody<any>(t, await state(scopes.aProduction, p.id), 200).rg.terms;
    t.same(due, { version: '2026-03', dueAt: at });
    t.equal(termsPending(due, new Date()), false, 'not yet');
    t.equal(termsPending(due, new Date(Date.parse(at) + 1)), true, 'once its time has come');
    errorCode(
      t,
      await accept(scopes.aProduction, p.id, { version: '2026-03', ip: '203.0.113.12' }),
      'VALIDATION_ERROR',
      'a scheduled version cannot be accepted yet',
    );
    t.match(
      okBody<any>(t, await h.call('players.terms.versions.list', scopes.aProduction), 200).data.map((v: any) => [v.version, v.status]),
      [
        ['2026-03', 'scheduled'],
        ['2026-02', 'in_force'],
        ['2026-01', 'superseded'],
      ],
    );
    setRuleClockOffset(2 * DAY + 1000);
    t.same(okBody<any>(t, await state(scopes.aProduction, p.id), 200).rg.terms, { version: '2026-03', dueAt: at }, 'in force now, still to accept');
    okBody(t, await accept(scopes.aProduction, p.id, { version: '2026-03', ip: '203.0.113.12' }), 201);
    t.same(okBody<any>(t, await state(scopes.aProduction, p.id), 200).rg.terms, null);
    setRuleClockOffset(0);
  });

  t.test('the sandbox brand behaves the same; the profile off carries no terms in the state', async (t) => {
    okBody(t, await publish(scopes.aSandbox, { version: 'sbx-1' }), 201);
    const p = okBody<any>(t, await register(scopes.aSandbox, { externalId: 'sbx-1', cpf: randomCpf(), limits: LIMITS }), 201);
    t.match(okBody<any>(t, await state(scopes.aSandbox, p.id), 200).rg.terms, { version: 'sbx-1' }, 'registered without accepting: due at once');
    okBody(t, await accept(scopes.aSandbox, p.id, { version: 'sbx-1', ip: '192.0.2.1' }), 201);
    t.same(okBody<any>(t, await state(scopes.aSandbox, p.id), 200).rg.terms, null);

    okBody(t, await publish(scopes.bSandbox, { version: 'off-1' }), 201);
    const off = okBody<any>(t, await register(scopes.bSandbox, { externalId: 'off-1' }), 201);
    const s = okBody<any>(t, await state(scopes.bSandbox, off.id), 200);
    t.equal(s.rg, undefined, "the profile off: v1.1's state, no terms");
    okBody(t, await accept(scopes.bSandbox, off.id, { version: 'off-1', ip: '192.0.2.2' }), 201);
  });
});
