// The game launch page (gameUrl) and its play endpoint, outside /api/v1 and without operator
// auth: the signed launch token in the URL is the credential. The gateway never holds the
// token's key; it forwards the token to the wallet's games module, which verifies it, decides
// every round server-side and records it: demo sessions move a fictitious balance, real
// sessions the player's money through the wallet's ledger (the page shows the withdrawable
// balance, `available − held`, which is what a bet can take). The page is self-contained (inline
// CSS and JS under a nonce CSP, no external assets) because operators embed it in an iframe.
//
//   GET  /play/:token          HTML page of the session (302 to the provider for external games)
//   POST /play/:token/rounds   JSON: plays one round → 201 PlayRoundResult or the error envelope
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { NatsConnection } from '@nats-io/transport-node';
import {
  AppError, ERROR_CATALOGUE, GAME_PLAY_SUBJECTS, isAppError, requestOperation,
  type ErrorBody, type OperationReply, type PlaySessionView,
} from '@bo/contracts';

export interface PlayRoutesOptions {
  nc: NatsConnection;
  prefix: string;
  rpcTimeoutMs: number;
  /** The gateway's public address; the page may talk to it besides its own origin. */
  publicBaseUrl: string;
  /** Largest round body accepted (default 4 KiB; a round is a few short fields). */
  roundBodyLimitBytes?: number;
}

// A launch token is `v1.<gs_id>.<exp>.<sig>`; anything far from that shape is refused here
// without a round trip. The wallet does the real verification.
const TOKEN_SHAPE = /^[A-Za-z0-9._-]{10,200}$/;
const GATEWAY_SCOPE = { kind: 'internal', service: 'gateway' } as const;

/**
 * Registered on the public server, outside /api/v1: `app.register(playRoutes, { nc, prefix, ... })`.
 * `prefix` here is the NATS prefix, but Fastify reads a `prefix` register option as a route
 * prefix; wrapped with fastify-plugin the option is not applied to routes, and the routes live in
 * an encapsulated child (its own body parser) registered without one, so they stay at /play/...
 */
export const playRoutes = fp(async (app: FastifyInstance, opts: PlayRoutesOptions): Promise<void> => {
  await app.register(playRoutesScope, { play: opts });
}, { name: 'play-routes', fastify: '5.x' });

async function playRoutesScope(app: FastifyInstance, { play: opts }: { play: PlayRoutesOptions }): Promise<void> {
  const limit = opts.roundBodyLimitBytes ?? 4096;
  // Own body parsing in this scope: bodies arrive as bytes whatever the parent app registered,
  // and become a JSON object here (the gateway's public app parses nothing by itself).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: limit }, (_req, body, done) => done(null, body));

  const ask = async <R>(subject: string, req: FastifyRequest, token: string, body: unknown): Promise<OperationReply<R>> =>
    requestOperation<R>(opts.nc, subject, {
      ctx: { requestId: String(req.id), scope: GATEWAY_SCOPE }, params: { token }, query: {}, body,
    }, { prefix: opts.prefix, timeoutMs: opts.rpcTimeoutMs });

  app.get<{ Params: { token: string } }>('/play/:token', async (req, reply) => {
    const token = req.params.token;
    setRequestId(req, reply);
    if (!TOKEN_SHAPE.test(token)) return sendErrorPage(reply, req, new AppError('LAUNCH_TOKEN_INVALID').toBody());
    let result: OperationReply<PlaySessionView>;
    try {
      result = await ask<PlaySessionView>(GAME_PLAY_SUBJECTS.session, req, token, {});
    } catch (e) {
      return sendErrorPage(reply, req, asErrorBody(e, req), isAppError(e) ? e.headers : undefined);
    }
    if (!result.ok) return sendErrorPage(reply, req, result.error);
    const view = result.body;
    if (view.launch.type === 'redirect') {
      // External games run at their provider; no-referrer keeps our token out of its logs.
      return reply.code(302).headers(pageHeaders()).header('location', view.launch.url).send();
    }
    const nonce = randomBytes(16).toString('base64');
    return reply.code(200).headers(pageHeaders(nonce, opts.publicBaseUrl)).type('text/html; charset=utf-8').send(renderGamePage(view, nonce));
  });

  app.post<{ Params: { token: string } }>('/play/:token/rounds', async (req, reply) => {
    const token = req.params.token;
    setRequestId(req, reply);
    reply.header('cache-control', 'no-store');
    if (!TOKEN_SHAPE.test(token)) return sendJsonError(reply, req, new AppError('LAUNCH_TOKEN_INVALID').toBody());
    let result: OperationReply;
    try {
      const body = parseJsonObject(req.body);
      result = await ask(GAME_PLAY_SUBJECTS.round, req, token, body);
    } catch (e) {
      if (isAppError(e) && e.headers) reply.headers(e.headers);
      return sendJsonError(reply, req, asErrorBody(e, req));
    }
    if (!result.ok) return sendJsonError(reply, req, result.error);
    return reply.code(result.status).type('application/json').send(result.body);
  });
}

function setRequestId(req: FastifyRequest, reply: FastifyReply): void {
  if (!reply.hasHeader('x-request-id')) reply.header('x-request-id', String(req.id));
}

function asErrorBody(e: unknown, req: FastifyRequest): ErrorBody {
  if (isAppError(e)) return e.toBody();
  req.log.error({ err: e, requestId: req.id }, 'play route failed');
  return new AppError('INTERNAL_ERROR').toBody();
}

function statusOfError(body: ErrorBody): number {
  return ERROR_CATALOGUE[body.code]?.status ?? 500;
}

function parseJsonObject(raw: unknown): Record<string, unknown> {
  const text = Buffer.isBuffer(raw) ? raw.toString('utf8') : typeof raw === 'string' ? raw : '';
  if (text.trim() === '') return {};
  let value: unknown;
  try { value = JSON.parse(text); } catch {
    throw new AppError('VALIDATION_ERROR', 'The body is not valid JSON.', { in: 'body', issues: [{ path: '/', message: 'The body is not valid JSON.' }] });
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new AppError('VALIDATION_ERROR', 'The body must be a JSON object.', { in: 'body', issues: [{ path: '/', message: 'The body must be a JSON object.' }] });
  }
  return value as Record<string, unknown>;
}

function sendJsonError(reply: FastifyReply, req: FastifyRequest, body: ErrorBody): FastifyReply {
  const envelope = { error: { code: body.code, message: body.message, requestId: String(req.id), ...(body.details !== undefined ? { details: body.details } : {}) } };
  return reply.code(statusOfError(body)).type('application/json').send(envelope);
}

/** Headers of every page: nothing cached (the URL is a credential), nothing leaked in Referer. */
function pageHeaders(nonce?: string, publicBaseUrl?: string): Record<string, string> {
  const h: Record<string, string> = {
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
  };
  if (nonce) {
    let connect = "'self'";
    if (publicBaseUrl && URL.canParse(publicBaseUrl)) connect += ` ${new URL(publicBaseUrl).origin}`;
    // No frame-ancestors: operators embed the page in an iframe on their own sites.
    h['content-security-policy'] = `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src ${connect}; img-src data:; base-uri 'none'; form-action 'none'`;
  }
  return h;
}

// ---- HTML ----

export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** JSON that is safe inside a <script> element: no `<`, `>`, `&` or line separators survive as such. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const ERROR_TITLES: Record<number, string> = {
  403: 'This game link is not valid',
  410: 'This game session has expired',
  503: 'The game is temporarily unavailable',
};

function sendErrorPage(reply: FastifyReply, req: FastifyRequest, body: ErrorBody, headers?: Record<string, string>): FastifyReply {
  const status = statusOfError(body);
  if (status >= 500 && body.code === 'INTERNAL_ERROR') req.log.warn({ requestId: req.id }, 'play page failed');
  const nonce = randomBytes(16).toString('base64');
  const title = ERROR_TITLES[status] ?? (status >= 500 ? 'Something went wrong' : 'This game cannot be opened');
  const hint = status === 410 || status === 403 ? 'Go back to the site and open the game again to start a new session.' : 'Please try again in a moment.';
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title>
<style nonce="${nonce}">${BASE_CSS}</style></head>
<body><main class="card error" data-error-code="${escapeHtml(body.code)}">
<h1 id="error-title">${escapeHtml(title)}</h1>
<p id="error-message">${escapeHtml(body.message)}</p>
<p>${escapeHtml(hint)}</p>
<p class="muted">Code ${escapeHtml(body.code)} · request ${escapeHtml(String(req.id))}</p>
</main></body></html>`;
  if (headers) reply.headers(headers);
  return reply.code(status).headers(pageHeaders(nonce)).type('text/html; charset=utf-8').send(html);
}

const KIND_CONTROLS: Record<string, string> = {
  crash: `<label>Cash out at × <input id="target" name="target" inputmode="decimal" value="2.00" autocomplete="off"></label>`,
  dice: `<label>Roll under <input id="target" name="target" inputmode="numeric" value="50" autocomplete="off"></label>`,
  roulette: `<label>Bet on <select id="pick" name="pick">
  <option value="red">Red</option><option value="black">Black</option><option value="odd">Odd</option>
  <option value="even">Even</option><option value="low">1–18</option><option value="high">19–36</option></select></label>`,
  slots: '',
};

const KIND_HELP: Record<string, string> = {
  crash: 'The multiplier climbs until it crashes. If it reaches your cash-out target, you win bet × target.',
  dice: 'A number from 1 to 100 is rolled. Below your number wins; the lower your number, the higher the pay.',
  roulette: 'European roulette, even-money bets pay 2× (0 loses).',
  slots: 'Three of a kind pays from 8× (cherries) to 500× (sevens); two cherries pay 1.5×.',
};

export function renderGamePage(view: PlaySessionView, nonce: string): string {
  const g = view.game;
  const demo = view.mode === 'demo';
  const data = {
    kind: g.kind, mode: view.mode, currency: view.currency, balance: view.balance, playable: view.playable,
    expiresAt: view.expiresAt, minBet: view.limits.minBet, maxBet: view.limits.maxBet,
  };
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(g.name)}</title>
<style nonce="${nonce}">${BASE_CSS}${GAME_CSS}</style></head>
<body><main class="card" data-game-id="${escapeHtml(g.id)}" data-kind="${escapeHtml(g.kind)}" data-mode="${escapeHtml(view.mode)}">
<header><h1 id="game-name">${escapeHtml(g.name)}</h1>
<span class="badge ${demo ? 'demo' : 'real'}" id="mode">${demo ? 'DEMO · fictitious balance' : 'REAL MONEY'}</span></header>
<p class="muted">${escapeHtml(g.provider)} · ${escapeHtml(g.category)}</p>
<section class="balance">Balance <strong id="balance">${view.balance === null ? '—' : escapeHtml(view.balance)}</strong> <span id="currency">${escapeHtml(view.currency)}</span>${demo ? '' : '<span class="muted small" id="balance-note"> · real money you can bet or withdraw</span>'}</section>
${view.notice ? `<p class="notice" id="notice">${escapeHtml(view.notice)}</p>` : ''}
<form id="bet-form" autocomplete="off">
<label>Bet <input id="amount" name="amount" inputmode="decimal" value="1.00"></label>
${KIND_CONTROLS[g.kind] ?? ''}
<button id="play" type="submit"${view.playable ? '' : ' disabled'}>Play</button>
</form>
<p class="muted small">${escapeHtml(KIND_HELP[g.kind] ?? '')} Bets ${escapeHtml(view.limits.minBet)}–${escapeHtml(view.limits.maxBet)}.</p>
<section id="stage" class="stage" aria-hidden="true"></section>
<section id="outcome" class="outcome" aria-live="polite"></section>
<h2>Rounds</h2><ol id="history" class="history"></ol>
<p class="muted small" id="expires">Session ends at <time datetime="${escapeHtml(view.expiresAt)}">${escapeHtml(view.expiresAt.slice(11, 16))} UTC</time>.</p>
</main>
<script type="application/json" id="session-data">${scriptJson(data)}</script>
<script nonce="${nonce}">${CLIENT_JS}</script>
</body></html>`;
}

const BASE_CSS = `
*{box-sizing:border-box}body{margin:0;font:16px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#0f172a;color:#e2e8f0;display:flex;justify-content:center;padding:16px}
.card{background:#1e293b;border-radius:12px;padding:20px 24px;max-width:520px;width:100%;box-shadow:0 8px 30px rgba(0,0,0,.35)}
h1{font-size:1.4rem;margin:0}h2{font-size:1rem;margin:16px 0 4px}.muted{color:#94a3b8}.small{font-size:.85rem}
.error h1{color:#fca5a5}`;

const GAME_CSS = `
header{display:flex;justify-content:space-between;align-items:center;gap:8px}
.badge{font-size:.75rem;padding:3px 8px;border-radius:999px;font-weight:600}.badge.demo{background:#854d0e;color:#fef08a}.badge.real{background:#14532d;color:#bbf7d0}
.balance{font-size:1.2rem;margin:12px 0}#balance{font-size:1.6rem;color:#f8fafc}
form{display:flex;flex-wrap:wrap;gap:10px;align-items:end}label{display:flex;flex-direction:column;font-size:.85rem;color:#cbd5e1;gap:4px}
input,select{background:#0f172a;color:#f8fafc;border:1px solid #475569;border-radius:8px;padding:8px;width:120px;font-size:1rem}
button{background:#22c55e;color:#052e16;border:0;border-radius:8px;padding:10px 26px;font-weight:700;font-size:1rem;cursor:pointer}
button:disabled{background:#475569;color:#cbd5e1;cursor:not-allowed}
.stage{min-height:64px;font-size:2.4rem;text-align:center;margin:12px 0;font-variant-numeric:tabular-nums}
.outcome{min-height:1.5em;font-weight:600}.outcome.win{color:#4ade80}.outcome.lose{color:#f87171}.outcome.err{color:#fbbf24}
.notice{background:#422006;color:#fde68a;padding:8px 12px;border-radius:8px}
.history{padding-left:20px;margin:0;font-size:.85rem;color:#cbd5e1;max-height:160px;overflow:auto}
.red{color:#ef4444}.black{color:#e2e8f0}.green{color:#22c55e}`;

// Plain ES2020, no template literals: it lives inside one. Every value shown goes through
// textContent, never innerHTML.
const CLIENT_JS = `
(function () {
  'use strict';
  var S = JSON.parse(document.getElementById('session-data').textContent);
  var $ = function (id) { return document.getElementById(id); };
  var form = $('bet-form'), btn = $('play'), amountEl = $('amount'), targetEl = $('target'), pickEl = $('pick');
  var stage = $('stage'), outcome = $('outcome'), balanceEl = $('balance'), history = $('history');
  var SYMBOLS = { cherry: '\\u{1F352}', lemon: '\\u{1F34B}', orange: '\\u{1F34A}', grape: '\\u{1F347}', bell: '\\u{1F514}', seven: '7\\uFE0F\\u20E3' };
  var pendingRoundId = null, busy = false;

  function newRoundId() {
    var b = new Uint8Array(16); crypto.getRandomValues(b);
    return Array.prototype.map.call(b, function (x) { return ('0' + x.toString(16)).slice(-2); }).join('');
  }
  function sleep(ms) { return new Promise(function (r) { setTimeout(r, ms); }); }
  function show(text, cls) { outcome.textContent = text; outcome.className = 'outcome ' + (cls || ''); }

  async function animate(r) {
    var o = r.outcome;
    if (S.kind === 'crash') {
      var end = Number(o.crashPoint), m = 1;
      while (m < end) { stage.textContent = m.toFixed(2) + '\\u00D7'; await sleep(30); m = Math.min(end, m * 1.06 + 0.01); }
      stage.textContent = Number(o.crashPoint).toFixed(2) + '\\u00D7 \\u{1F4A5}';
    } else if (S.kind === 'dice') {
      for (var i = 0; i < 12; i++) { stage.textContent = String(1 + Math.floor(Math.random() * 100)); await sleep(40); }
      stage.textContent = String(o.roll);
    } else if (S.kind === 'roulette') {
      for (var j = 0; j < 12; j++) { stage.textContent = String(Math.floor(Math.random() * 37)); await sleep(40); }
      stage.textContent = String(o.number); stage.className = 'stage ' + o.color;
    } else if (S.kind === 'slots') {
      var keys = Object.keys(SYMBOLS);
      for (var k = 0; k < 10; k++) { stage.textContent = [0, 1, 2].map(function () { return SYMBOLS[keys[Math.floor(Math.random() * keys.length)]]; }).join(' '); await sleep(50); }
      stage.textContent = o.reels.map(function (s) { return SYMBOLS[s] || s; }).join(' ');
    }
  }

  function describe(r) {
    var o = r.outcome;
    if (S.kind === 'crash') return 'Crashed at ' + o.crashPoint + '\\u00D7 (target ' + o.target + '\\u00D7)';
    if (S.kind === 'dice') return 'Rolled ' + o.roll + ' (under ' + o.target + ')';
    if (S.kind === 'roulette') return 'Ball on ' + o.number + ' ' + o.color + ' (bet ' + o.pick + ')';
    if (S.kind === 'slots') return o.reels.join(' \\u00B7 ');
    return '';
  }

  async function play() {
    if (busy || !S.playable) return;
    busy = true; btn.disabled = true; stage.className = 'stage';
    show('Playing\\u2026');
    var body = { amount: amountEl.value.trim(), clientRoundId: pendingRoundId || (pendingRoundId = newRoundId()) };
    if (targetEl) body.target = targetEl.value.trim();
    if (pickEl) body.pick = pickEl.value;
    try {
      var res = await fetch(location.pathname.replace(/\\/+$/, '') + '/rounds', {
        method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body), credentials: 'omit', cache: 'no-store',
      });
      var data = await res.json().catch(function () { return null; });
      // A definite answer: the next click is a new round. After a network error the same id is
      // sent again, so a round the server already played is returned instead of played twice.
      pendingRoundId = null;
      if (!res.ok) {
        var err = (data && data.error) || { code: 'HTTP_' + res.status, message: 'The round could not be played.' };
        var issues = err.details && err.details.issues ? ': ' + err.details.issues.map(function (i) { return i.path.replace('/', '') + ' ' + i.message; }).join('; ') : '';
        show(err.message + issues, 'err');
        outcome.dataset.errorCode = err.code;
        // A refused bet says what can be bet now (the balance may have moved elsewhere, e.g. a withdrawal).
        if (err.details && typeof err.details.balance === 'string') { balanceEl.textContent = err.details.balance; }
        // Expired or forged link, or a player who may no longer play (403): no more rounds here.
        if (res.status === 410 || res.status === 403 || res.status === 501) { S.playable = false; }
        return;
      }
      await animate(data);
      balanceEl.textContent = data.balanceAfter === null ? '\\u2014' : data.balanceAfter;
      show((data.win ? 'You won ' + data.payout : 'No win this time') + ' \\u2014 ' + describe(data), data.win ? 'win' : 'lose');
      delete outcome.dataset.errorCode;
      outcome.dataset.roundId = data.id;
      outcome.dataset.win = String(data.win);
      outcome.dataset.payout = data.payout;
      outcome.dataset.balanceAfter = data.balanceAfter === null ? '' : data.balanceAfter;
      var li = document.createElement('li');
      li.textContent = 'Bet ' + data.amount + ' \\u2192 ' + (data.win ? '+' + data.payout : '0.00') + ' \\u00B7 ' + describe(data) + ' \\u00B7 balance ' + data.balanceAfter;
      history.insertBefore(li, history.firstChild);
    } catch (e) {
      show('Network error; press Play to try again (the same round is resumed).', 'err');
    } finally {
      busy = false; btn.disabled = !S.playable;
    }
  }

  form.addEventListener('submit', function (e) { e.preventDefault(); play(); });
})();
`;
