// The HTML of the launch page and of its error pages. The page is self-contained: its CSS and
// script (this package's assets/, real files) are inlined under a per-response nonce, so an
// operator's iframe loads nothing else and the Content-Security-Policy allows nothing else.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { PlaySessionView } from '@bo/contracts';

const asset = (name: string) => readFileSync(path.join(import.meta.dirname, '../assets', name), 'utf8');
export const BASE_CSS = asset('base.css');
const GAME_CSS = asset('game.css');
const CLIENT_JS = asset('play.js');

export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** JSON that is safe inside a <script> element: no `<`, `>`, `&` or line separators survive as such. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Headers of every page: nothing cached (the URL is a credential), nothing leaked in Referer. */
export function pageHeaders(nonce?: string, publicBaseUrl?: string): Record<string, string> {
  const h: Record<string, string> = {
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
  };
  if (nonce) {
    let connect = "'self'";
    if (publicBaseUrl && URL.canParse(publicBaseUrl)) connect += ` ${new URL(publicBaseUrl).origin}`;
    // No frame-ancestors: operators embed the page in an iframe on their own sites.
    h['content-security-policy'] =
      `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src ${connect}; img-src data:; base-uri 'none'; form-action 'none'`;
  }
  return h;
}

const ERROR_TITLES: Record<number, string> = {
  403: 'This game link is not valid',
  410: 'This game session has expired',
  503: 'The game is temporarily unavailable',
};

// Refusals that a new session would not lift: the link is fine, play is not allowed now.
const PLAY_STOPPED: Record<string, string> = {
  OPERATOR_SUSPENDED: 'This game is not available',
  PLAYER_NOT_ACTIVE: 'This game is not available',
  RG_BLOCKED: 'This game is not available',
  KYC_NOT_APPROVED: 'This game is not available',
  PLAYER_NOT_FOUND: 'This game is not available',
  // Ended before its time (a restriction of the player): not "expired", and no "open a new one".
  GAME_SESSION_ENDED: 'This game session has ended',
};

export function renderErrorPage(status: number, error: { code: string; message: string }, requestId: string, nonce: string): string {
  const stopped = PLAY_STOPPED[error.code];
  const title = stopped ?? ERROR_TITLES[status] ?? (status >= 500 ? 'Something went wrong' : 'This game cannot be opened');
  const hint = stopped
    ? 'Play is not allowed at the moment; the message above says why.'
    : status === 410 || status === 403
      ? 'Go back to the site and open the game again to start a new session.'
      : 'Please try again in a moment.';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title>
<style nonce="${nonce}">${BASE_CSS}</style></head>
<body><main class="card error" data-error-code="${escapeHtml(error.code)}">
<h1 id="error-title">${escapeHtml(title)}</h1>
<p id="error-message">${escapeHtml(error.message)}</p>
<p>${escapeHtml(hint)}</p>
<p class="muted">Code ${escapeHtml(error.code)} · request ${escapeHtml(requestId)}</p>
</main></body></html>`;
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
    kind: g.kind,
    mode: view.mode,
    currency: view.currency,
    balance: view.balance,
    playable: view.playable,
    expiresAt: view.expiresAt,
    minBet: view.limits.minBet,
    maxBet: view.limits.maxBet,
    realityCheckMinutes: view.realityCheckMinutes ?? null,
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
<section id="reality-check" class="reality-check" role="alertdialog" aria-labelledby="reality-title" hidden>
<h2 id="reality-title">Reality check</h2>
<p id="reality-text"></p>
<button id="reality-continue" type="button">Continue playing</button>
</section>
<h2>Rounds</h2><ol id="history" class="history"></ol>
<p class="muted small" id="expires">Session ends at <time datetime="${escapeHtml(view.expiresAt)}">${escapeHtml(view.expiresAt.slice(11, 16))} UTC</time>.</p>
</main>
<script type="application/json" id="session-data">${scriptJson(data)}</script>
<script nonce="${nonce}">${CLIENT_JS}</script>
</body></html>`;
}
