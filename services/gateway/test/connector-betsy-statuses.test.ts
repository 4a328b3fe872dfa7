// Every row of the Betsy status mapping (connectors/betsy/statuses.ts, docs/connectors-betsy.md):
// each of our refusals, with the details that pick its row, reads as its Betsy code on each call it
// names, and as the system error (100) on the others; what the table does not name (a fault of ours)
// is 100. The rules themselves are the wallet's, tested there; connector-betsy.test.ts answers each
// code through the real services.
import t from 'tap';
import type { BetsyCall } from '@bo/contracts';
import { BETSY_REFUSALS, betsyCodeOf } from '../src/connectors/betsy/index.ts';

const CALLS: BetsyCall[] = ['profile', 'balance', 'place', 'unsettle', 'settle', 'rollback', 'update'];

t.test('each row answers its code on its calls', async (t) => {
  for (const row of BETSY_REFUSALS) {
    for (const value of row.when?.values ?? [undefined]) {
      const details = row.when ? { [row.when.key]: value } : {};
      const what = `${row.code}${value ? ` (${row.when!.key} ${value})` : ''}`;
      for (const call of CALLS) {
        // A code may have a row per call (TRANSACTION_CONFLICT, ROUND_CLOSED): the first row naming the call answers.
        const expected =
          BETSY_REFUSALS.find((r) => r.code === row.code && r.calls.includes(call) && (!r.when || r.when.values.includes(String(value))))?.betsy ?? 100;
        t.equal(betsyCodeOf(call, { code: row.code, details }), expected, `${what} on ${call}`);
      }
    }
  }
});

t.test("Brazil's rules: the player's own limits have Betsy's codes, every other reason the player may not bet is 9", async (t) => {
  const rg = (reason: string) => betsyCodeOf('place', { code: 'RG_BLOCKED', details: { reason } });
  t.equal(rg('self_excluded'), 14, 'self-excluded');
  t.equal(rg('paused'), 14, 'a pause is a self-exclusion of the player’s for a time');
  t.equal(rg('wager_limit'), 11, 'the stake limit');
  t.equal(rg('loss_limit'), 12, 'the loss limit');
  t.equal(rg('registration_incomplete'), 15, 'not verified');
  for (const reason of ['impeded', 'limits_required', 'time_limit']) t.equal(rg(reason), 9, `${reason}: blocked`);
  t.equal(betsyCodeOf('place', { code: 'KYC_NOT_APPROVED' }), 15, 'KYC: not verified');
  for (const code of [
    'PROVIDER_DISABLED',
    'PROVIDER_NOT_ENABLED',
    'OPERATOR_SUSPENDED',
    'GAME_DISABLED',
    'TERMS_NOT_ACCEPTED',
    'PLAYER_NOT_ACTIVE',
    'PLAYER_NOT_FOUND',
  ])
    t.equal(betsyCodeOf('place', { code }), 9, `${code}: blocked`);
  t.equal(rg('a reason added later'), 100, 'a reason the table does not know');
});

t.test('settles, unsettles and rollbacks: never a refusal of the player; what the table does not name is 100', async (t) => {
  for (const call of ['settle', 'unsettle', 'rollback'] as const) {
    for (const code of ['RG_BLOCKED', 'OPERATOR_SUSPENDED', 'PROVIDER_DISABLED', 'PLAYER_NOT_ACTIVE', 'INSUFFICIENT_FUNDS'])
      t.equal(betsyCodeOf(call, { code, details: { reason: 'self_excluded' } }), 100, `${code} is never the wallet's answer to a ${call}`);
  }
  for (const code of ['INTERNAL_ERROR', 'SOMETHING_NEW']) t.equal(betsyCodeOf('place', { code }), 100, code);
  t.equal(betsyCodeOf('settle', { code: 'SERVICE_UNAVAILABLE' }), 100, 'our outage: Betsy sends the settle again');
  t.equal(betsyCodeOf('settle', { code: 'ROUND_CLOSED' }), 20, 'a settle of a rolled-back bet: its result cannot change');
  t.equal(betsyCodeOf('place', { code: 'ROUND_CLOSED' }), 8, 'a place bet of a settled id: already processed');
});
