// The operator's compliance profile: off with the defaults until our team sets it, the settings it
// keeps, the audit trail, and bad input refused with the reason; every change a person's decision
// with its reason, and turning the br-spa rules off a request a second person confirms (issue #56).
import t, { type Test } from 'tap';
import { Value } from '@sinclair/typebox/value';
import { ComplianceChangeSchema, OperatorComplianceSchema, type Scope } from '@bo/contracts';
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
    const reply = await h.call('players.admin.setCompliance', admin, {
      params: { id: scopes.aSandbox.operatorId },
      body: { profile: 'br-spa', reason: 'licensed in Brazil' },
    });
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
    t.same(
      await h.lastAudit('operator:op_A'),
      { target: 'operator:op_A', before: { operatorId: 'op_A', ...defaults }, after: { ...set, reason: 'licensed in Brazil' } },
      'audited in its transaction, with its reason',
    );

    const changed = okBody<any>(
      t,
      await h.call('players.admin.setCompliance', admin, {
        params: { id: 'op_A' },
        body: { profile: 'br-spa', timeZone: 'America/Manaus', coolingOffHours: 48, realityCheckMinutes: 30, reason: 'the brand is in Manaus' },
      }),
      200,
    );
    t.match(changed, { profile: 'br-spa', timeZone: 'America/Manaus', coolingOffHours: 48, realityCheckMinutes: 30 });
    const kept = okBody<any>(
      t,
      await h.call('players.admin.setCompliance', admin, { params: { id: 'op_A' }, body: { profile: 'br-spa', reason: 'no change of settings' } }),
      200,
    );
    t.match(kept, { profile: 'br-spa', timeZone: 'America/Manaus', coolingOffHours: 48, realityCheckMinutes: 30 }, 'omitted settings are kept');
    t.same(okBody(t, await h.call('players.compliance.get', internal, { body: { operatorId: 'op_A' } }), 200), kept);
    t.same(
      okBody<any>(t, await h.call('players.compliance.get', internal, { body: { operatorId: 'op_B' } }), 200).profile,
      'off',
      'another operator is untouched',
    );
  });

  t.test('bad input: 422 with the field', async (t) => {
    for (const body of [
      { profile: 'br', reason: 'why not' },
      {},
      { profile: 'br-spa', timeZone: 'Mars/Olympus', reason: 'why not' },
      { profile: 'br-spa', coolingOffHours: -1, reason: 'why not' },
      { profile: 'br-spa', realityCheckMinutes: 0, reason: 'why not' },
      { profile: 'br-spa', realityCheckMinutes: '60', reason: 'why not' },
      // Every change is a person's decision with its reason (issue #56).
      { profile: 'br-spa' },
      { profile: 'br-spa', reason: '    ' },
      { profile: 'br-spa', reason: 'x'.repeat(501) },
    ]) {
      errorCode(t, await h.call('players.admin.setCompliance', admin, { params: { id: 'op_C' }, body }), 'VALIDATION_ERROR', JSON.stringify(body));
    }
    t.equal(okBody<any>(t, await h.call('players.admin.getCompliance', admin, { params: { id: 'op_C' } }), 200).updatedAt, null, 'nothing was stored');
  });

  t.test('only our team sets it', async (t) => {
    errorCode(
      t,
      await h.call('players.admin.setCompliance', scopes.aSandbox, { params: { id: 'op_A' }, body: { profile: 'off', reason: 'an operator' } }),
      'UNAUTHORIZED',
    );
    errorCode(
      t,
      await h.call('players.admin.requestComplianceChange', scopes.aSandbox, { params: { id: 'op_A' }, body: { profile: 'off', reason: 'an operator' } }),
      'UNAUTHORIZED',
    );
  });

  const ana: Scope = { kind: 'admin', actor: 'user:ana@ourteam.example', personId: 'usr_ana' };
  const bia: Scope = { kind: 'admin', actor: 'user:bia@ourteam.example', personId: 'usr_bia' };
  const profileOf = async (t: Test, id: string) => okBody<any>(t, await h.call('players.admin.getCompliance', admin, { params: { id } }), 200).profile;
  const count = async (change: string) =>
    Number((await h.svc.metrics.getSingleMetricAsString('bo_compliance_profile_changes_total')).match(new RegExp(`change="${change}"[^}]*} (\\d+)`))?.[1]);

  t.test('turning the br-spa rules off takes two people: one requests, another confirms (issue #56)', async (t) => {
    const [onBefore, offBefore] = [await count('rules_on'), await count('rules_off')];
    okBody(t, await h.call('players.admin.setCompliance', ana, { params: { id: 'op_D' }, body: { profile: 'br-spa', reason: 'licensed in Brazil' } }), 200);
    t.equal(await count('rules_on'), onBefore + 1, 'turning the rules on is counted');

    const direct = await h.call('players.admin.setCompliance', ana, { params: { id: 'op_D' }, body: { profile: 'off', reason: 'the operator left Brazil' } });
    errorCode(t, direct, 'FOUR_EYES_REQUIRED', 'one person alone cannot turn them off');
    t.match(direct.ok ? undefined : direct.error, { details: { requestWith: 'POST /admin/operators/op_D/compliance/changes' } }, 'the refusal names the way');
    t.equal(await profileOf(t, 'op_D'), 'br-spa', 'nothing changed');
    errorCode(
      t,
      await h.call('players.admin.requestComplianceChange', ana, { params: { id: 'op_D' }, body: { profile: 'br-spa', reason: 'nothing to confirm' } }),
      'VALIDATION_ERROR',
      'only turning the rules off waits for a second person',
    );
    errorCode(
      t,
      await h.call('players.admin.requestComplianceChange', ana, { params: { id: 'op_D' }, body: { profile: 'off' } }),
      'VALIDATION_ERROR',
      'a reason',
    );

    const requested = await h.call('players.admin.requestComplianceChange', ana, {
      params: { id: 'op_D' },
      body: { profile: 'off', realityCheckMinutes: 90, reason: 'the operator left Brazil' },
    });
    const change = okBody<any>(t, requested, 201);
    t.match(change, {
      id: /^cpc_/,
      operatorId: 'op_D',
      status: 'pending',
      change: { profile: 'off', realityCheckMinutes: 90 },
      fromProfile: 'br-spa',
      reason: 'the operator left Brazil',
      requestedBy: 'user:ana@ourteam.example',
      decidedBy: null,
    });
    t.equal(Date.parse(change.expiresAt) - Date.parse(change.requestedAt), 24 * 3_600_000, 'it waits 24 h at most');
    t.ok(Value.Check(ComplianceChangeSchema, change));
    t.equal(await profileOf(t, 'op_D'), 'br-spa', 'requested: nothing changed yet');
    t.match(await h.lastAudit('operator:op_D'), { before: { profile: 'br-spa' }, after: { id: change.id, status: 'pending' } }, 'the request is audited');
    t.equal(await count('rules_off_requested'), 1, 'and counted: the alert to compliance');
    const again = await h.call('players.admin.requestComplianceChange', bia, { params: { id: 'op_D' }, body: { profile: 'off', reason: 'me too' } });
    errorCode(t, again, 'COMPLIANCE_CHANGE_PENDING', 'one pending change per operator');
    t.same(again.ok ? undefined : again.error.details, { changeId: change.id });

    const confirm = (who: Scope, id = change.id) =>
      h.call('players.admin.confirmComplianceChange', who, { params: { id: 'op_D', changeId: id }, body: { reason: 'checked with legal' } });
    errorCode(t, await confirm(ana), 'FOUR_EYES_REQUIRED', 'not by the person who requested it');
    errorCode(t, await confirm({ ...ana, actor: 'user:other-name@ourteam.example' }), 'FOUR_EYES_REQUIRED', 'people are compared, not names');
    errorCode(t, await confirm(bia, 'cpc_nope'), 'COMPLIANCE_CHANGE_NOT_FOUND');
    errorCode(
      t,
      await h.call('players.admin.confirmComplianceChange', bia, { params: { id: 'op_D', changeId: change.id }, body: {} }),
      'VALIDATION_ERROR',
      'the second person gives a reason too',
    );
    t.equal(await profileOf(t, 'op_D'), 'br-spa', 'still on');
    const confirmed = okBody<any>(t, await confirm(bia), 200);
    t.match(confirmed, { id: change.id, status: 'confirmed', decidedBy: 'user:bia@ourteam.example', decisionReason: 'checked with legal', decidedAt: /Z$/ });
    t.match(okBody<any>(t, await h.call('players.compliance.get', internal, { body: { operatorId: 'op_D' } }), 200), {
      profile: 'off',
      realityCheckMinutes: 90,
      updatedBy: 'user:bia@ourteam.example',
    });
    t.match(
      await h.lastAudit('operator:op_D'),
      { before: { profile: 'br-spa' }, after: { profile: 'off', change: { id: change.id, status: 'confirmed', reason: 'the operator left Brazil' } } },
      'the confirmation is audited, with both reasons',
    );
    t.equal(await count('rules_off'), offBefore + 1, 'turned off: counted');
    errorCode(t, await confirm(bia), 'COMPLIANCE_CHANGE_NOT_PENDING', 'confirmed once');
  });

  t.test('a pending change is cancelled (its requester too) or expires, and changes nothing', async (t) => {
    okBody(t, await h.call('players.admin.setCompliance', ana, { params: { id: 'op_E' }, body: { profile: 'br-spa', reason: 'licensed in Brazil' } }), 200);
    const request = async () =>
      okBody<any>(t, await h.call('players.admin.requestComplianceChange', ana, { params: { id: 'op_E' }, body: { profile: 'off', reason: 'a test' } }), 201);
    const first = await request();
    const cancelled = okBody<any>(
      t,
      await h.call('players.admin.cancelComplianceChange', ana, { params: { id: 'op_E', changeId: first.id }, body: { reason: 'asked by mistake' } }),
      200,
    );
    t.match(cancelled, { status: 'cancelled', decidedBy: 'user:ana@ourteam.example', decisionReason: 'asked by mistake' });
    errorCode(
      t,
      await h.call('players.admin.confirmComplianceChange', bia, { params: { id: 'op_E', changeId: first.id }, body: { reason: 'too late' } }),
      'COMPLIANCE_CHANGE_NOT_PENDING',
    );
    const second = await request();
    t.not(second.id, first.id, 'a cancelled change leaves room for another');
    await h.sql(`update players.compliance_changes set expires_at = now() - interval '1 second' where id = ?`, [second.id]);
    const late = await h.call('players.admin.confirmComplianceChange', bia, { params: { id: 'op_E', changeId: second.id }, body: { reason: 'too late' } });
    errorCode(t, late, 'COMPLIANCE_CHANGE_NOT_PENDING', 'expired: never applied');
    t.same(late.ok ? undefined : late.error.details, { status: 'expired' });
    t.equal(await profileOf(t, 'op_E'), 'br-spa', 'the rules stayed on');
    const third = await request();
    t.not(third.id, second.id, 'an expired change leaves room for another');
    const list = async (query: Record<string, unknown>) =>
      okBody<any>(t, await h.call('players.admin.listComplianceChanges', admin, { query: { operatorId: 'op_E', ...query } }), 200).data.map((c: any) => [
        c.id,
        c.status,
      ]);
    t.same(await list({}), [
      [third.id, 'pending'],
      [second.id, 'expired'],
      [first.id, 'cancelled'],
    ]);
    t.same(await list({ status: 'pending' }), [[third.id, 'pending']], 'the notice: what waits for a second person');
    t.same(await list({ status: 'expired' }), [[second.id, 'expired']]);
  });
});
