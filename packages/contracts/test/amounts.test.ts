// Amounts our team sets on the admin API (the four-eyes threshold, a player's daily deposit limit)
// follow the rule of the public request amounts (docs/decisions.md): written as
// ^(0|[1-9][0-9]*)(\.[0-9]{1,2})?$ and at most 1000000.00; 0 is allowed, each field saying what it
// means. Checked the way the gateway and the services check them (compilePart).
import t from 'tap';
import { CreateDepositSchema, MAX_AMOUNT, PlayerLimitsSchema, compilePart, paymentAdminOperations, type AppError, type ValidationIssue } from '../src/index.ts';

const fourEyes = compilePart(paymentAdminOperations.adminSetFourEyes.body!, 'body');
const limits = compilePart(PlayerLimitsSchema, 'body');
const deposit = compilePart(CreateDepositSchema, 'body');

/** The issues of one field, as `path: message`. */
function issuesOf(result: { value: unknown } | { error: AppError }): string[] {
  const issues = 'error' in result ? ((result.error.details as { issues?: ValidationIssue[] } | undefined)?.issues ?? []) : [];
  return issues.map((i) => `${i.path}: ${i.message}`);
}
const fourEyesIssues = (minAmount: unknown) => issuesOf(fourEyes({ minAmount }));
const limitIssues = (dailyDepositLimit: unknown) => issuesOf(limits({ dailyDepositLimit, selfExcludedUntil: null }));
const depositIssues = (amount: string) => issuesOf(deposit({ amount, currency: 'BRL', method: 'pix', externalReference: 'r-1' }));

/** A value as the test names it (a long one shortened). */
const label = (v: string) => (v.length > 20 ? `${v.slice(0, 8)}… (${v.length} characters)` : JSON.stringify(v));

const MESSAGE = `Must be a decimal string with at most 2 decimals, from 0 up to ${MAX_AMOUNT} (e.g. 1000.00).`;
const ACCEPTED = ['0', '0.00', '0.5', '1', '10.5', '1000.00', '999999.99', '1000000', '1000000.0', '1000000.00'];
// Written wrong (as a public amount is refused) or over the maximum.
const REFUSED = [
  '00.10',
  '01',
  '1000000.01',
  '1000001',
  '9999999999999.99',
  `1${'0'.repeat(5000)}`,
  '-1',
  '1.234',
  '1.',
  '.5',
  '',
  ' 1',
  '1e3',
  '1,00',
  '+1',
  '0x10',
  '１',
];

t.test('the four-eyes threshold: the public amount rule, 0 included', async (t) => {
  for (const v of ACCEPTED) t.same(fourEyesIssues(v), [], `${v}: accepted`);
  for (const v of REFUSED) t.same(fourEyesIssues(v), [`/minAmount: ${MESSAGE}`], `${label(v)}: refused`);
  t.same(fourEyesIssues(1000), [`/minAmount: ${MESSAGE}`], 'a number: refused (no coercion)');
  t.same(fourEyesIssues(undefined), [`/minAmount: ${MESSAGE}`], 'missing');
});

t.test("a player's daily deposit limit: the same rule; null removes it, 0 allows no deposit", async (t) => {
  for (const v of [...ACCEPTED, null]) t.same(limitIssues(v), [], `${v}: accepted`);
  for (const v of REFUSED) t.equal(limitIssues(v).length, 1, `${label(v)}: refused`);
  t.match(limitIssues('1000000.01'), [/^\/dailyDepositLimit: /], 'the issue points at the field');
});

t.test('the same shapes as a public amount; the public one is also > 0, which its domain code checks', async (t) => {
  for (const v of ACCEPTED) t.same(depositIssues(v), [], `${v}: written as a public amount`);
  for (const v of REFUSED.filter((r) => !['1000000.01', '1000001', '9999999999999.99'].includes(r) && r.length < 100)) {
    t.equal(depositIssues(v).length, 1, `${label(v)}: refused as a public amount too`);
  }
});
