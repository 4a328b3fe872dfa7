// Every row of the Evolution status mapping (connectors/evolution/statuses.ts,
// docs/connectors-evolution.md): each of our refusals, with the details that pick its row, reads as
// its Evolution status on each call it names, and as UNKNOWN_ERROR on the others; what the table
// does not name (a fault of ours) is UNKNOWN_ERROR. The rules themselves are the wallet's, tested
// there; connector-evolution.test.ts answers each status through the real services.
import t from 'tap';
import { EVOLUTION_WALLET_PATHS, type EvolutionWalletCall } from '@bo/contracts';
import { EVOLUTION_REFUSALS, evolutionStatusOf } from '../src/connectors/evolution/index.ts';

const CALLS = Object.keys(EVOLUTION_WALLET_PATHS) as EvolutionWalletCall[];

t.test('each row answers its status on its calls', async (t) => {
  for (const row of EVOLUTION_REFUSALS) {
    for (const value of row.when?.values ?? [undefined]) {
      const details = row.when ? { [row.when.key]: value } : {};
      const what = `${row.code}${value ? ` (${row.when!.key} ${value})` : ''}`;
      for (const call of CALLS) {
        // A code may have a row per call (TRANSACTION_CONFLICT): the first row naming the call answers.
        const expected =
          EVOLUTION_REFUSALS.find((r) => r.code === row.code && r.calls.includes(call) && (!r.when || r.when.values.includes(String(value))))?.status ??
          'UNKNOWN_ERROR';
        t.equal(evolutionStatusOf(call, { code: row.code, details }), expected, `${what} on ${call}`);
      }
    }
  }
});

t.test("Brazil's rules: every refusal of the player's standing or limits is ACCOUNT_LOCKED; the casino's side is final", async (t) => {
  for (const reason of ['impeded', 'self_excluded', 'paused', 'limits_required', 'time_limit', 'wager_limit', 'loss_limit'])
    t.equal(evolutionStatusOf('debit', { code: 'RG_BLOCKED', details: { reason } }), 'ACCOUNT_LOCKED', reason);
  for (const code of ['KYC_NOT_APPROVED', 'TERMS_NOT_ACCEPTED', 'PLAYER_NOT_ACTIVE', 'PLAYER_NOT_FOUND'])
    t.equal(evolutionStatusOf('debit', { code }), 'ACCOUNT_LOCKED', code);
  for (const code of ['PROVIDER_DISABLED', 'PROVIDER_NOT_ENABLED', 'OPERATOR_SUSPENDED', 'GAME_DISABLED'])
    t.equal(evolutionStatusOf('debit', { code }), 'FINAL_ERROR_ACTION_FAILED', code);
  t.equal(evolutionStatusOf('debit', { code: 'RG_BLOCKED', details: { reason: 'a reason added later' } }), 'UNKNOWN_ERROR', 'a reason the table does not know');
});

t.test('credits and cancels: never a refusal of the player; what the table does not name is UNKNOWN_ERROR', async (t) => {
  for (const call of ['credit', 'cancel'] as const) {
    for (const code of ['RG_BLOCKED', 'OPERATOR_SUSPENDED', 'PROVIDER_DISABLED', 'SESSION_TOKEN_EXPIRED', 'PLAYER_NOT_ACTIVE'])
      t.equal(evolutionStatusOf(call, { code, details: { reason: 'self_excluded' } }), 'UNKNOWN_ERROR', `${code} is never the wallet's answer to a ${call}`);
  }
  for (const code of ['INTERNAL_ERROR', 'SOMETHING_NEW']) t.equal(evolutionStatusOf('debit', { code }), 'UNKNOWN_ERROR', code);
  t.equal(evolutionStatusOf('credit', { code: 'SERVICE_UNAVAILABLE' }), 'TEMPORARY_ERROR', 'our outage: Evolution sends the call again');
});
