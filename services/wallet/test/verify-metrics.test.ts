// The last ledger verification is visible on the wallet's metrics, for an alert to watch.
import t from 'tap';
import { startStack, playersService } from '@bo/test-support';
import { walletService } from '../src/service.ts';

t.test('ledger verification metrics', async (t) => {
  const stack = await startStack(t, 'verifymetrics', [playersService, walletService]);
  const wallet = stack.services.get('wallet')!;
  t.notMatch(await wallet.metrics.metrics(), /bo_ledger_verify_ok\{[^}]*\} \d/, 'nothing before the first verification');
  const v = await stack.verifyLedger();
  t.equal(v.ok, true);
  const text = await wallet.metrics.metrics();
  t.match(text, /bo_ledger_verify_ok\{service="wallet"\} 1/);
  t.match(text, /bo_ledger_verify_issues\{service="wallet"\} 0/);
  t.match(text, /bo_ledger_verify_last_run_timestamp_seconds\{service="wallet"\} \d+/);
});
