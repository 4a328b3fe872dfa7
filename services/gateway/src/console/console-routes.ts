// The team console on the admin port (never the public one): the sign-in page at `/`, its assets,
// and the session routes. Pages are static files with a strict Content-Security-Policy; they talk
// to the admin API with the session cookie and the session's CSRF token.
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { AppError, collectIssues, validationError } from '@bo/contracts';
import { parseJsonObject, requireJsonMediaType } from '../edge/http/raw-body.ts';
import { ConsoleSessions, sessionCookie, sessionTokenOf, type SessionPolicy } from '../team/console-sessions.ts';

const asset = (name: string) => readFileSync(new URL(`./assets/${name}`, import.meta.url), 'utf8');
const SIGN_IN_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Back-office console: sign in</title><link rel="stylesheet" href="/console/console.css"></head>
<body><h1>Back-office console</h1>
<form id="sign-in"><label for="email">E-mail</label><input id="email" name="email" type="email" autocomplete="username" required>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button></form>
<button id="sign-out" hidden>Sign out</button><p id="status" role="status"></p>
<script src="/console/sign-in.js"></script></body></html>`;
const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
const SignIn = TypeCompiler.Compile(
  Type.Object({ email: Type.String({ minLength: 3, maxLength: 254 }), password: Type.String({ minLength: 1, maxLength: 200 }) }),
);

export interface ConsoleOptions {
  sessions: ConsoleSessions;
  policy: SessionPolicy;
  secureCookie: boolean;
}

export async function consoleRoutes(app: FastifyInstance, o: ConsoleOptions): Promise<void> {
  app.addHook('onSend', async (req, reply, payload) => {
    if (!req.url.startsWith('/admin/')) {
      reply
        .header('content-security-policy', CSP)
        .header('x-frame-options', 'DENY')
        .header('x-content-type-options', 'nosniff')
        .header('referrer-policy', 'no-referrer')
        .header('cache-control', 'no-store');
    }
    return payload;
  });
  app.get('/', async (_req, reply) => reply.type('text/html; charset=utf-8').send(SIGN_IN_PAGE));
  app.get('/console/sign-in.js', async (_req, reply) => reply.type('text/javascript; charset=utf-8').send(asset('sign-in.js')));
  app.get('/console/console.css', async (_req, reply) => reply.type('text/css; charset=utf-8').send(asset('console.css')));

  app.post('/console/session', async (req, reply) => {
    requireJsonMediaType(req);
    const body = parseJsonObject(req.rawBody);
    if (!SignIn.Check(body)) throw validationError('body', collectIssues(SignIn, body));
    const s = await o.sessions.signIn(body.email, body.password);
    return reply.header('set-cookie', sessionCookie(s.token, o.secureCookie, o.policy.absoluteHours * 3600)).send({ user: s.member, csrfToken: s.csrfToken });
  });
  app.get('/console/session', async (req, reply) => {
    const token = sessionTokenOf(req.headers.cookie);
    const who = token ? await o.sessions.identify(token) : undefined;
    if (!who) throw new AppError('UNAUTHORIZED', 'Not signed in.');
    return reply.send({ user: { email: who.email, role: who.role }, csrfToken: who.csrfToken });
  });
  app.delete('/console/session', async (req, reply) => {
    const token = sessionTokenOf(req.headers.cookie);
    const who = token ? await o.sessions.identify(token) : undefined;
    if (token && who) {
      ConsoleSessions.checkCsrf(who, req.headers['x-csrf-token']);
      await o.sessions.signOut(token);
    }
    return reply
      .header('set-cookie', sessionCookie('', o.secureCookie, 0))
      .code(204)
      .send();
  });
}
