// Sign-in of our team's people to the console on the gateway's admin port: a session whose token
// (the cookie's, @bo/console session-cookie.ts) is stored only as a SHA-256, with an idle and an
// absolute timeout, a CSRF token for every change, and a lock-out after repeated failed sign-ins,
// and an optional TOTP second factor (second-factor.ts). The gateway fills the console's accounts
// port (@bo/console ConsoleAccounts) with these, asked over NATS (operatorMessages); the admin API
// takes the session in place of a bearer token.
import { createHash, randomBytes } from 'node:crypto';
import { AppError, validationError, type AdminRole, type SessionIdentity } from '@bo/contracts';
import { openSecret, sealSecret, type Sql } from '@bo/service-kit';
import { verifyPassword } from './team.ts';
import { newTotpSecret, totpStep } from './second-factor.ts';

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

interface MemberRow {
  id: string;
  email: string;
  role: AdminRole;
  password_hash: string;
  disabled_at: Date | string | null;
  locked: boolean;
  totp_secret_sealed: string | null;
  totp_enabled_at: Date | string | null;
}

export class ConsoleSessions {
  readonly #sql: Sql;
  readonly #policy: SessionPolicy;
  readonly #masterKey: string;
  constructor(sql: Sql, masterKey: string, policy: SessionPolicy = DEFAULT_SESSION_POLICY) {
    this.#sql = sql;
    this.#masterKey = masterKey;
    this.#policy = policy;
  }

  async #countFailure(memberId: string): Promise<void> {
    await this.#sql.query(
      `update operators.team_members set failed_sign_ins = failed_sign_ins + 1,
         locked_until = case when failed_sign_ins + 1 >= ? then now() + make_interval(mins => ?) else locked_until end
       where id = ?`,
      [this.#policy.maxFailedSignIns, this.#policy.lockMinutes, memberId],
    );
  }

  /**
   * A new session for the right e-mail and password (and TOTP code, when the person has turned it
   * on); any failure is the same 401, except a right password without the code: 401 TOTP_REQUIRED.
   * A wrong code counts toward the lock-out like a wrong password; a code is used once.
   */
  async signIn(
    email: string,
    password: string,
    totp?: string,
  ): Promise<{ token: string; csrfToken: string; member: { id: string; email: string; role: AdminRole } }> {
    const [m] = await this.#sql.query<MemberRow>(
      `select id, email, role, password_hash, disabled_at, coalesce(locked_until > now(), false) as locked, totp_secret_sealed, totp_enabled_at
         from operators.team_members where lower(email) = lower(?)`,
      [email],
    );
    const ok = await verifyPassword(password, m?.password_hash ?? DECOY_HASH);
    if (!m || m.disabled_at || m.locked || !ok) {
      if (m && !ok) await this.#countFailure(m.id);
      throw new AppError('UNAUTHORIZED', 'Wrong e-mail or password, or the account is locked or disabled.');
    }
    if (m.totp_enabled_at && m.totp_secret_sealed) {
      if (!totp) throw new AppError('TOTP_REQUIRED');
      const step = totpStep(openSecret(m.totp_secret_sealed, this.#masterKey), m.email, totp);
      // Claims the step: a code already used (or an older one) is refused, also by a concurrent sign-in.
      const claimed =
        step !== undefined &&
        (
          await this.#sql.query<{ id: string }>(
            `update operators.team_members set totp_last_step = ? where id = ? and coalesce(totp_last_step, -1) < ? returning id`,
            [step, m.id, step],
          )
        ).length === 1;
      if (!claimed) {
        await this.#countFailure(m.id);
        throw new AppError('UNAUTHORIZED', 'Wrong or already used authenticator code.');
      }
    }
    const token = randomBytes(32).toString('base64url');
    const csrfToken = randomBytes(24).toString('base64url');
    await this.#sql.transaction(async (tx) => {
      await tx.query(`update operators.team_members set failed_sign_ins = 0, locked_until = null where id = ?`, [m.id]);
      await tx.query(
        `insert into operators.console_sessions (token_hash, member_id, csrf_token, expires_at) values (?, ?, ?, now() + make_interval(hours => ?))`,
        [sha256(token), m.id, csrfToken, this.#policy.absoluteHours],
      );
    });
    return { token, csrfToken, member: { id: m.id, email: m.email, role: m.role } };
  }

  /** The person behind a session cookie, if the session is alive (and it is kept alive by use). */
  async identify(token: string): Promise<SessionIdentity | undefined> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return undefined;
    const rows = await this.#sql.query<{ id: string; email: string; role: AdminRole; csrf_token: string; second_factor: boolean }>(
      `update operators.console_sessions s set last_seen_at = now()
         from operators.team_members m
        where s.token_hash = ? and m.id = s.member_id and m.disabled_at is null
          and s.expires_at > now() and s.last_seen_at > now() - make_interval(mins => ?)
        returning m.id, m.email, m.role, s.csrf_token, m.totp_enabled_at is not null as second_factor`,
      [sha256(token), this.#policy.idleMinutes],
    );
    const r = rows[0];
    return r
      ? { actor: `user:${r.email}`, role: r.role, root: false, csrfToken: r.csrf_token, email: r.email, memberId: r.id, secondFactor: r.second_factor }
      : undefined;
  }

  /** Starts turning on TOTP: a new secret, kept sealed until a first code confirms it. */
  async startSecondFactor(who: Pick<SessionIdentity, 'memberId' | 'email' | 'secondFactor'>): Promise<{ secret: string; uri: string }> {
    if (who.secondFactor) throw new AppError('TOTP_ALREADY_ENABLED');
    const fresh = newTotpSecret(who.email);
    await this.#sql.query(`update operators.team_members set totp_pending_sealed = ? where id = ?`, [sealSecret(fresh.secret, this.#masterKey), who.memberId]);
    return fresh;
  }

  /** Turns TOTP on when `code` matches the pending secret; from the next sign-in the code is asked. */
  async confirmSecondFactor(who: Pick<SessionIdentity, 'memberId' | 'email'>, code: string): Promise<void> {
    const [m] = await this.#sql.query<{ totp_pending_sealed: string | null; totp_enabled_at: string | null }>(
      `select totp_pending_sealed, totp_enabled_at from operators.team_members where id = ?`,
      [who.memberId],
    );
    if (m?.totp_enabled_at) throw new AppError('TOTP_ALREADY_ENABLED');
    const step = m?.totp_pending_sealed ? totpStep(openSecret(m.totp_pending_sealed, this.#masterKey), who.email, code) : undefined;
    if (step === undefined)
      throw validationError('body', [{ path: '/code', message: "does not match the authenticator's current code (start the setup again if needed)" }]);
    await this.#sql.query(
      `update operators.team_members set totp_secret_sealed = totp_pending_sealed, totp_pending_sealed = null, totp_enabled_at = now(), totp_last_step = ?
        where id = ?`,
      [step, who.memberId],
    );
  }

  async signOut(token: string): Promise<void> {
    await this.#sql.query(`delete from operators.console_sessions where token_hash = ?`, [sha256(token)]);
  }

  /**
   * Deletes sessions `identify` no longer accepts (past their absolute end, or idle too long): a
   * session not signed out would otherwise stay for good. A team's sessions are few: no index.
   */
  async deleteEnded(): Promise<void> {
    await this.#sql.query(`delete from operators.console_sessions where expires_at <= now() or last_seen_at <= now() - make_interval(mins => ?)`, [
      this.#policy.idleMinutes,
    ]);
  }
}
