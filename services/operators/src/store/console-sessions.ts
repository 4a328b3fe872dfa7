// Sign-in of our team's people to the console on the gateway's admin port: a session whose token
// (the cookie's, @bo/console session-cookie.ts) is stored only as a SHA-256, with an idle and an
// absolute timeout, a CSRF token for every change, a back-off after failed sign-ins per account and
// per address (sign-in-throttle.ts), and a TOTP second factor (second-factor.ts). A session comes
// with the steps its person must take before anything else (`setupRequired`): replace a one-time
// password, turn on TOTP where their role requires it. A one-time password signs in once (that
// sign-in spends it, so only its session can replace it) and only until it expires. Sign-ins, failures, password changes and
// second-factor enrolments go into the audit log. The gateway fills the console's accounts port
// (@bo/console ConsoleAccounts) with these, asked over NATS (operatorMessages); the admin API takes
// the session in place of a bearer token once it has no step left.
import { createHash, randomBytes } from 'node:crypto';
import { AppError, validationError, type AdminRole, type SessionIdentity, type SetupStep } from '@bo/contracts';
import { openSecret, sealSecret, type Sql, type SqlRunner } from '@bo/service-kit';
import { recordAudit } from './audit.ts';
import { hashPassword, verifyPassword } from '../domain/passwords.ts';
import { newTotpSecret, totpStep } from '../domain/second-factor.ts';
import { passwordProblem } from '../domain/password-policy.ts';
import { DEFAULT_THROTTLE_POLICY, throttleKeys, type ThrottlePolicy } from '../domain/sign-in-throttle.ts';
import { SignInThrottle } from './sign-in-throttle.ts';
import { setupSteps } from '../domain/account-setup.ts';

export interface SessionPolicy {
  idleMinutes: number;
  absoluteHours: number;
  /** Roles whose people must turn on TOTP before doing anything else. */
  totpRequiredRoles: readonly AdminRole[];
  throttle: ThrottlePolicy;
}
export const DEFAULT_SESSION_POLICY: SessionPolicy = { idleMinutes: 30, absoluteHours: 12, totpRequiredRoles: [], throttle: DEFAULT_THROTTLE_POLICY };

/** Where a request came from: the address the back-off counts, the request the audit log names. */
export interface Origin {
  address: string;
  requestId: string;
}
type Person = Pick<SessionIdentity, 'memberId' | 'email'>;

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
// Compared when no such person exists, so a sign-in takes as long for an unknown e-mail.
const DECOY_HASH = 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
const REFUSED = 'Wrong e-mail or password, or the account is disabled.';

interface MemberRow {
  id: string;
  email: string;
  role: AdminRole;
  password_hash: string;
  password_must_change: boolean;
  disabled_at: Date | string | null;
  totp_secret_sealed: string | null;
  totp_enabled_at: Date | string | null;
  one_time_password_used_at: Date | string | null;
  one_time_password_expired: boolean;
}

/** A session a one-time password opened may only replace it (the console's /setup asks for it first). */
const passwordFirst = () =>
  new AppError('ACCOUNT_SETUP_REQUIRED', 'Choose your own password in place of the one-time one first.', { setupRequired: ['password'] });

export class ConsoleSessions {
  readonly #sql: Sql;
  readonly #policy: SessionPolicy;
  readonly #masterKey: string;
  readonly #throttle: SignInThrottle;
  constructor(sql: Sql, masterKey: string, policy: SessionPolicy = DEFAULT_SESSION_POLICY, now: () => number = Date.now) {
    this.#sql = sql;
    this.#masterKey = masterKey;
    this.#policy = policy;
    this.#throttle = new SignInThrottle(policy.throttle, now);
  }

  /** Refuses (429) while the account or the address is backed off; such an attempt is audited, not counted. */
  async #refuseWhileBlocked(email: string, target: string, origin: Origin): Promise<void> {
    const retryAfter = await this.#throttle.blockedFor(this.#sql, throttleKeys(email, origin.address));
    if (retryAfter === undefined) return;
    await this.#auditFailure(this.#sql, email, target, 'throttled', origin);
    throw new AppError(
      'RATE_LIMITED',
      `Too many failed sign-ins: try again in ${retryAfter} s.`,
      { retryAfterSeconds: retryAfter },
      {
        'retry-after': String(retryAfter),
      },
    );
  }

  /** A failed attempt: counted toward the back-off of its account and its address, and audited. */
  async #fail(email: string, target: string, reason: string, origin: Origin): Promise<void> {
    await this.#sql.transaction(async (tx) => {
      await this.#throttle.fail(tx, throttleKeys(email, origin.address));
      await this.#auditFailure(tx, email, target, reason, origin);
    });
  }

  async #auditFailure(tx: SqlRunner, email: string, target: string, reason: string, origin: Origin): Promise<void> {
    await recordAudit(tx, {
      actor: `user:${email.trim().toLowerCase()}`,
      action: 'consoleSignInFailed',
      target,
      before: null,
      after: { reason, address: origin.address },
      requestId: origin.requestId,
    });
  }

  #setupRequired(m: { role: AdminRole; password_must_change: boolean; second_factor: boolean }): SetupStep[] {
    return setupSteps({ role: m.role, passwordMustChange: m.password_must_change, secondFactor: m.second_factor }, this.#policy.totpRequiredRoles);
  }

  /**
   * The person behind an admin request, present now (issue #56: a personal token is made by its
   * owner only): active, set up, and, with TOTP on, a fresh code from their authenticator (never one
   * used before, not even the sign-in's). A wrong code counts toward the account's back-off like a
   * failed sign-in. The admin API carries no client address: the second key counted is the
   * person's own, so one person's wrong codes never block another's.
   */
  async personPresent(memberId: string, code: string | undefined, requestId: string): Promise<{ id: string; email: string; role: AdminRole }> {
    const [m] = await this.#sql.query<
      Pick<MemberRow, 'id' | 'email' | 'role' | 'password_must_change' | 'disabled_at' | 'totp_secret_sealed' | 'totp_enabled_at'>
    >(`select id, email, role, password_must_change, disabled_at, totp_secret_sealed, totp_enabled_at from operators.team_members where id = ?`, [memberId]);
    if (!m || m.disabled_at) throw new AppError('TOKEN_OWNER_REQUIRED');
    const steps = this.#setupRequired({ ...m, second_factor: m.totp_enabled_at !== null });
    if (steps.length > 0) throw new AppError('ACCOUNT_SETUP_REQUIRED', undefined, { setupRequired: steps });
    if (!m.totp_enabled_at || !m.totp_secret_sealed) return { id: m.id, email: m.email, role: m.role };
    const origin = { address: `member:${m.id}`, requestId };
    const target = `team_member:${m.id}`;
    await this.#refuseWhileBlocked(m.email, target, origin);
    if (!code) throw validationError('body', [{ path: '/totp', message: 'is required: a fresh code from your authenticator app' }]);
    if (!(await this.#claimCode(m.id, m.email, m.totp_secret_sealed, code))) {
      await this.#fail(m.email, target, 'wrong authenticator code for a personal token', origin);
      throw validationError('body', [{ path: '/totp', message: 'does not match your authenticator app, or was used already: wait for its next code' }]);
    }
    return { id: m.id, email: m.email, role: m.role };
  }

  /**
   * A new session for the right e-mail and password (and TOTP code, when the person has turned it
   * on); any failure is the same 401, except a right password without the code (401 TOTP_REQUIRED)
   * and an account or address backed off after failures (429 RATE_LIMITED, tried no further). A
   * wrong code counts like a wrong password; a code is used once.
   */
  async signIn(
    email: string,
    password: string,
    totp: string | undefined,
    origin: Origin,
  ): Promise<{ token: string; csrfToken: string; member: { id: string; email: string; role: AdminRole }; setupRequired: SetupStep[] }> {
    const [m] = await this.#sql.query<MemberRow>(
      `select id, email, role, password_hash, password_must_change, disabled_at, totp_secret_sealed, totp_enabled_at,
              one_time_password_used_at, one_time_password_expires_at <= now() as one_time_password_expired
         from operators.team_members where lower(email) = lower(?)`,
      [email],
    );
    const target = `team_member:${m?.id ?? 'unknown'}`;
    await this.#refuseWhileBlocked(email, target, origin);
    const ok = await verifyPassword(password, m?.password_hash ?? DECOY_HASH);
    if (!m || m.disabled_at || !ok) {
      await this.#fail(email, target, !m ? 'unknown e-mail' : !ok ? 'wrong password' : 'disabled', origin);
      throw new AppError('UNAUTHORIZED', REFUSED);
    }
    if (m.totp_enabled_at && m.totp_secret_sealed) {
      if (!totp) throw new AppError('TOTP_REQUIRED');
      if (!(await this.#claimCode(m.id, m.email, m.totp_secret_sealed, totp))) {
        await this.#fail(email, target, 'wrong authenticator code', origin);
        throw new AppError('UNAUTHORIZED', 'Wrong or already used authenticator code.');
      }
    }
    const token = randomBytes(32).toString('base64url');
    const csrfToken = randomBytes(24).toString('base64url');
    const setupRequired = this.#setupRequired({ ...m, second_factor: m.totp_enabled_at !== null });
    const opened = await this.#sql.transaction(async (tx) => {
      if (m.password_must_change && !(await this.#spendOneTimePassword(tx, m))) return false;
      await this.#throttle.clearAccount(tx, throttleKeys(email, origin.address));
      await tx.query(
        `insert into operators.console_sessions (token_hash, member_id, csrf_token, expires_at) values (?, ?, ?, now() + make_interval(hours => ?))`,
        [sha256(token), m.id, csrfToken, this.#policy.absoluteHours],
      );
      await recordAudit(tx, {
        actor: `user:${m.email}`,
        action: 'consoleSignIn',
        target,
        before: null,
        after: { address: origin.address, secondFactor: m.totp_enabled_at !== null, setupRequired },
        requestId: origin.requestId,
      });
      return true;
    });
    if (!opened) {
      // Refused like a wrong password: whoever holds a spent or expired one learns nothing more.
      const reason = m.one_time_password_expired && !m.one_time_password_used_at ? 'one-time password expired' : 'one-time password already used';
      await this.#fail(email, target, reason, origin);
      throw new AppError('UNAUTHORIZED', REFUSED);
    }
    return { token, csrfToken, member: { id: m.id, email: m.email, role: m.role }, setupRequired };
  }

  /** Claims the code's time step: a code already used (or an older one) is refused, also by a concurrent request. */
  async #claimCode(memberId: string, email: string, sealedSecret: string, code: string): Promise<boolean> {
    const step = totpStep(openSecret(sealedSecret, this.#masterKey), email, code);
    if (step === undefined) return false;
    const claimed = await this.#sql.query<{ id: string }>(
      `update operators.team_members set totp_last_step = ? where id = ? and coalesce(totp_last_step, -1) < ? returning id`,
      [step, memberId, step],
    );
    return claimed.length === 1;
  }

  /**
   * Spends the one-time password this sign-in verified, if it is still unused and unexpired; one
   * statement, so of two concurrent sign-ins with it only one opens a session. The hash is compared
   * too: a reset between the read and here issued another one, which this sign-in did not verify.
   */
  async #spendOneTimePassword(tx: SqlRunner, m: MemberRow): Promise<boolean> {
    const spent = await tx.query<{ id: string }>(
      `update operators.team_members set one_time_password_used_at = now()
        where id = ? and password_hash = ? and password_must_change and one_time_password_used_at is null
          and one_time_password_expires_at > now()
        returning id`,
      [m.id, m.password_hash],
    );
    return spent.length === 1;
  }

  /** The person behind a session cookie, if the session is alive (and it is kept alive by use). */
  async identify(token: string): Promise<SessionIdentity | undefined> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return undefined;
    const rows = await this.#sql.query<{
      id: string;
      email: string;
      role: AdminRole;
      csrf_token: string;
      second_factor: boolean;
      password_must_change: boolean;
      confirmed: boolean;
    }>(
      `update operators.console_sessions s set last_seen_at = now()
         from operators.team_members m
        where s.token_hash = ? and m.id = s.member_id and m.disabled_at is null
          and s.expires_at > now() and s.last_seen_at > now() - make_interval(mins => ?)
        returning m.id, m.email, m.role, s.csrf_token, m.totp_enabled_at is not null as second_factor, m.password_must_change,
          m.confirmed_at is not null as confirmed`,
      [sha256(token), this.#policy.idleMinutes],
    );
    const r = rows[0];
    return r
      ? {
          actor: `user:${r.email}`,
          role: r.role,
          root: false,
          personId: r.id,
          csrfToken: r.csrf_token,
          email: r.email,
          memberId: r.id,
          secondFactor: r.second_factor,
          setupRequired: this.#setupRequired(r),
          confirmed: r.confirmed,
        }
      : undefined;
  }

  /**
   * The person replaces their password: the current one is required (a wrong one counts toward the
   * back-off like a failed sign-in), the new one must pass the policy (password-policy.ts) and
   * differ from it. Their other sessions end; this one stays. At the first sign-in's setup the
   * one-time password was spent by the sign-in that opened this session (the only session it can
   * open), so it may be left out (the console does not ask it again): the new one must only differ from it.
   */
  async changePassword(who: Person, currentPassword: string | undefined, newPassword: string, origin: Origin, sessionToken: string): Promise<void> {
    const target = `team_member:${who.memberId}`;
    await this.#refuseWhileBlocked(who.email, target, origin);
    const [m] = await this.#sql.query<{ password_hash: string; password_must_change: boolean }>(
      `select password_hash, password_must_change from operators.team_members where id = ? and disabled_at is null`,
      [who.memberId],
    );
    if (!m) throw new AppError('UNAUTHORIZED', 'Not signed in.');
    // Omitted only at the setup; given, it is checked whenever.
    if (currentPassword === undefined && !m.password_must_change) throw validationError('body', [{ path: '/currentPassword', message: 'is required' }]);
    if (currentPassword !== undefined && !(await verifyPassword(currentPassword, m.password_hash))) {
      await this.#fail(who.email, target, 'wrong current password', origin);
      throw validationError('body', [{ path: '/currentPassword', message: 'is not your current password' }]);
    }
    const problem = (await verifyPassword(newPassword, m.password_hash)) ? 'must differ from the current password' : passwordProblem(newPassword, who.email);
    if (problem) throw validationError('body', [{ path: '/newPassword', message: problem }]);
    const hash = await hashPassword(newPassword);
    await this.#sql.transaction(async (tx) => {
      await tx.query(
        `update operators.team_members
            set password_hash = ?, password_must_change = false, one_time_password_expires_at = null, one_time_password_used_at = null
          where id = ?`,
        [hash, who.memberId],
      );
      await tx.query(`delete from operators.console_sessions where member_id = ? and token_hash <> ?`, [who.memberId, sha256(sessionToken)]);
      await recordAudit(tx, {
        actor: `user:${who.email}`,
        action: 'consoleChangePassword',
        target,
        before: { oneTimePassword: m.password_must_change },
        after: { oneTimePassword: false },
        requestId: origin.requestId,
      });
    });
  }

  /**
   * Starts turning on TOTP: a new secret, kept sealed until a first code confirms it. Not while the
   * password is a one-time one: a session it opened may only replace it.
   */
  async startSecondFactor(who: Pick<SessionIdentity, 'memberId' | 'email' | 'secondFactor'>): Promise<{ secret: string; uri: string }> {
    if (who.secondFactor) throw new AppError('TOTP_ALREADY_ENABLED');
    const fresh = newTotpSecret(who.email);
    const started = await this.#sql.query(`update operators.team_members set totp_pending_sealed = ? where id = ? and not password_must_change returning id`, [
      sealSecret(fresh.secret, this.#masterKey),
      who.memberId,
    ]);
    if (started.length === 0) throw passwordFirst();
    return fresh;
  }

  /** Turns TOTP on when `code` matches the pending secret; from the next sign-in the code is asked. */
  async confirmSecondFactor(who: Person, code: string, origin: Origin): Promise<void> {
    const [m] = await this.#sql.query<{ totp_pending_sealed: string | null; totp_enabled_at: string | null; password_must_change: boolean }>(
      `select totp_pending_sealed, totp_enabled_at, password_must_change from operators.team_members where id = ?`,
      [who.memberId],
    );
    if (m?.totp_enabled_at) throw new AppError('TOTP_ALREADY_ENABLED');
    if (m?.password_must_change) throw passwordFirst();
    const step = m?.totp_pending_sealed ? totpStep(openSecret(m.totp_pending_sealed, this.#masterKey), who.email, code) : undefined;
    if (step === undefined)
      throw validationError('body', [{ path: '/code', message: "does not match the authenticator's current code (start the setup again if needed)" }]);
    await this.#sql.transaction(async (tx) => {
      await tx.query(
        `update operators.team_members set totp_secret_sealed = totp_pending_sealed, totp_pending_sealed = null, totp_enabled_at = now(), totp_last_step = ?
          where id = ?`,
        [step, who.memberId],
      );
      await recordAudit(tx, {
        actor: `user:${who.email}`,
        action: 'consoleEnableSecondFactor',
        target: `team_member:${who.memberId}`,
        before: { secondFactor: false },
        after: { secondFactor: true },
        requestId: origin.requestId,
      });
    });
  }

  async signOut(token: string): Promise<void> {
    await this.#sql.query(`delete from operators.console_sessions where token_hash = ?`, [sha256(token)]);
  }

  /**
   * Deletes sessions `identify` no longer accepts (past their absolute end, or idle too long): a
   * session not signed out would otherwise stay for good. A team's sessions are few: no index.
   */
  async deleteEnded(): Promise<void> {
    await this.#throttle.deleteForgotten(this.#sql);
    await this.#sql.query(`delete from operators.console_sessions where expires_at <= now() or last_seen_at <= now() - make_interval(mins => ?)`, [
      this.#policy.idleMinutes,
    ]);
  }
}
