// Our own team on the admin API: people (e-mail, role, scrypt password hash; a one-time password is
// shown once, at creation or an admin's reset, and replaced by the person at their next sign-in),
// named service tokens for automation (role, SHA-256 of the secret; shown once; revocable) and
// personal tokens, each made by its own person from their console session (issue #56). The gateway's ADMIN_TOKEN stays as the bootstrap credential with every right
// (the gateway checks it itself; it is never sent here).
import { createHash, randomBytes } from 'node:crypto';
import { AppError, newId, type AdminIdentity, type AdminRole } from '@bo/contracts';
import { isoTime, onlyRow, uniqueViolation, type Sql } from '@bo/service-kit';
import { hashPassword } from '../domain/passwords.ts';
import { setupSteps } from '../domain/account-setup.ts';
import { recordAudit } from './audit.ts';

const TOKEN_FORMAT = /^bo_tok_([0-9a-f]{32})_([A-Za-z0-9_-]{43})$/;

interface MemberRow {
  id: string;
  email: string;
  role: AdminRole;
  created_at: Date | string;
  disabled_at: Date | string | null;
  second_factor: boolean;
}
const MEMBER_COLUMNS = 'id, email, role, created_at, disabled_at, totp_enabled_at is not null as second_factor';
interface TokenRow {
  id: string;
  name: string;
  role: AdminRole;
  member_id: string | null;
  created_at: Date | string;
  revoked_at: Date | string | null;
  last_used_at: Date | string | null;
}
const memberView = (r: MemberRow) => ({
  id: r.id,
  email: r.email,
  role: r.role,
  createdAt: isoTime(r.created_at),
  disabledAt: isoTime(r.disabled_at),
  secondFactor: r.second_factor,
});
const tokenView = (r: TokenRow) => ({
  id: r.id,
  name: r.name,
  role: r.role,
  userId: r.member_id,
  createdAt: isoTime(r.created_at),
  revokedAt: isoTime(r.revoked_at),
  lastUsedAt: isoTime(r.last_used_at),
});
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
/** 18 random bytes (24 characters): shown once, good for one sign-in, which must replace it. */
const oneTimePassword = () => randomBytes(18).toString('base64url');
const DEFAULT_ONE_TIME_PASSWORD_HOURS = 72;

export class TeamAccess {
  readonly #sql: Sql;
  readonly #oneTimePasswordHours: number;
  readonly #totpRequiredRoles: readonly AdminRole[];
  /**
   * `oneTimePasswordHours`: how long a one-time password signs in (once) before it expires;
   * `totpRequiredRoles`: the roles whose people are activated only with TOTP on (a personal token of
   * such a person without it does nothing).
   */
  constructor(sql: Sql, oneTimePasswordHours = DEFAULT_ONE_TIME_PASSWORD_HOURS, totpRequiredRoles: readonly AdminRole[] = []) {
    this.#sql = sql;
    this.#oneTimePasswordHours = oneTimePasswordHours;
    this.#totpRequiredRoles = totpRequiredRoles;
  }

  /**
   * The identity of a token, or undefined (unknown, revoked, malformed, its person disabled): a
   * personal token is its person (`user:<email>`, their id, and the setup steps they still owe:
   * the gateway refuses the token while any is left), a named service token is nobody.
   */
  async identify(bearer: string): Promise<AdminIdentity | undefined> {
    const m = bearer.match(TOKEN_FORMAT);
    if (!m) return undefined;
    const rows = await this.#sql.query<{
      name: string;
      role: AdminRole;
      member_id: string | null;
      email: string | null;
      password_must_change: boolean | null;
      second_factor: boolean | null;
    }>(
      `update operators.service_tokens t set last_used_at = now()
        where t.id = ? and t.secret_hash = ? and t.revoked_at is null
          and (t.member_id is null or exists (select 1 from operators.team_members m where m.id = t.member_id and m.disabled_at is null))
        returning t.name, t.role, t.member_id,
          (select email from operators.team_members m where m.id = t.member_id) as email,
          (select password_must_change from operators.team_members m where m.id = t.member_id) as password_must_change,
          (select totp_enabled_at is not null from operators.team_members m where m.id = t.member_id) as second_factor`,
      [`tok_${m[1]}`, sha256(bearer)],
    );
    const r = rows[0];
    if (!r) return undefined;
    if (r.member_id === null || r.email === null) return { actor: `token:${r.name}`, role: r.role, root: false };
    const setupRequired = setupSteps(
      { role: r.role, passwordMustChange: r.password_must_change === true, secondFactor: r.second_factor === true },
      this.#totpRequiredRoles,
    );
    return { actor: `user:${r.email}`, role: r.role, root: false, personId: r.member_id, setupRequired };
  }

  async createMember(input: { email: string; role: AdminRole }, actor: string, requestId: string) {
    const password = oneTimePassword();
    const row: MemberRow = { id: newId('teamMember'), email: input.email, role: input.role, created_at: new Date(), disabled_at: null, second_factor: false };
    const hash = await hashPassword(password);
    await this.#sql.transaction(async (tx) => {
      await tx
        .query(
          `insert into operators.team_members (id, email, role, password_hash, password_must_change, one_time_password_expires_at, created_at)
           values (?, ?, ?, ?, true, now() + make_interval(hours => ?), ?)`,
          [row.id, row.email, row.role, hash, this.#oneTimePasswordHours, row.created_at],
        )
        .catch((e) => {
          throw uniqueViolation(e) !== undefined ? new AppError('TEAM_MEMBER_ALREADY_EXISTS') : e;
        });
      await recordAudit(tx, { actor, action: 'adminCreateUser', target: `team_member:${row.id}`, before: null, after: memberView(row), requestId });
    });
    return { user: memberView(row), password };
  }

  async listMembers() {
    const rows = await this.#sql.query<MemberRow>(`select ${MEMBER_COLUMNS} from operators.team_members order by created_at`);
    return rows.map(memberView);
  }

  async disableMember(id: string, actor: string, requestId: string) {
    return this.#sql.transaction(async (tx) => {
      const [before] = await tx.query<MemberRow>(`select ${MEMBER_COLUMNS} from operators.team_members where id = ? for update`, [id]);
      if (!before) throw new AppError('TEAM_MEMBER_NOT_FOUND');
      const after = onlyRow(
        await tx.query<MemberRow>(`update operators.team_members set disabled_at = coalesce(disabled_at, now()) where id = ? returning ${MEMBER_COLUMNS}`, [
          id,
        ]),
      );
      await recordAudit(tx, {
        actor,
        action: 'adminDisableUser',
        target: `team_member:${id}`,
        before: memberView(before),
        after: memberView(after),
        requestId,
      });
      return memberView(after);
    });
  }

  /**
   * For a person who forgot their password: a new one-time password (shown once, expiring like the
   * first), which the next sign-in must replace; the old one no longer signs in; their sessions end now.
   */
  async resetPassword(id: string, actor: string, requestId: string) {
    const password = oneTimePassword();
    const hash = await hashPassword(password);
    return this.#sql.transaction(async (tx) => {
      const [user] = await tx.query<MemberRow>(
        `update operators.team_members
            set password_hash = ?, password_must_change = true, one_time_password_used_at = null,
                one_time_password_expires_at = now() + make_interval(hours => ?)
          where id = ? returning ${MEMBER_COLUMNS}`,
        [hash, this.#oneTimePasswordHours, id],
      );
      if (!user) throw new AppError('TEAM_MEMBER_NOT_FOUND');
      await tx.query(`delete from operators.console_sessions where member_id = ?`, [id]);
      await recordAudit(tx, {
        actor,
        action: 'adminResetPassword',
        target: `team_member:${id}`,
        before: null,
        after: { oneTimePassword: true, sessionsEnded: true },
        requestId,
      });
      return { user: memberView(user), password };
    });
  }

  /** For a person who lost their authenticator: the next sign-in needs the password only, until they turn TOTP on again. */
  async resetSecondFactor(id: string, actor: string, requestId: string) {
    return this.#sql.transaction(async (tx) => {
      const [before] = await tx.query<MemberRow>(`select ${MEMBER_COLUMNS} from operators.team_members where id = ? for update`, [id]);
      if (!before) throw new AppError('TEAM_MEMBER_NOT_FOUND');
      const after = onlyRow(
        await tx.query<MemberRow>(
          `update operators.team_members set totp_secret_sealed = null, totp_pending_sealed = null, totp_enabled_at = null, totp_last_step = null
          where id = ? returning ${MEMBER_COLUMNS}`,
          [id],
        ),
      );
      await recordAudit(tx, {
        actor,
        action: 'adminResetSecondFactor',
        target: `team_member:${id}`,
        before: memberView(before),
        after: memberView(after),
        requestId,
      });
      return memberView(after);
    });
  }

  /**
   * A named service token: it acts for no person (it takes no decision). Nobody makes a personal
   * token for someone else (issue #56): `userId` is refused; a person makes their own
   * (createOwnToken), from their console session.
   */
  async createToken(input: { name: string; role: AdminRole; userId?: string }, actor: string, requestId: string) {
    if (input.userId !== undefined) throw new AppError('TOKEN_OWNER_REQUIRED');
    return this.#insertToken({ name: input.name, role: input.role, memberId: null }, actor, 'adminCreateToken', requestId);
  }

  /**
   * A person's own personal token, in their own role (a token never outgrows its person): the
   * caller has made sure the person is present (ConsoleSessions.personPresent).
   */
  async createOwnToken(person: { id: string; email: string; role: AdminRole }, name: string, requestId: string) {
    return this.#insertToken({ name, role: person.role, memberId: person.id }, `user:${person.email}`, 'adminCreateOwnToken', requestId);
  }

  async #insertToken(input: { name: string; role: AdminRole; memberId: string | null }, actor: string, action: string, requestId: string) {
    const hex = newId('serviceToken').slice(4);
    const secret = `bo_tok_${hex}_${randomBytes(32).toString('base64url')}`;
    const row: TokenRow = {
      id: `tok_${hex}`,
      name: input.name,
      role: input.role,
      member_id: input.memberId,
      created_at: new Date(),
      revoked_at: null,
      last_used_at: null,
    };
    await this.#sql.transaction(async (tx) => {
      await tx
        .query(`insert into operators.service_tokens (id, name, role, member_id, secret_hash, created_at) values (?, ?, ?, ?, ?, ?)`, [
          row.id,
          row.name,
          row.role,
          row.member_id,
          sha256(secret),
          row.created_at,
        ])
        .catch((e) => {
          throw uniqueViolation(e) !== undefined ? new AppError('TEAM_MEMBER_ALREADY_EXISTS') : e;
        });
      await recordAudit(tx, { actor, action, target: `service_token:${row.id}`, before: null, after: tokenView(row), requestId });
    });
    return { token: tokenView(row), secret };
  }

  /** Every token (`memberId`: a person's own only). */
  async listTokens(memberId?: string) {
    const rows = await this.#sql.query<TokenRow>(
      `select id, name, role, member_id, created_at, revoked_at, last_used_at from operators.service_tokens
        where ?::text is null or member_id = ? order by created_at`,
      [memberId ?? null, memberId ?? null],
    );
    return rows.map(tokenView);
  }

  /** Revokes a token (`ownerId`: only one of that person's own; another's is not found). */
  async revokeToken(id: string, actor: string, requestId: string, ownerId?: string) {
    return this.#sql.transaction(async (tx) => {
      const [before] = await tx.query<TokenRow>(
        `select id, name, role, member_id, created_at, revoked_at, last_used_at from operators.service_tokens where id = ? for update`,
        [id],
      );
      if (!before || (ownerId !== undefined && before.member_id !== ownerId)) throw new AppError('TEAM_MEMBER_NOT_FOUND');
      const after = onlyRow(
        await tx.query<TokenRow>(
          `update operators.service_tokens set revoked_at = coalesce(revoked_at, now()) where id = ? returning id, name, role, member_id, created_at, revoked_at, last_used_at`,
          [id],
        ),
      );
      await recordAudit(tx, {
        actor,
        action: ownerId === undefined ? 'adminRevokeToken' : 'adminRevokeOwnToken',
        target: `service_token:${id}`,
        before: tokenView(before),
        after: tokenView(after),
        requestId,
      });
      return tokenView(after);
    });
  }
}
