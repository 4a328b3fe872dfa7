// Every row of the Hub88 status mapping (connectors/hub88/statuses.ts, docs/connectors-hub88.md):
// each of our refusals, with the details that pick its row, reads as its Hub88 status on each call
// it names, and as RS_ERROR_UNKNOWN on the others; what the table does not name is RS_ERROR_UNKNOWN.
// The rules themselves (which player, limit or standing refuses a bet) are the wallet's, tested
// there; connector-hub88.test.ts answers each status through the real services.
import t from 'tap';
import { HUB88_WALLET_PATHS, type Hub88WalletCall } from '@bo/contracts';
import { hub88StatusOf } from '../src/connectors/hub88/statuses.ts';
import { HUB88_REFUSALS } from '../src/connectors/hub88/index.ts';

const CALLS = Object.keys(HUB88_WALLET_PATHS) as Hub88WalletCall[];

t.test('each row answers its status on its calls', async (t) => {
  for (const row of HUB88_REFUSALS) {
    for (const value of row.when?.values ?? [undefined]) {
      const details = row.when ? { [row.when.key]: value } : {};
      const what = `${row.code}${value ? ` (${row.when!.key} ${value})` : ''}`;
      for (const call of CALLS) {
        const expected = row.calls.includes(call)
          ? row.status
          : // A later row may name the same code for this call (ROUND_CLOSED's general row): the first match answers.
            (HUB88_REFUSALS.find((r) => r.code === row.code && r.calls.includes(call) && (!r.when || r.when.values.includes(String(value))))?.status ??
            'RS_ERROR_UNKNOWN');
        t.equal(hub88StatusOf(call, { code: row.code, details }), expected, `${what} on ${call}`);
      }
    }
  }
});

t.test("Brazil's rules: the player's limits are not rolled back by Hub88; every other refusal of the player is RS_ERROR_USER_DISABLED", async (t) => {
  for (const reason of ['time_limit', 'wager_limit', 'loss_limit'])
    t.equal(hub88StatusOf('bet', { code: 'RG_BLOCKED', details: { reason } }), 'RS_ERROR_LIMIT_REACHED', reason);
  for (const reason of ['impeded', 'self_excluded', 'paused', 'limits_required'])
    t.equal(hub88StatusOf('bet', { code: 'RG_BLOCKED', details: { reason } }), 'RS_ERROR_USER_DISABLED', reason);
  for (const code of ['KYC_NOT_APPROVED', 'TERMS_NOT_ACCEPTED', 'PLAYER_NOT_ACTIVE', 'PLAYER_NOT_FOUND'])
    t.equal(hub88StatusOf('bet', { code }), 'RS_ERROR_USER_DISABLED', code);
  t.equal(hub88StatusOf('bet', { code: 'RG_BLOCKED', details: { reason: 'a reason added later' } }), 'RS_ERROR_UNKNOWN', 'a reason the table does not know');
});

t.test('what the table does not name is RS_ERROR_UNKNOWN', async (t) => {
  for (const code of ['SERVICE_UNAVAILABLE', 'INTERNAL_ERROR', 'SOMETHING_NEW']) t.equal(hub88StatusOf('bet', { code }), 'RS_ERROR_UNKNOWN', code);
  t.equal(hub88StatusOf('win', { code: 'ROUND_CLOSED', details: { status: 'settled' } }), 'RS_ERROR_UNKNOWN', 'a win on a settled round');
  t.equal(hub88StatusOf('win', { code: 'ROUND_CLOSED', details: { status: 'voided' } }), 'RS_ERROR_TRANSACTION_DOES_NOT_EXIST', 'a win on a voided round');
});
