// Sign-in of our team's people to the console on the admin port: a session cookie (HttpOnly,
// SameSite=Strict, Secure outside local development) whose token is stored only as a SHA-256, with
// an idle and an absolute timeout, a CSRF token for every change, and a lock-out after repeated
// failed sign-ins. The admin API takes the session in place of a bearer token.
import { createHash, randomBytes } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { AppError, type AdminRole } from '@bo/contracts';
import { safeEqual } from '@bo/service-kit';
import { verifyPassword, type AdminIdentity } from './team.ts';

export const SESSION_COOKIE = 'bo_console';
export interface SessionPolicy {
  idleMinutes: number;
  absoluteHours: number;
  maxFailedSignIns: number;
  lockMinutes: number;
}
export const DEFAULT_SESSION_POLICY: SessionPolicy = { idleMinutes: 30, absoluteHours: 12, maxFailedSignIns: 5, lockMinutes: 15 };

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
// Compared when no such person exists, so a sign-in takes as long for an unknown e-mail.
const DECOY_HASH = 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

export interface SessionIdentity extends AdminIdentity {
  csrfToken: string;
  email: string;
}

export class ConsoleSessions {
  readonly #orm: MikroORM;
  readonly #policy: SessionPolicy;
  constructor(orm: MikroORM, policy: SessionPolicy = DEFAULT_SESSION_POLICY) {
    this.#orm = orm;
    this.#policy = policy;
  }

  /** A new session for the right e-mail and password; any failure is the same 401 (nothing leaks). */
  async signIn(email: string, password: string): Promise<{ token: string; csrfToken: string; member: { id: string; email: string; role: AdminRole } }> {
    const em = this.#orm.em.fork();
    const [m] = await em.execute<{ id: string; email: string; role: AdminRole; password_hash: string; disabled_at: Date | null; locked: boolean }[]>(
      `select id, email, role, password_hash, disabled_at, coalesce(locked_until > now(), false) as locked
         from gateway.team_members where lower(email) = lower(?)`,
      [email],
    );
    const ok = await verifyPassword(password, m?.password_hash ?? DECOY_HASH);
    if (!m || m.disabled_at || m.locked || !ok) {
      if (m && !ok) {
        await em.execute(
          `update gateway.team_members set failed_sign_ins = failed_sign_ins + 1,
             locked_until = case when failed_sign_ins + 1 >= ? then now() + make_interval(mins => ?) else locked_until end
           where id = ?`,
          [this.#policy.maxFailedSignIns, this.#policy.lockMinutes, m.id],
        );
      }
      throw new AppError('UNAUTHORIZED', 'Wrong e-mail or password, or the account is locked or disabled.');
    }
    const token = randomBytes(32).toString('base64url');
    const csrfToken = randomBytes(24).toString('base64url');
    await em.transactional(async (tx) => {
      await tx.execute(`update gateway.team_members set failed_sign_ins = 0, locked_until = null where id = ?`, [m.id]);
      await tx.execute(
        `insert into gateway.console_sessions (token_hash, member_id, csrf_token, expires_at) values (?, ?, ?, now() + make_interval(hours => ?))`,
        [sha256(token), m.id, csrfToken, this.#policy.absoluteHours],
      );
    });
    return { token, csrfToken, member: { id: m.id, email: m.email, role: m.role } };
  }

  /** The person behind a session cookie, if the session is alive (and it is kept alive by use). */
  async identify(token: string): Promise<SessionIdentity | undefined> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return undefined;
    const rows = await this.#orm.em.fork().execute<{ email: string; role: AdminRole; csrf_token: string }[]>(
      `update gateway.console_sessions s set last_seen_at = now()
         from gateway.team_members m
        where s.token_hash = ? and m.id = s.member_id and m.disabled_at is null
          and s.expires_at > now() and s.last_seen_at > now() - make_interval(mins => ?)
        returning m.email, m.role, s.csrf_token`,
      [sha256(token), this.#policy.idleMinutes],
    );
    const r = rows[0];
    return r ? { actor: `user:${r.email}`, role: r.role, root: false, csrfToken: r.csrf_token, email: r.email } : undefined;
  }

  /** Changes need the session's CSRF token in X-CSRF-Token (a cross-site form cannot read it). */
  static checkCsrf(session: SessionIdentity, header: string | string[] | undefined): void {
    const given = Array.isArray(header) ? header[0] : header;
    if (!given || !safeEqual(given, session.csrfToken)) throw new AppError('CSRF_TOKEN_INVALID');
  }

  async signOut(token: string): Promise<void> {
    await this.#orm.em.fork().execute(`delete from gateway.console_sessions where token_hash = ?`, [sha256(token)]);
  }
}

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
