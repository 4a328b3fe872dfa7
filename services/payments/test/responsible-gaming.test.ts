// Responsible gaming on deposit create, with the real players, wallet and payments services on
// real Postgres and NATS: br-spa's required limits, pause, self-exclusion, deposit limits by day,
// week and month in the operator's time zone (23:59 and 00:01 São Paulo are different days), a
// lower limit in force before its answer, 50 concurrent deposits that never pass a limit, the
// usage the players service shows, and `player.limit.reached`.
import t from 'tap';
import { setRuleClockOffset } from '@bo/service-kit/testing';
import type { OperatorScope } from '@bo/contracts';
import { BR_SPA_LIMITS, BR_SPA_REGISTRATION } from '@bo/test-support';
import { startPaymentsStack, operatorScope, adminScope, ok, errorOf, key, publishedEvents } from './support/stack.ts';

t.test('responsible gaming on deposits', async (t) => {
  const stack = await startPaymentsStack(t, 'rgdep');
  const { money, call } = stack;
  t.teardown(() => setRuleClockOffset(0));

  const brSpa = async (scope: OperatorScope) =>
    ok(
      await call('players.admin.setCompliance', {
        scope: adminScope,
        params: { id: scope.operatorId },
        body: { profile: 'br-spa', reason: 'the operator is licensed in Brazil' },
      }),
    );
  const setLimit = async (scope: OperatorScope, playerId: string, type: string, period: string, value: unknown) =>
    call<any>('players.rg.setLimit', { scope, key: key('lim'), params: { playerId, type, period }, body: { value } });
  const deposit = (scope: OperatorScope, playerId: string, amount: string) => money.createDeposit(scope, playerId, { amount });
  const rgReason = (reply: Parameters<typeof errorOf>[0]) => {
    const e = errorOf(reply);
    return e?.code === 'RG_BLOCKED' ? (e.details as { reason: string }).reason : (e?.code ?? 'ok');
  };
  /** A br-spa player with the required loss and time limits. */
  const completePlayer = (scope: OperatorScope) =>
    money.player(scope, {
      limits: [
        { type: 'loss', period: 'month', value: '5000.00' },
        { type: 'time', period: 'day', value: 240 },
      ],
    });

  t.test('br-spa: no deposit without a loss and a time limit; pause; self-exclusion', async (t) => {
    const scope = operatorScope('rg1');
    // Registered before the switch: a br-spa registration itself requires the two limits (422).
    const player = await money.player(scope);
    await brSpa(scope);
    t.equal(rgReason(await deposit(scope, player, '10.00')), 'limits_required');
    ok(await setLimit(scope, player, 'loss', 'day', '100.00'));
    t.equal(rgReason(await deposit(scope, player, '10.00')), 'limits_required', 'a loss limit alone is not enough');
    ok(await setLimit(scope, player, 'time', 'day', 60));
    t.equal(rgReason(await deposit(scope, player, '10.00')), 'ok', 'both limits: deposits allowed');

    ok(
      await call('players.rg.pause', {
        scope,
        key: key('p'),
        params: { playerId: player },
        body: { until: new Date(Date.now() + 2 * 86_400_000).toISOString() },
      }),
    );
    const paused = errorOf(await deposit(scope, player, '10.00'));
    t.match(paused, { code: 'RG_BLOCKED', details: { reason: 'paused', until: String } }, 'the pause is in force as soon as it was answered');

    const other = await completePlayer(scope);
    ok(await call('players.rg.selfExclude', { scope, key: key('se'), params: { playerId: other }, body: { months: 1 } }));
    t.equal(rgReason(await deposit(scope, other, '10.00')), 'self_excluded');

    const offScope = operatorScope('rg1off');
    const offPlayer = await money.player(offScope);
    t.equal(rgReason(await deposit(offScope, offPlayer, '10.00')), 'ok', 'profile off: no limit required');
  });

  t.test('br-spa: a player whose registration data is incomplete deposits nothing until the operator completes it (issue #60)', async (t) => {
    const scope = operatorScope('rg7');
    // Registered before the switch with its limits but without the rest of the data (Portaria 1.231/2024 art. 31 as amended).
    const player = await money.player(scope, { incomplete: true, limits: BR_SPA_LIMITS });
    t.equal(rgReason(await deposit(scope, player, '10.00')), 'ok', 'off: nothing required (the state is cached now)');
    await brSpa(scope);
    const refused = errorOf(await deposit(scope, player, '10.00'));
    t.match(
      refused,
      { code: 'RG_BLOCKED', details: { reason: 'registration_incomplete', missing: ['phone', 'gender', 'signupIp', 'address'] } },
      'refused at once',
    );
    ok(await call('players.update', { scope, key: key('upd'), params: { playerId: player }, body: BR_SPA_REGISTRATION }));
    t.equal(rgReason(await deposit(scope, player, '10.00')), 'ok', 'completed: deposits again, in force before the PATCH answered');
  });

  t.test('br-spa: a new terms version refuses the next deposit until the player accepts it', async (t) => {
    const scope = operatorScope('rg6');
    await brSpa(scope);
    const player = await completePlayer(scope);
    t.equal(rgReason(await deposit(scope, player, '10.00')), 'ok', 'no terms published: nothing to accept (the state is cached now)');
    ok(await call('players.terms.versions.publish', { scope, key: key('tv'), body: { version: 'v2' } }));
    const refused = errorOf(await deposit(scope, player, '10.00'));
    t.match(refused, { code: 'TERMS_NOT_ACCEPTED', details: { version: 'v2' } }, 'in force before the publication answered');
    ok(await call('players.terms.accept', { scope, key: key('ta'), params: { playerId: player }, body: { version: 'v2', ip: '203.0.113.5' } }));
    t.equal(rgReason(await deposit(scope, player, '10.00')), 'ok', 'accepted: deposits again');
  });

  t.test('switching an operator to br-spa is in force before its answer (cached player states dropped)', async (t) => {
    const scope = operatorScope('rg5');
    const player = await money.player(scope);
    t.equal(rgReason(await deposit(scope, player, '10.00')), 'ok', 'off: the state is cached now');
    await brSpa(scope);
    t.equal(rgReason(await deposit(scope, player, '10.00')), 'limits_required');
  });

  t.test('a lower limit is in force before its answer; a higher one only after the cooling-off', async (t) => {
    setRuleClockOffset(0);
    const scope = operatorScope('rg2');
    const player = await money.player(scope);
    ok(await setLimit(scope, player, 'deposit', 'week', '100.00'));
    ok(await deposit(scope, player, '50.00'));
    ok(await setLimit(scope, player, 'deposit', 'week', '40.00'));
    const refused = errorOf(await deposit(scope, player, '1.00'));
    t.match(refused, { code: 'RG_BLOCKED', details: { reason: 'deposit_limit', period: 'week', limit: '40.00', resetsAt: String } });
    const resetsAt = Date.parse((refused!.details as { resetsAt: string }).resetsAt);
    t.ok(resetsAt > Date.now() && resetsAt <= Date.now() + 7 * 86_400_000, 'the week ends within 7 days');

    ok(await setLimit(scope, player, 'deposit', 'week', '500.00'));
    t.equal(rgReason(await deposit(scope, player, '1.00')), 'deposit_limit', 'the raise waits');
    setRuleClockOffset(24 * 3_600_000 + 1000);
    // The cached state carries the pending value and its time: no new answer of the players service is needed.
    const after = await deposit(scope, player, '1.00');
    // Unless the week ended in the meantime, 51.00 of this week is now under 500.00.
    t.equal(rgReason(after), 'ok', 'the raise is in force after the cooling-off');
    setRuleClockOffset(0);
  });

  t.test('periods follow the operator time zone: 23:59 and 00:01 in São Paulo are different days', async (t) => {
    const scope = operatorScope('rg3');
    const player = await money.player(scope);
    ok(await setLimit(scope, player, 'deposit', 'day', '100.00'));
    const at = (iso: string) => setRuleClockOffset(Date.parse(iso) - Date.now());
    at('2030-11-26T23:59:00-03:00');
    ok(await deposit(scope, player, '60.00'));
    at('2030-11-26T23:59:30-03:00');
    const late = errorOf(await deposit(scope, player, '50.00'));
    t.match(
      late,
      { code: 'RG_BLOCKED', details: { reason: 'deposit_limit', period: 'day', resetsAt: '2030-11-27T03:00:00.000Z' } },
      'the day ends at midnight São Paulo',
    );
    at('2030-11-27T00:01:00-03:00');
    ok(await deposit(scope, player, '50.00'));
    t.pass('00:01 is a new day');
    // 03:01 UTC is still the 27th in São Paulo and in UTC: the day's 50.00 counts.
    t.equal(rgReason(await deposit(scope, player, '50.01')), 'deposit_limit');
    setRuleClockOffset(0);
  });

  t.test('50 concurrent deposits near the limit never pass it', async (t) => {
    setRuleClockOffset(0);
    const scope = operatorScope('rg4');
    await brSpa(scope);
    const player = await completePlayer(scope);
    ok(await setLimit(scope, player, 'deposit', 'month', '100.00'));
    ok(await deposit(scope, player, '75.00'));
    const replies = await Promise.all(Array.from({ length: 50 }, () => deposit(scope, player, '5.00')));
    t.equal(replies.filter((r) => r.ok).length, 5, 'exactly the 5 that fit');
    t.ok(
      replies.filter((r) => !r.ok).every((r) => rgReason(r) === 'deposit_limit'),
      'the others refused for the limit',
    );
    const { rows } = await stack.sql.query(`select sum(amount)::text as total from payments.deposits where player_id = $1 and status <> 'failed'`, [player]);
    t.equal(rows[0].total, '100.00', 'the month holds exactly the limit');

    const view = ok(await call<any>('players.rg.get', { scope, params: { playerId: player } }));
    t.match(
      view.limits.find((l: any) => l.type === 'deposit'),
      { period: 'month', value: '100.00', used: '100.00' },
      'the players service shows the usage payments counts',
    );
    const reached = (await publishedEvents(stack)).filter((e) => e.type === 'player.limit.reached' && (e.data as any).playerId === player);
    t.ok(reached.length >= 1, 'player.limit.reached announced');
    t.match(reached[0]?.data, { type: 'deposit', period: 'month', value: '100.00' });
  });
});
