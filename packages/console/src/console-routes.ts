// The team console, a Fastify plugin the gateway mounts on its admin port (never the public one):
// the sign-in page at `/`, the pages (one shell; Preact + htm modules from this package's own
// dependencies, no build step, no CDN), their assets (this package's assets/), and the session
// routes. Pages talk to the admin API with the session cookie and the session's CSRF token, under a
// strict Content-Security-Policy. Accounts and sessions live behind the ConsoleAccounts port; a
// refusal is thrown as an AppError, which the host's error handler renders as the envelope.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { AppError, collectIssues, isAppError, validationError } from '@bo/contracts';
import { jsonObjectBody, keepRawBodies, parseJsonObject, requireJsonMediaType } from '@bo/http-kit';
import type { ConsoleAccounts, ConsoleIdentity, RequestOrigin } from './console-accounts.ts';
import { checkCsrf, sessionCookie, sessionTokenOf } from './session-cookie.ts';

/** The console's icon: served, so a browser's automatic /favicon.ico request finds one (no 404 in its console). */
const ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#1f3b57"/><path d="M4 4h5a2.5 2.5 0 0 1 0 5H4zm0 5h5.5a2.5 2.5 0 0 1 0 5H4z" fill="none" stroke="#fff" stroke-width="1.6"/></svg>`;
const ICON_LINK = '<link rel="icon" href="/favicon.ico" type="image/svg+xml">';

/**
 * The browser modules the pages import, resolved from this package (its own dependencies):
 * import.meta.resolve finds their ESM builds, the ones a browser can import.
 */
const VENDOR: Record<string, string> = {
  'preact.mjs': fileURLToPath(import.meta.resolve('preact')),
  'hooks.mjs': fileURLToPath(import.meta.resolve('preact/hooks')),
  'htm.mjs': fileURLToPath(import.meta.resolve('htm')),
  // Draws the two-factor setup's QR code in the page: the secret never leaves the browser for an image service.
  'qrcode.mjs': fileURLToPath(import.meta.resolve('qrcode-generator')),
};
const ASSET = /^[a-z][a-z-]*\.(js|css)$/;
const ASSETS = path.join(import.meta.dirname, '../assets');
/** A file the console serves: its text and the tag of its content it is asked again by. */
interface Asset {
  body: string;
  etag: string;
}
const asset = (file: string): Asset => {
  const body = readFileSync(file, 'utf8');
  return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"` };
};
/** Every script and style the console serves (`app.js`, `vendor/preact.mjs`), read once as the process starts. */
const FILES = new Map<string, Asset>([
  ...readdirSync(ASSETS)
    .filter((f) => ASSET.test(f))
    .sort()
    .map((f): [string, Asset] => [f, asset(path.join(ASSETS, f))]),
  ...Object.entries(VENDOR).map(([f, file]): [string, Asset] => [`vendor/${f}`, asset(file)]),
]);
/**
 * One tag for all of them (their names and contents, hashed): the pages name their assets under
 * `/console/v/<version>/`, answered as kept for a year, so a page after the first loads its thirty-odd
 * modules from the browser's cache without asking (a third of the browser's work per page, issue #71).
 * A release that changes a file is a new version, so a changed file is never read from an old cache.
 */
export const ASSET_VERSION = (() => {
  const hash = createHash('sha256');
  for (const [name, { etag }] of FILES) hash.update(`${name} ${etag}\n`);
  return hash.digest('base64url').slice(0, 16);
})();
const ASSETS_URL = `/console/v/${ASSET_VERSION}`;

const SIGN_IN_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Back-office console: sign in</title><link rel="stylesheet" href="${ASSETS_URL}/console.css">${ICON_LINK}</head>
<body><main class="narrow"><h1>Back-office console</h1>
<form id="sign-in"><label for="email">E-mail</label><input id="email" name="email" type="email" autocomplete="username" required>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<div id="totp-field" hidden><label for="totp">Code from your authenticator app</label><input id="totp" name="totp" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6"></div>
<button type="submit">Sign in</button></form>
<button id="sign-out" hidden>Sign out</button><p id="status" role="status"></p>
</main>
<script src="${ASSETS_URL}/sign-in.js"></script></body></html>`;

const IMPORT_MAP = JSON.stringify({
  imports: {
    preact: `${ASSETS_URL}/vendor/preact.mjs`,
    'preact/hooks': `${ASSETS_URL}/vendor/hooks.mjs`,
    htm: `${ASSETS_URL}/vendor/htm.mjs`,
    'qrcode-generator': `${ASSETS_URL}/vendor/qrcode.mjs`,
  },
});
/** Every page of the console; each is the same shell, the script renders the page of the path. */
const CONSOLE_PAGES = [
  'kyc',
  'withdrawals',
  'players',
  'operators',
  'webhooks',
  'aml',
  'harm',
  'reports',
  'impediments',
  'audit',
  'ledger',
  'account',
  'team',
  'providers',
  'unclaimed',
  'fund-transfers',
  'integrity',
  'privacy',
  'setup',
] as const;
const PAGE_SHELL = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Back-office console</title><link rel="stylesheet" href="${ASSETS_URL}/console.css">${ICON_LINK}
<script type="importmap">${IMPORT_MAP}</script></head>
<body><div id="app"><p>Loading…</p></div><script type="module" src="${ASSETS_URL}/app.js"></script></body></html>`;
/** The import map is the one inline script: allowed by its hash, nothing else inline runs. */
const IMPORT_MAP_HASH = `'sha256-${createHash('sha256').update(IMPORT_MAP).digest('base64')}'`;
const CSP = `default-src 'none'; script-src 'self' ${IMPORT_MAP_HASH}; style-src 'self'; connect-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`;
const CONTENT_TYPES = { js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8' } as const;
const SignIn = TypeCompiler.Compile(
  Type.Object({
    email: Type.String({ minLength: 3, maxLength: 254 }),
    password: Type.String({ minLength: 1, maxLength: 200 }),
    totp: Type.Optional(Type.String({ maxLength: 10 })),
  }),
);
const TotpCode = TypeCompiler.Compile(Type.Object({ code: Type.String({ pattern: '^[0-9]{6}$' }) }));
// The policy (length, not the e-mail, not a common password) is the accounts' to judge; only the bounds here.
const PasswordChange = TypeCompiler.Compile(
  Type.Object({ currentPassword: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })), newPassword: Type.String({ minLength: 1, maxLength: 200 }) }),
);
const originOf = (req: FastifyRequest): RequestOrigin => ({ address: req.ip, requestId: req.id });
/** A back-off refusal says when to try again in Retry-After too (its details carry the seconds). */
const withRetryAfter = (e: unknown): unknown => {
  const seconds = isAppError(e) && e.code === 'RATE_LIMITED' ? e.details?.retryAfterSeconds : undefined;
  return typeof seconds === 'number' && isAppError(e) ? new AppError(e.code, e.message, e.details, { 'retry-after': String(seconds) }) : e;
};

export interface ConsoleOptions<Who extends ConsoleIdentity = ConsoleIdentity> {
  accounts: ConsoleAccounts<Who>;
  /** How long a session lives at most: the cookie's Max-Age. */
  policy: { absoluteHours: number };
  /** The cookie's Secure attribute (off only for local development over plain http). */
  secureCookie: boolean;
}

/** Registered on the admin server: `app.register(consoleRoutes, { accounts, policy, secureCookie })`. */
export async function consoleRoutes<Who extends ConsoleIdentity>(app: FastifyInstance, o: ConsoleOptions<Who>): Promise<void> {
  // Bodies as bytes, parsed by the API's JSON rules (the same parser the gateway's apps use).
  keepRawBodies(app);
  app.addHook('onSend', async (req, reply, payload) => {
    if (!req.url.startsWith('/admin/')) {
      reply
        .header('content-security-policy', CSP)
        .header('x-frame-options', 'DENY')
        .header('x-content-type-options', 'nosniff')
        .header('referrer-policy', 'no-referrer');
      // The pages and every answer are never kept; the scripts and styles (no one's data) are kept and asked
      // again each time (assets below).
      if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    }
    return payload;
  });
  app.get('/', async (_req, reply) => reply.type('text/html; charset=utf-8').send(SIGN_IN_PAGE));
  app.get('/favicon.ico', async (_req, reply) => reply.type('image/svg+xml').send(ICON));
  for (const page of CONSOLE_PAGES) app.get(`/${page}`, async (_req, reply) => reply.type('text/html; charset=utf-8').send(PAGE_SHELL));
  // Under this process's version (the pages' links): kept for a year, never asked again. Under another version
  // (a page loaded before a release, asking after it) or none (an older page's links): the files as they are
  // now, kept and asked again each time (no-cache: an unchanged one is answered 304 and the browser reuses the
  // code it compiled), so an old page never holds a new file in its cache under its old name. A name that is
  // not one of FILES is 404.
  const sendAsset = (req: FastifyRequest, reply: FastifyReply, name: string) => {
    const asset = FILES.get(name);
    if (!asset) throw new AppError('NOT_FOUND');
    const { version } = req.params as { version?: string };
    reply.header('cache-control', version === ASSET_VERSION ? 'public, max-age=31536000, immutable' : 'no-cache').header('etag', asset.etag);
    const asked = (req.headers['if-none-match'] ?? '').split(',').map((tag) => tag.trim().replace(/^W\//, ''));
    if (asked.includes(asset.etag)) return reply.code(304).send();
    return reply.type(name.endsWith('.css') ? CONTENT_TYPES.css : CONTENT_TYPES.js).send(asset.body);
  };
  const ownAsset = (req: FastifyRequest, reply: FastifyReply) => sendAsset(req, reply, (req.params as { file: string }).file);
  const vendorAsset = (req: FastifyRequest, reply: FastifyReply) => sendAsset(req, reply, `vendor/${(req.params as { file: string }).file}`);
  app.get('/console/v/:version/:file', ownAsset);
  app.get('/console/v/:version/vendor/:file', vendorAsset);
  app.get('/console/:file', ownAsset);
  app.get('/console/vendor/:file', vendorAsset);

  app.post('/console/session', async (req, reply) => {
    requireJsonMediaType(req);
    const body = parseJsonObject(req.rawBody);
    if (!SignIn.Check(body)) throw validationError('body', collectIssues(SignIn, body));
    const s = await o.accounts.signIn(body.email, body.password, body.totp || undefined, originOf(req)).catch((e) => {
      throw withRetryAfter(e);
    });
    return reply
      .header('set-cookie', sessionCookie(s.token, o.secureCookie, o.policy.absoluteHours * 3600))
      .send({ user: s.member, csrfToken: s.csrfToken, setupRequired: s.setupRequired });
  });
  // Asked by every page as it opens: "not signed in" is an answer here (200, `signedIn: false`),
  // not an error, so a signed-out visit logs no failed request in the browser's console. A cookie
  // that no longer opens a session is cleared.
  app.get('/console/session', async (req, reply) => {
    const token = sessionTokenOf(req.headers.cookie);
    const who = token ? await o.accounts.identify(token) : undefined;
    if (!who) {
      if (token) reply.header('set-cookie', sessionCookie('', o.secureCookie, 0));
      return reply.send({ signedIn: false });
    }
    return reply.send({
      signedIn: true,
      user: { email: who.email, role: who.role, secondFactor: who.secondFactor, setupRequired: who.setupRequired },
      csrfToken: who.csrfToken,
    });
  });
  /**
   * The signed-in person's own account: changing the password, turning on TOTP (a secret to scan or
   * type, then a first code to confirm it). Both work while the account's setup is pending: they are
   * that setup.
   */
  const signedIn = async (req: FastifyRequest) => {
    const token = sessionTokenOf(req.headers.cookie);
    const who = token ? await o.accounts.identify(token) : undefined;
    if (!token || !who) throw new AppError('UNAUTHORIZED', 'Not signed in.');
    checkCsrf(who, req.headers['x-csrf-token']);
    return { who, token };
  };
  app.post('/console/password', async (req, reply) => {
    const { who, token } = await signedIn(req);
    requireJsonMediaType(req);
    const body = parseJsonObject(req.rawBody);
    if (!PasswordChange.Check(body)) throw validationError('body', collectIssues(PasswordChange, body));
    await o.accounts.changePassword(who, token, body.currentPassword, body.newPassword, originOf(req));
    return reply.send({ changed: true });
  });
  app.post('/console/second-factor', async (req, reply) => {
    const { who } = await signedIn(req);
    jsonObjectBody(req); // takes no body, but refuses malformed JSON like every operation
    return reply.send(await o.accounts.startSecondFactor(who));
  });
  app.post('/console/second-factor/confirm', async (req, reply) => {
    const { who } = await signedIn(req);
    requireJsonMediaType(req);
    const body = parseJsonObject(req.rawBody);
    if (!TotpCode.Check(body)) throw validationError('body', collectIssues(TotpCode, body));
    await o.accounts.confirmSecondFactor(who, body.code, originOf(req));
    return reply.send({ secondFactor: true });
  });
  app.delete('/console/session', async (req, reply) => {
    const token = sessionTokenOf(req.headers.cookie);
    const who = token ? await o.accounts.identify(token) : undefined;
    if (token && who) {
      checkCsrf(who, req.headers['x-csrf-token']);
      jsonObjectBody(req);
      await o.accounts.signOut(token);
    }
    return reply
      .header('set-cookie', sessionCookie('', o.secureCookie, 0))
      .code(204)
      .send();
  });
}
