// What the console needs from wherever our team's accounts and their sessions live (the port the
// gateway fills): sign-in, the person behind a session token, sign-out, changing a password and
// turning on TOTP. The console never sees a password hash, a TOTP secret at rest or a stored session.
import type { AdminRole } from '@bo/contracts';

/** The person behind a live session, as far as the console needs them. */
export interface ConsoleIdentity {
  email: string;
  role: AdminRole;
  /** Whether the person signs in with a TOTP code too. */
  secondFactor: boolean;
  /** The session's CSRF token: every change must send it back in X-CSRF-Token. */
  csrfToken: string;
  /**
   * What the person must do before anything else: choose their own password (they signed in with a
   * one-time one), turn on TOTP (their role requires it). Empty once the account is set up.
   */
  setupRequired: ('password' | 'secondFactor')[];
}

/** Where a console request came from: the address the sign-in back-off counts, the request the audit log names. */
export interface RequestOrigin {
  address: string;
  requestId: string;
}

export interface ConsoleSignIn {
  /** The session token: set as the cookie, never shown to the page's script. */
  token: string;
  csrfToken: string;
  member: { id: string; email: string; role: AdminRole };
  setupRequired: ConsoleIdentity['setupRequired'];
}

/** `Who`: what identify returns, given back as is to the second-factor calls (it may carry more, e.g. the member's id). */
export interface ConsoleAccounts<Who extends ConsoleIdentity = ConsoleIdentity> {
  /**
   * A new session for the right e-mail and password (and TOTP code, when the person has turned it
   * on); a refusal is thrown as an AppError (401 UNAUTHORIZED, 401 TOTP_REQUIRED, 429 RATE_LIMITED
   * while the account or address is backed off after failures).
   */
  signIn(email: string, password: string, totp: string | undefined, origin: RequestOrigin): Promise<ConsoleSignIn>;
  /** The person behind a session token, if the session is alive (and kept alive by use). */
  identify(sessionToken: string): Promise<Who | undefined>;
  signOut(sessionToken: string): Promise<void>;
  /**
   * Replaces the password of `who` (signed in with `sessionToken`, which stays signed in; their other
   * sessions end): a wrong current password or a new one the policy refuses is thrown as a 422.
   */
  /** `currentPassword` is undefined at the first sign-in's setup: the one-time password was spent by that sign-in. */
  changePassword(who: Who, sessionToken: string, currentPassword: string | undefined, newPassword: string, origin: RequestOrigin): Promise<void>;
  /** Starts turning on TOTP for `who` (what identify returned): a secret to scan or type. */
  startSecondFactor(who: Who): Promise<{ secret: string; uri: string }>;
  /** Turns TOTP on when `code` matches the pending secret; a wrong code is thrown as a 422. */
  confirmSecondFactor(who: Who, code: string, origin: RequestOrigin): Promise<void>;
}
