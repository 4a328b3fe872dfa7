// A union's validation failure reads as the branch the value was meant for (issue #41): a
// self-exclusion of 13 months names `/months` and its bound, not "Expected union value" on the
// whole body; a body that fits no branch better than another gets the union's description; a
// nullable field's wrong value gets the field's own message.
import t from 'tap';
import { compilePart, PlayerLimitsSchema, SelfExclusionSchema } from '../src/index.ts';

const issuesOf = (schema: Parameters<typeof compilePart>[0], body: unknown) => {
  const r = compilePart(schema, 'body')(body);
  return 'error' in r ? (r.error.details as { issues: Array<{ path: string; message: string }> }).issues : [];
};

t.test('self-exclusion terms', async (t) => {
  t.match(issuesOf(SelfExclusionSchema, { months: 13 }), [{ path: '/months', message: /less or equal to 12/ }]);
  t.equal(issuesOf(SelfExclusionSchema, { months: 13 }).length, 1, 'one issue, on the field');
  t.match(issuesOf(SelfExclusionSchema, { months: 0 }), [{ path: '/months', message: /greater or equal to 1/ }]);
  t.match(issuesOf(SelfExclusionSchema, { indefinite: false }), [{ path: '/indefinite', message: /true/ }]);
  for (const body of [{}, { months: 1, indefinite: true }, 'x']) {
    t.match(
      issuesOf(SelfExclusionSchema, body),
      [{ path: '/', message: /\{ "months": 1\.\.12 \}.*\{ "indefinite": true \}/ }],
      `${JSON.stringify(body)}: both shapes named`,
    );
  }
  t.same(issuesOf(SelfExclusionSchema, { months: 3 }), [], 'valid');
});

t.test("a nullable field's wrong value: the field's own message", async (t) => {
  const issues = issuesOf(PlayerLimitsSchema, { dailyDepositLimit: '1.234', selfExcludedUntil: null });
  t.match(issues, [{ path: '/dailyDepositLimit', message: /decimal string with at most 2 decimals/ }]);
  t.notMatch(JSON.stringify(issues), /union/);
});
