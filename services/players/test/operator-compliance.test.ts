// The operator's compliance profile: off with the defaults until our team sets it, the settings it
// keeps, the audit trail, and bad input refused with the reason.
import t from 'tap';
import { Value } from '@sinclair/typebox/value';
import { OperatorComplianceSchema } from '@bo/contracts';
import { admin, errorCode, internal, okBody, scopes, startPlayers } from './harness.ts';

t.test('operator compliance profile', async (t) => {
  const h = await startPlayers(t, 'compliance');
  const defaults = {
    profile: 'off',
    timeZone: 'America/Sao_Paulo',
    coolingOffHours: 24,
    realityCheckMinutes: 60,
    selfExclusionPlatformUrl: null,
    updatedAt: null,
    updatedBy: null,
  };

  t.test('never set: off with the defaults, for the team and for other services', async (t) => {
    const viaAdmin = okBody<any>(t, await h.call('players.admin.getCompliance', admin, { params: { id: 'op_new' } }), 200);
    t.same(viaAdmin, { operatorId: 'op_new', ...defaults });
    t.ok(Value.Check(OperatorComplianceSchema, viaAdmin));
    const viaMessage = okBody<any>(t, await h.call('players.compliance.get', internal, { body: { operatorId: 'op_new' } }), 200);
    t.same(viaMessage, viaAdmin);
  });

  t.test('set: kept per operator, settings default or given, audited before/after', async (t) => {
    const reply = await h.call('players.admin.setCompliance', admin, { params: { id: scopes.aSandbox.operatorId }, body: { profile: 'br-spa' } });
    const set = okBody<any>(t, reply, 200);
    t.match(set, {
      operatorId: 'op_A',
      profile: 'br-spa',
      timeZone: 'America/Sao_Paulo',
      coolingOffHours: 24,
      realityCheckMinutes: 60,
      updatedBy: 'compliance@team',
    });
    t.ok(Date.parse(set.updatedAt) > 0);
    t.same(reply.ok && reply.audit, { target: 'operator:op_A', before: { operatorId: 'op_A', ...defaults }, after: set });

    const changed = okBody<any>(
      t,
      await h.call('players.admin.setCompliance', admin, {
        params: { id: 'op_A' },
        body: { profile: 'br-spa', timeZone: 'America/Manaus', coolingOffHours: 48, realityCheckMinutes: 30 },
      }),
      200,
    );
    t.match(changed, { profile: 'br-spa', timeZone: 'America/Manaus', coolingOffHours: 48, realityCheckMinutes: 30 });
    const kept = okBody<any>(t, await h.call('players.admin.setCompliance', admin, { params: { id: 'op_A' }, body: { profile: 'off' } }), 200);
    t.match(kept, { profile: 'off', timeZone: 'America/Manaus', coolingOffHours: 48, realityCheckMinutes: 30 }, 'omitted settings are kept');
    t.same(okBody(t, await h.call('players.compliance.get', internal, { body: { operatorId: 'op_A' } }), 200), kept);
    t.same(
      okBody<any>(t, await h.call('players.compliance.get', internal, { body: { operatorId: 'op_B' } }), 200).profile,
      'off',
      'another operator is untouched',
    );
  });

  t.test('bad input: 422 with the field', async (t) => {
    for (const body of [
      { profile: 'br' },
      {},
      { profile: 'br-spa', timeZone: 'Mars/Olympus' },
      { profile: 'br-spa', coolingOffHours: -1 },
      { profile: 'br-spa', realityCheckMinutes: 0 },
      { profile: 'br-spa', realityCheckMinutes: '60' },
    ]) {
      errorCode(t, await h.call('players.admin.setCompliance', admin, { params: { id: 'op_C' }, body }), 'VALIDATION_ERROR', JSON.stringify(body));
    }
    t.equal(okBody<any>(t, await h.call('players.admin.getCompliance', admin, { params: { id: 'op_C' } }), 200).updatedAt, null, 'nothing was stored');
  });

  t.test('only our team sets it', async (t) => {
    errorCode(t, await h.call('players.admin.setCompliance', scopes.aSandbox, { params: { id: 'op_A' }, body: { profile: 'off' } }), 'UNAUTHORIZED');
  });
});
