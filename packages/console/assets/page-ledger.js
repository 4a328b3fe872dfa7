// Ledger verification (finance): every balance recomputed from the entries, differences listed.
import { html, api, useAction, ErrorNote } from './kit.js';
import { useState } from 'preact/hooks';

export function LedgerPage() {
  const action = useAction();
  const [result, setResult] = useState(undefined);
  const verify = async () => setResult(await action.run(() => api('GET', '/admin/ledger/verify')));
  return html`<div>
    <p>Recomputes every account's balance from its entries and checks that all balances sum to zero.</p>
    <button type="button" onClick=${verify} disabled=${action.busy}>${action.busy ? 'Verifying…' : 'Verify the ledger'}</button>
    <${ErrorNote} error=${action.error} />
    ${result ? html`<pre class=${result.ok ? 'verdict ok' : 'verdict error'} role="status">${JSON.stringify(result, null, 2)}</pre>` : null}
  </div>`;
}
