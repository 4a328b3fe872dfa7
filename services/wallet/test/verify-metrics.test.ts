// The last ledger verification is visible on the wallet's metrics, for an alert to watch.
import t from 'tap';
import { startStack, playersService } from '@bo/test-support';
import { walletService } from '../src/service.ts';

t.test('ledger verification metrics', async (t) => {
  const stack = await startStack(t, 'verifymetrics', [playersService, walletService]);
  const wallet = stack.services.get('wallet')!;
  // There from the start at 0 (absent means down); the last run at 0 says "none yet", not "broke".
  const before = await wallet.metrics.metrics();
  t.match(before, /bo_ledger_verify_ok\{service="wallet"\} 0\n/, 'ok at 0 before the first verification');
  t.match(before, /bo_ledger_verify_issues\{service="wallet"\} 0\n/, 'no issues');
  t.match(before, /bo_ledger_verify_last_run_timestamp_seconds\{service="wallet"\} 0\n/, 'and no run yet');
  const v = await stack.verifyLedger();
  t.equal(v.ok, true);
  const text = await wallet.metrics.metrics();
  t.match(text, /bo_ledger_verify_ok\{service="wallet"\} 1/);
  t.match(text, /bo_ledger_verify_issues\{service="wallet"\} 0/);
  t.match(text, /bo_ledger_verify_last_run_timestamp_seconds\{service="wallet"\} \d+/);
});
