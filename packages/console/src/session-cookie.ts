// The console session at the HTTP edge: the cookie that carries its token (HttpOnly,
// SameSite=Strict, Secure outside local development) and the CSRF rule for every change. Used by
// the console's routes and by the admin API, which takes the session in place of a bearer token.
import { AppError, safeEqual } from '@bo/contracts';

const SESSION_COOKIE = 'bo_console';

/** The Set-Cookie value of a session (or of its removal, with an empty token). */
export function sessionCookie(token: string, secure: boolean, maxAgeSeconds: number): string {
  return [`${SESSION_COOKIE}=${token}`, 'Path=/', 'HttpOnly', 'SameSite=Strict', ...(secure ? ['Secure'] : []), `Max-Age=${token ? maxAgeSeconds : 0}`].join(
    '; ',
  );
}

export function sessionTokenOf(cookieHeader: string | undefined): string | undefined {
  for (const part of (cookieHeader ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === SESSION_COOKIE) return v.join('=');
  }
  return undefined;
}

/** Changes need the session's CSRF token in X-CSRF-Token (a cross-site form cannot read it). */
export function checkCsrf(session: { csrfToken: string }, header: string | string[] | undefined): void {
  const given = Array.isArray(header) ? header[0] : header;
  if (!given || !safeEqual(given, session.csrfToken)) throw new AppError('CSRF_TOKEN_INVALID');
}
