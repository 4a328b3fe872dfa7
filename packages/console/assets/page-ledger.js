// Ledger verification (finance): every balance recomputed from the entries, differences listed.
import { html, api, useAction, ErrorNote, say } from './kit.js';
import { useState } from 'preact/hooks';

export function LedgerPage() {
  const action = useAction();
  const [result, setResult] = useState(undefined);
  const verify = async () => setResult(await action.run(() => api('GET', '/admin/ledger/verify')));
  return html`<div>
    <p>${say(
      'Recalcula o saldo de cada conta a partir dos seus lançamentos e confere que todos os saldos somam zero.',
      "Recomputes every account's balance from its entries and checks that all balances sum to zero.",
    )}</p>
    <button type="button" onClick=${verify} disabled=${action.busy}>${action.busy ? say('Verificando…', 'Verifying…') : say('Verificar o razão', 'Verify the ledger')}</button>
    ${result ? html`<p role="status" data-verdict=${result.ok ? 'ok' : 'differences'}><strong>${result.ok ? say('O razão confere.', 'The ledger ties.') : say('O razão não confere: veja as diferenças abaixo.', 'The ledger does not tie: see the differences below.')}</strong></p>` : null}
    <${ErrorNote} error=${action.error} />
    ${result ? html`<pre class=${result.ok ? 'verdict ok' : 'verdict error'} data-verbatim>${JSON.stringify(result, null, 2)}</pre>` : null}
  </div>`;
}
