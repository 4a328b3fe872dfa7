// GET /docs: a self-contained HTML page describing every operation, signing and webhooks, with an
// interactive tester that signs in the browser and refuses production (bk_live_) keys.
import { ERROR_CATALOGUE, openApiPath, type Operation } from '@bo/contracts';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function renderDocsPage(opts: { serverUrl: string; apiPrefix: string; operations: Record<string, Operation> }): string {
  const rows = Object.values(opts.operations).map((op) => `<tr><td><code>${op.method}</code></td><td><code>${esc(openApiPath(op.path))}</code></td>
    <td>${esc(op.summary)}</td><td>${op.idempotent ? 'yes' : ''}</td><td>${op.sandboxOnly ? 'sandbox only' : ''}</td><td>${op.status}</td></tr>`).join('\n');
  const errors = Object.entries(ERROR_CATALOGUE).map(([code, e]) => `<tr><td>${e.status}</td><td><code>${code}</code></td><td>${esc(e.message)}</td></tr>`).join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Operator Gaming Back-Office API</title>
<style>
 body { font: 15px/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 1000px; padding: 24px; color: #1d2330; }
 code, pre { font-family: ui-monospace, monospace; background: #f3f5f8; border-radius: 4px; }
 pre { padding: 12px; overflow-x: auto; } table { border-collapse: collapse; width: 100%; }
 td, th { border-bottom: 1px solid #e3e7ee; padding: 6px 8px; text-align: left; vertical-align: top; }
 fieldset { border: 1px solid #cfd6e2; border-radius: 6px; } label { display: block; margin: 6px 0; }
 input, select, textarea { font: inherit; width: 100%; box-sizing: border-box; } #out { white-space: pre-wrap; }
</style></head><body>
<h1>Operator Gaming Back-Office API <small>v1.1.0</small></h1>
<p>Server-to-server API. Base URL: <code>${esc(opts.serverUrl)}</code>. Machine-readable: <a href="openapi.json">openapi.json</a>,
<a href="postman.json">postman.json</a>, <a href="signing-snippets.json">signing-snippets.json</a>, <a href="test-vectors.json">test-vectors.json</a>,
<a href="changelog">changelog</a>.</p>
<h2>Authentication</h2>
<p>Every request except these public pages carries <code>X-Operator-Key</code>, <code>X-Timestamp</code> (epoch seconds, ±300 s) and
<code>X-Signature</code> = lowercase hex HMAC-SHA256 keyed with your <code>sk_</code> secret over four lines joined by LF:
the method, the path as sent (with <code>${esc(opts.apiPrefix)}</code> and the query string), the timestamp and the hex SHA-256 of the body bytes.
<code>bk_test_</code> keys act on your sandbox brand, <code>bk_live_</code> keys on production.</p>
<h2>Idempotency</h2>
<p>Operations marked idempotent require <code>Idempotency-Key</code> (8–128 of <code>A-Z a-z 0-9 _ - : .</code>). The same key and request
replays the stored response with <code>Idempotent-Replayed: true</code>; another request with the key is 409 <code>IDEMPOTENCY_CONFLICT</code>.
Keys are kept 24 hours per operator and environment; 5xx responses release the key.</p>
<h2>Operations</h2>
<table><tr><th>Method</th><th>Path</th><th>Summary</th><th>Idempotent</th><th></th><th>Success</th></tr>${rows}</table>
<h2>Webhooks</h2>
<p>Events <code>kyc.status_changed</code>, <code>deposit.confirmed</code>, <code>withdrawal.status_changed</code> (and <code>webhook.test</code>) are POSTed to your URL
with <code>X-Webhook-Id</code>, <code>X-Webhook-Timestamp</code> and <code>X-Webhook-Signature</code> = hex HMAC-SHA256 keyed with your <code>whsec_</code>
secret over <code>timestamp + "." + raw body</code>. Answer any 2xx within 10 s; other answers are retried with backoff, up to 8 attempts.
Delivery is at-least-once: deduplicate on <code>X-Webhook-Id</code>.</p>
<h2>Errors</h2>
<p>Envelope: <code>{ "error": { "code", "message", "requestId", "details" } }</code>.</p>
<table><tr><th>HTTP</th><th>Code</th><th>Meaning</th></tr>${errors}</table>
<h2>Try it (sandbox keys only)</h2>
<fieldset><label>Key <input id="key" placeholder="bk_test_..."></label>
<label>Secret <input id="secret" type="password" placeholder="sk_test_..."></label>
<label>Method <select id="method"><option>GET</option><option>POST</option></select></label>
<label>Path (after ${esc(opts.apiPrefix)}) <input id="path" value="/me"></label>
<label>Body <textarea id="body" rows="4"></textarea></label>
<button id="send">Send signed request</button></fieldset>
<pre id="out"></pre>
<script>
const hex = (buf) => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, '0')).join('');
document.getElementById('send').onclick = async () => {
  const out = document.getElementById('out');
  const key = document.getElementById('key').value.trim();
  if (!key.startsWith('bk_test_')) { out.textContent = 'The tester only accepts sandbox keys (bk_test_). Never paste production credentials into a browser.'; return; }
  const secret = document.getElementById('secret').value, method = document.getElementById('method').value;
  const path = ${JSON.stringify(opts.apiPrefix)} + document.getElementById('path').value;
  const body = method === 'GET' ? '' : document.getElementById('body').value;
  const ts = String(Math.floor(Date.now() / 1000));
  const enc = new TextEncoder();
  const digest = hex(await crypto.subtle.digest('SHA-256', enc.encode(body)));
  const k = await crypto.subtle.importKey('raw', enc.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const sig = hex(await crypto.subtle.sign('HMAC', k, enc.encode([method, path, ts, digest].join('\\n'))));
  const headers = { 'X-Operator-Key': key, 'X-Timestamp': ts, 'X-Signature': sig };
  if (body) { headers['Content-Type'] = 'application/json'; headers['Idempotency-Key'] = crypto.randomUUID(); }
  const res = await fetch(path, { method, headers, body: body || undefined });
  out.textContent = res.status + '\\n' + await res.text();
};
</script>
</body></html>`;
}
