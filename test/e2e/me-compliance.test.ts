// GET /me tells the operator its compliance profile and what it implies (issue #56, item 6): the
// operator could not read it anywhere. Through the real gateway and players service: the defaults
// of an operator our team never set, then br-spa once our team switches it on, on both keys, each
// answer valid against the contract's schema.
import t from 'tap';
import { Value } from '@sinclair/typebox/value';
import { MeSchema, PROFILE_RULES } from '@bo/contracts';
import { waitFor } from '@bo/service-kit/testing';
import { startStack } from './support/stack.ts';

t.test('GET /me: the compliance profile and its rules', async (t) => {
  const stack = await startStack({}, ['operators', 'players', 'gateway']);
  t.teardown(() => stack.close());
  const op = await stack.createOperator('Profile Reader');

  const before = await op.sandboxClient.get('/me');
  t.equal(before.status, 200);
  t.ok(Value.Check(MeSchema, before.body), 'valid against MeSchema');
  t.same(
    before.body.compliance,
    { profile: 'off', timeZone: 'America/Sao_Paulo', coolingOffHours: 24, realityCheckMinutes: 60, rules: [] },
    'off: nothing added',
  );

  const set = await stack.admin('PUT', `/admin/operators/${op.operator.id}/compliance`, {
    profile: 'br-spa',
    timeZone: 'America/Manaus',
    coolingOffHours: 48,
    reason: 'the operator is licensed in Brazil',
  });
  t.equal(set.status, 200, 'our team switches br-spa on');
  for (const [environment, client] of [
    ['sandbox', op.sandboxClient],
    ['production', op.productionClient],
  ] as const) {
    // A replica keeps a profile it read for CREDENTIAL_CACHE_TTL_MS (1 s), as it keeps credentials.
    const me = await waitFor(async () => {
      const r = await client.get('/me');
      return r.body?.compliance?.profile === 'br-spa' ? r : undefined;
    });
    t.ok(Value.Check(MeSchema, me.body), `${environment}: valid against MeSchema`);
    t.match(
      me.body.compliance,
      { profile: 'br-spa', timeZone: 'America/Manaus', coolingOffHours: 48, realityCheckMinutes: 60 },
      `${environment}: br-spa and its settings`,
    );
    t.same(
      me.body.compliance.rules.map((r: { id: string }) => r.id),
      [
        'limits_required',
        'registration_data',
        'one_player_per_cpf',
        'impediment_checks',
        'terms_acceptance',
        'payer_is_player',
        'methods',
        'payout_to_own_account',
        'prize_clock',
        'no_marketing_to_excluded',
        'central_self_exclusion_link',
      ],
      `${environment}: what br-spa adds, rule by rule`,
    );
    t.same(me.body.compliance.rules, PROFILE_RULES['br-spa'], `${environment}: each with its summary`);
  }
});
