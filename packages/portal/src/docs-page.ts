// GET /docs: the API reference rendered in the browser from /openapi.json by Scalar's standalone
// bundle (served by the portal itself from this package's dependencies, no CDN), the SDK's quick
// start, and a try-it panel that signs each operation's request in the browser with WebCrypto.
// The secret never leaves the page: it only keys the HMAC.
// No inline script: the Content-Security-Policy allows scripts from this origin only, and no eval.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Headers of the documentation page and its assets. Scalar injects its styles at runtime (style-src 'unsafe-inline'). */
export const DOCS_SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; '),
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
};

/**
 * Scalar's standalone browser bundle, resolved from this package (its own dependency), or undefined
 * when it is not installed.
 */
export function loadScalarBundle(): string | undefined {
  try {
    const main = createRequire(import.meta.url).resolve('@scalar/api-reference');
    return readFileSync(path.join(path.dirname(main), 'browser/standalone.js'), 'utf8');
  } catch {
    return undefined;
  }
}

/** The code block under "## Quick start" in the SDK's README, as written there. */
export function sdkQuickStart(readme: string): string {
  const block = /^## Quick start$[\s\S]*?^```[a-z]*\n([\s\S]*?)^```$/m.exec(readme);
  if (!block) throw new Error('the SDK README has no code block under "## Quick start"');
  return block[1]!.replace(/\n$/, '');
}

/** URLs of the page's assets (content-hashed); `scalar` is absent when the bundle is not installed. */
export interface DocsPageAssets {
  scalar?: string;
  script: string;
  css: string;
  favicon: string;
}

export function renderDocsPage(opts: { serverUrl: string; apiPrefix: string; assets: DocsPageAssets; sdkQuickStart: string }): string {
  const p = esc(opts.apiPrefix);
  const { assets } = opts;
  // docs.js runs first (both deferred, in order): it configures what Scalar reads at load.
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Operator Gaming Back-Office API reference</title>
<link rel="icon" type="image/svg+xml" href="${esc(assets.favicon)}">
<link rel="stylesheet" href="${esc(assets.css)}">
<script src="${esc(assets.script)}" defer></script>
${assets.scalar ? `<script src="${esc(assets.scalar)}" defer></script>` : ''}
</head><body>
<header class="bo-top">
  <h1>Operator Gaming Back-Office API</h1>
  <p>Server-to-server API. Base URL <code>${esc(opts.serverUrl)}</code>. Documents:
  <a href="${p}/openapi.json">openapi.json</a> · <a href="${p}/postman.json">postman.json</a> ·
  <a href="${p}/signing-snippets.json">signing-snippets.json</a> · <a href="${p}/test-vectors.json">test-vectors.json</a> ·
  <a href="${p}/changelog">changelog</a> · <a href="${p}/sdk">SDK README</a></p>
</header>
<details id="sdk" class="bo-try">
  <summary>Node.js SDK (<code>@bo/sdk</code>): quick start</summary>
  <p>The SDK signs every request, retries safely with the same <code>Idempotency-Key</code>, throws typed errors and
  verifies webhooks; Node.js 20.3 or later. How to install it, every operation, retries, errors and webhooks:
  <a href="${p}/sdk">its README</a>.</p>
  <pre id="sdk-quick-start"><code>${esc(opts.sdkQuickStart)}</code></pre>
  <p class="bo-note">With a <code>bk_test_</code> key and its <code>sk_</code> secret, it runs on the sandbox.</p>
</details>
<button id="bo-try-button" class="bo-try-button" type="button" title="Try the operation you are reading">Try it</button>
<details id="try-it" class="bo-try">
  <summary>Try it: send a signed request (sandbox keys only)</summary>
  <p class="bo-note">Signed in this browser with WebCrypto. The secret is used only as the HMAC key: it is never sent, stored or logged.
  Production keys (<code>bk_live_</code>) are refused: never paste production credentials into a browser.</p>
  <form id="bo-form" autocomplete="off">
    <label>Operator key <input id="bo-key" name="key" placeholder="bk_test_..." spellcheck="false"></label>
    <label>Secret <input id="bo-secret" name="secret" type="password" placeholder="sk_test_..." autocomplete="off"></label>
    <label>Operation <select id="bo-op"></select></label>
    <div id="bo-params"></div>
    <label id="bo-body-label">Body (JSON, sent exactly as written) <textarea id="bo-body" rows="7" spellcheck="false"></textarea></label>
    <p id="bo-idem" class="bo-note"></p>
    <button id="bo-send" type="submit">Send signed request</button>
  </form>
  <pre id="bo-out" aria-live="polite"></pre>
</details>
${assets.scalar ? '<main id="reference"></main>' : `<main id="reference"><p>The interactive reference bundle is not installed on this server; the OpenAPI document is at <a href="${p}/openapi.json">openapi.json</a>.</p></main>`}
<div id="bo-config" data-api-prefix="${p}" hidden></div>
</body></html>`;
}

/**
 * The provider wallet API's reference page (`/provider/v1/docs`): the same page and script as the
 * operators' (the script reads which key header, key prefixes and whether changes take an
 * Idempotency-Key from #bo-config), without the SDK.
 */
export function renderProviderDocsPage(opts: { serverUrl: string; apiPrefix: string; assets: DocsPageAssets }): string {
  const p = esc(opts.apiPrefix);
  const { assets } = opts;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Provider Wallet API reference</title>
<link rel="icon" type="image/svg+xml" href="${esc(assets.favicon)}">
<link rel="stylesheet" href="${esc(assets.css)}">
<script src="${esc(assets.script)}" defer></script>
${assets.scalar ? `<script src="${esc(assets.scalar)}" defer></script>` : ''}
</head><body>
<header class="bo-top">
  <h1>Provider Wallet API</h1>
  <p>Called by a game provider's server for every bet, win and rollback. Base URL <code>${esc(opts.serverUrl)}</code>. Documents:
  <a href="${p}/openapi.json">openapi.json</a> · <a href="${p}/postman.json">postman.json</a> ·
  <a href="${p}/signing-snippets.json">signing-snippets.json</a> · <a href="${p}/test-vectors.json">test-vectors.json</a></p>
  <p class="bo-note">Sign every call with <code>X-Provider-Key</code>, <code>X-Timestamp</code> and <code>X-Signature</code>;
  your <code>transactionId</code> is the idempotency key of every money call: retry with the same id.</p>
</header>
<button id="bo-try-button" class="bo-try-button" type="button" title="Try the operation you are reading">Try it</button>
<details id="try-it" class="bo-try">
  <summary>Try it: send a signed request (sandbox keys only)</summary>
  <p class="bo-note">Signed in this browser with WebCrypto. The secret is used only as the HMAC key: it is never sent, stored or logged.
  Production keys (<code>pk_live_</code>) are refused: never paste production credentials into a browser.</p>
  <form id="bo-form" autocomplete="off">
    <label>Provider key <input id="bo-key" name="key" placeholder="pk_test_..." spellcheck="false"></label>
    <label>Secret <input id="bo-secret" name="secret" type="password" placeholder="psk_test_..." autocomplete="off"></label>
    <label>Operation <select id="bo-op"></select></label>
    <div id="bo-params"></div>
    <label id="bo-body-label">Body (JSON, sent exactly as written) <textarea id="bo-body" rows="7" spellcheck="false"></textarea></label>
    <p id="bo-idem" class="bo-note"></p>
    <button id="bo-send" type="submit">Send signed request</button>
  </form>
  <pre id="bo-out" aria-live="polite"></pre>
</details>
${assets.scalar ? '<main id="reference"></main>' : `<main id="reference"><p>The interactive reference bundle is not installed on this server; the OpenAPI document is at <a href="${p}/openapi.json">openapi.json</a>.</p></main>`}
<div id="bo-config" data-api-prefix="${p}" data-key-header="X-Provider-Key" data-test-key-prefix="pk_test_" data-live-key-prefix="pk_live_" data-idempotency="false" hidden></div>
</body></html>`;
}

/** The tab's icon (linked from the page, so the browser asks for no /favicon.ico). */
export const DOCS_FAVICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#1d4ed8"/><path d="M10 7h7a4.5 4.5 0 0 1 0 9h-7zm0 9h8a4.5 4.5 0 0 1 0 9h-8z" fill="none" stroke="#fff" stroke-width="3" stroke-linejoin="round"/></svg>
`;

export const DOCS_CSS = `
html { -webkit-text-size-adjust: 100%; }
[hidden] { display: none !important; }
body { margin: 0; font: 15px/1.5 system-ui, sans-serif; color: #1d2330; overflow-x: hidden; }
.bo-top, .bo-try { box-sizing: border-box; max-width: 1100px; margin: 0 auto; padding: 12px 16px; }
.bo-top h1 { font-size: 1.4rem; margin: 8px 0; }
.bo-top p, .bo-note { overflow-wrap: anywhere; }
code, pre, textarea { font-family: ui-monospace, monospace; }
.bo-try { border: 1px solid #cfd6e2; border-radius: 8px; margin-bottom: 16px; }
.bo-try summary { cursor: pointer; font-weight: 600; }
.bo-try label { display: block; margin: 8px 0; }
.bo-try input, .bo-try select, .bo-try textarea { display: block; font: inherit; width: 100%; max-width: 100%; box-sizing: border-box; padding: 6px; }
.bo-try button { font: inherit; padding: 8px 14px; }
#bo-out { white-space: pre-wrap; overflow-wrap: anywhere; background: #f3f5f8; padding: 8px; border-radius: 4px; max-height: 60vh; overflow: auto; }
#reference { min-width: 0; }
#sdk-quick-start { overflow-x: auto; background: #f3f5f8; padding: 8px; border-radius: 4px; font-size: 13px; }
/* Scalar's footer link to its website: the reference works offline, nothing on it leads out. */
#reference a[href^="https://www.scalar.com"] { display: none !important; }
.bo-try-button { position: fixed; right: 16px; bottom: 16px; z-index: 1000; font: 600 15px/1 system-ui, sans-serif; padding: 12px 16px;
  border: 0; border-radius: 24px; background: #1d4ed8; color: #fff; box-shadow: 0 2px 8px rgba(0,0,0,.25); cursor: pointer; }
`;

/** The browser script: boots Scalar, builds the try-it form from the OpenAPI document, signs and sends. */
export const DOCS_SCRIPT = `'use strict';
// Scalar validates with Zod 4, which probes whether new Function() works to compile faster
// validators: the CSP forbids eval, so the probe is a CSP violation. Jitless Zod never probes.
// This script runs before Scalar's (both deferred, in document order).
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });
document.addEventListener('DOMContentLoaded', function () {
  var config = document.getElementById('bo-config').dataset;
  var prefix = config.apiPrefix;
  // The surface the page documents: the operators' API (the default) or the providers' (provider-docs.ts).
  var keyHeader = config.keyHeader || 'X-Operator-Key';
  var testPrefix = config.testKeyPrefix || 'bk_test_';
  var livePrefix = config.liveKeyPrefix || 'bk_live_';
  var idempotency = config.idempotency !== 'false';
  var $ = function (id) { return document.getElementById(id); };
  var enc = new TextEncoder();
  var hex = function (buf) { return Array.from(new Uint8Array(buf), function (b) { return b.toString(16).padStart(2, '0'); }).join(''); };
  var ops = [];
  var current = null;

  function field(name, where, param) {
    var label = document.createElement('label');
    label.textContent = (where === 'path' ? 'Path' : 'Query') + ' parameter ' + name + (param.required ? ' (required)' : '');
    var input = document.createElement('input');
    input.dataset.where = where; input.dataset.name = name; input.spellcheck = false;
    if (where === 'query' && param.example !== undefined) input.value = String(param.example);
    if (param.example !== undefined) input.placeholder = String(param.example);
    label.appendChild(input);
    return label;
  }

  function select(op) {
    current = op;
    var box = $('bo-params');
    box.textContent = '';
    (op.parameters || []).forEach(function (p) { if (p.in === 'path' || p.in === 'query') box.appendChild(field(p.name, p.in, p)); });
    var media = op.requestBody && op.requestBody.content && op.requestBody.content['application/json'];
    $('bo-body-label').hidden = !op.requestBody;
    $('bo-body').value = media && media.example !== undefined ? JSON.stringify(media.example, null, 2) : '';
    $('bo-idem').textContent = idempotency && op.method === 'POST'
      ? (op.idempotent ? 'Idempotent operation: a fresh Idempotency-Key is sent with every request.' : 'A fresh Idempotency-Key is sent with every request (optional for this operation).')
      : '';
  }

  // The document is fetched once, for the reference and for the try-it.
  fetch(prefix + '/openapi.json').then(function (r) { return r.text(); }).then(function (text) {
    if (window.Scalar) {
      window.Scalar.createApiReference('#reference', {
        content: text, hideTestRequestButton: true, hideClientButton: true, withDefaultFonts: false,
        showDeveloperTools: 'never', telemetry: false, hideDarkModeToggle: false, documentDownloadType: 'json',
        // Nothing that needs a remote service: no AI agent, no MCP server generation (Scalar's
        // cloud), no generated client code (it cannot sign; the signing snippets and the try-it do).
        agent: { disabled: true }, mcp: { disabled: true }, hiddenClients: true,
      });
    }
    var doc = JSON.parse(text);
    Object.keys(doc.paths).forEach(function (path) {
      Object.keys(doc.paths[path]).forEach(function (m) {
        var o = doc.paths[path][m];
        if (Array.isArray(o.security) && o.security.length === 0) return; // public documents need no signature
        var idem = (o.parameters || []).some(function (p) { return p.in === 'header' && p.name === 'Idempotency-Key' && p.required; });
        ops.push({ id: o.operationId, method: m.toUpperCase(), path: path, summary: o.summary, parameters: o.parameters, requestBody: o.requestBody, idempotent: idem });
      });
    });
    var sel = $('bo-op');
    ops.forEach(function (op, i) {
      var opt = document.createElement('option');
      opt.value = String(i); opt.textContent = op.method + ' ' + op.path + ' · ' + op.summary;
      sel.appendChild(opt);
    });
    sel.onchange = function () { select(ops[Number(sel.value)]); };
    var wanted = new URLSearchParams(location.search).get('operation');
    var start = Math.max(0, ops.findIndex(function (o) { return o.id === wanted; }));
    sel.value = String(start);
    select(ops[start]);
    document.body.dataset.tryItReady = 'true';
  });

  // "Try it" follows what is being read: Scalar's hash is #tag/<tag>/<METHOD>/<path>.
  function opFromHash() {
    var m = /\\/(GET|POST|PUT|PATCH|DELETE)(\\/.*)$/.exec(decodeURIComponent(location.hash));
    if (!m) return -1;
    return ops.findIndex(function (o) { return o.method === m[1] && o.path === m[2]; });
  }
  $('bo-try-button').addEventListener('click', function () {
    var i = opFromHash();
    if (i >= 0) { $('bo-op').value = String(i); select(ops[i]); }
    $('try-it').open = true;
    $('try-it').scrollIntoView({ block: 'start' });
    $('bo-key').focus({ preventScroll: true });
  });

  $('bo-form').addEventListener('submit', function (ev) {
    ev.preventDefault();
    send().catch(function (e) { $('bo-out').textContent = 'Error: ' + e.message; });
  });

  async function send() {
    var out = $('bo-out');
    var key = $('bo-key').value.trim();
    if (key.indexOf(livePrefix) === 0) { out.textContent = 'Refused: this is a production (' + livePrefix + ') key. The tester only accepts sandbox keys (' + testPrefix + '). Never paste production credentials into a browser.'; return; }
    if (key.indexOf(testPrefix) !== 0) { out.textContent = 'The tester only accepts sandbox keys (' + testPrefix + '...).'; return; }
    var secret = $('bo-secret').value;
    if (!secret) { out.textContent = 'Enter the secret of the key: it only keys the HMAC in this browser.'; return; }
    var op = current;
    var path = op.path, query = [], missing = [];
    document.querySelectorAll('#bo-params input').forEach(function (input) {
      var v = input.value;
      if (input.dataset.where === 'path') {
        if (!v) missing.push(input.dataset.name);
        path = path.replace('{' + input.dataset.name + '}', encodeURIComponent(v));
      } else if (v !== '') query.push(encodeURIComponent(input.dataset.name) + '=' + encodeURIComponent(v));
    });
    if (missing.length) { out.textContent = 'Fill in the path parameter(s): ' + missing.join(', '); return; }
    // The path exactly as sent, with the API prefix and the query string: that is what is signed.
    var target = prefix + path + (query.length ? '?' + query.join('&') : '');
    var body = op.requestBody ? $('bo-body').value : '';
    var ts = String(Math.floor(Date.now() / 1000));
    var digest = hex(await crypto.subtle.digest('SHA-256', enc.encode(body)));
    var canonical = [op.method, target, ts, digest].join('\\n');
    var k = await crypto.subtle.importKey('raw', enc.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    var signature = hex(await crypto.subtle.sign('HMAC', k, enc.encode(canonical)));
    var headers = {};
    headers[keyHeader] = key;
    headers['X-Timestamp'] = ts;
    headers['X-Signature'] = signature;
    if (idempotency && op.method === 'POST') headers['Idempotency-Key'] = 'docs-' + crypto.randomUUID();
    if (body) headers['Content-Type'] = 'application/json';
    out.textContent = 'Sending ' + op.method + ' ' + target + ' ...';
    var res = await fetch(target, { method: op.method, headers: headers, body: body || undefined, credentials: 'omit', cache: 'no-store', referrerPolicy: 'no-referrer' });
    var text = await res.text();
    var pretty = text;
    try { pretty = JSON.stringify(JSON.parse(text), null, 2); } catch (e) { /* not JSON */ }
    var shown = ['x-request-id', 'idempotent-replayed', 'ratelimit-remaining', 'retry-after']
      .filter(function (h) { return res.headers.get(h) !== null; }).map(function (h) { return h + ': ' + res.headers.get(h); });
    var sent = Object.keys(headers).filter(function (h) { return h !== 'X-Signature'; }).map(function (h) { return h + ': ' + headers[h]; });
    out.dataset.status = String(res.status);
    out.textContent = op.method + ' ' + target + '\\n' + sent.join('\\n') + '\\n\\nCanonical string signed:\\n' + canonical
      + '\\n\\n' + res.status + ' ' + res.statusText + '\\n' + shown.join('\\n') + '\\n\\n' + pretty;
  }
});
`;
