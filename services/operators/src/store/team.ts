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

/** Who acts on the team: the audit log's name and, for a person (or a stand-in outside production), their id. */
interface Adder {
  actor: string;
  personId?: string;
}
/** The audit row's actorId: a team member's id, never a stand-in's `actor:` one. */
const memberIdOf = (by: Adder) => (by.personId && !by.personId.startsWith('actor:') ? by.personId : null);

const TOKEN_FORMAT = /^bo_tok_([0-9a-f]{32})_([A-Za-z0-9_-]{43})$/;

interface MemberRow {
  id: string;
  email: string;
  role: AdminRole;
  created_at: Date | string;
  disabled_at: Date | string | null;
  second_factor: boolean;
  password_must_change: boolean;
  added_by: string | null;
  issued_by_id: string | null;
  confirmed_at: Date | string | null;
  confirmations: { actor: string; actorId: string; at: string }[];
}
// `team_members.id`, qualified: the list of confirmations is read in a RETURNING too.
const MEMBER_COLUMNS = `id, email, role, created_at, disabled_at, totp_enabled_at is not null as second_factor, password_must_change,
  added_by, issued_by_id, confirmed_at,
  coalesce((select json_agg(json_build_object('actor', c.confirmed_by, 'actorId', c.confirmed_by_id, 'at', c.confirmed_at) order by c.confirmed_at)
              from operators.team_member_confirmations c where c.member_id = team_members.id), '[]'::json) as confirmations`;
/**
 * How many admins confirm a person (issue #69): one, not the person who issued their credential; two
 * when nobody we know issued it (ADMIN_TOKEN in production, a service token), since its holder may be
 * any admin. The founding pair of a deployment is the exception (confirm()).
 */
const confirmationsRequired = (issuedById: string | null) => (issuedById === null ? 2 : 1);
interface TokenRow {
  id: string;
  name: string;
  role: AdminRole;
  member_id: string | null;
  created_at: Date | string;
  revoked_at: Date | string | null;
  last_used_at: Date | string | null;
}
const memberView = (r: MemberRow, totpRequiredRoles: readonly AdminRole[]) => ({
  id: r.id,
  email: r.email,
  role: r.role,
  createdAt: isoTime(r.created_at),
  disabledAt: isoTime(r.disabled_at),
  secondFactor: r.second_factor,
  addedBy: r.added_by,
  activated: setupSteps({ role: r.role, passwordMustChange: r.password_must_change, secondFactor: r.second_factor }, totpRequiredRoles).length === 0,
  confirmedAt: isoTime(r.confirmed_at),
  confirmedBy: r.confirmations.map((c) => ({ actor: c.actor, actorId: c.actorId, at: isoTime(c.at)! })),
  confirmationsNeeded: r.confirmed_at !== null ? 0 : Math.max(0, confirmationsRequired(r.issued_by_id) - r.confirmations.length),
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
      confirmed: boolean | null;
    }>(
      `update operators.service_tokens t set last_used_at = now()
        where t.id = ? and t.secret_hash = ? and t.revoked_at is null
          and (t.member_id is null or exists (select 1 from operators.team_members m where m.id = t.member_id and m.disabled_at is null))
        returning t.name, t.role, t.member_id,
          (select email from operators.team_members m where m.id = t.member_id) as email,
          (select password_must_change from operators.team_members m where m.id = t.member_id) as password_must_change,
          (select totp_enabled_at is not null from operators.team_members m where m.id = t.member_id) as second_factor,
          (select confirmed_at is not null from operators.team_members m where m.id = t.member_id) as confirmed`,
      [`tok_${m[1]}`, sha256(bearer)],
    );
    const r = rows[0];
    if (!r) return undefined;
    if (r.member_id === null || r.email === null) return { actor: `token:${r.name}`, role: r.role, root: false };
    const setupRequired = setupSteps(
      { role: r.role, passwordMustChange: r.password_must_change === true, secondFactor: r.second_factor === true },
      this.#totpRequiredRoles,
    );
    return { actor: `user:${r.email}`, role: r.role, root: false, personId: r.member_id, setupRequired, confirmed: r.confirmed === true };
  }

  readonly #view = (r: MemberRow) => memberView(r, this.#totpRequiredRoles);

  async createMember(input: { email: string; role: AdminRole }, by: Adder, requestId: string) {
    const password = oneTimePassword();
    const id = newId('teamMember');
    const hash = await hashPassword(password);
    const user = await this.#sql.transaction(async (tx) => {
      const [row] = await tx
        .query<MemberRow>(
          `insert into operators.team_members (id, email, role, password_hash, password_must_change, one_time_password_expires_at, created_at,
             added_by, added_by_id, issued_by_id)
           values (?, ?, ?, ?, true, now() + make_interval(hours => ?), now(), ?, ?, ?) returning ${MEMBER_COLUMNS}`,
          [id, input.email, input.role, hash, this.#oneTimePasswordHours, by.actor, by.personId ?? null, by.personId ?? null],
        )
        .catch((e) => {
          throw uniqueViolation(e) !== undefined ? new AppError('TEAM_MEMBER_ALREADY_EXISTS') : e;
        });
      const view = this.#view(row!);
      await recordAudit(tx, {
        actor: by.actor,
        actorId: memberIdOf(by),
        action: 'adminCreateUser',
        target: `team_member:${id}`,
        before: null,
        after: view,
        requestId,
      });
      return view;
    });
    return { user, password };
  }

  async listMembers() {
    const rows = await this.#sql.query<MemberRow>(`select ${MEMBER_COLUMNS} from operators.team_members order by created_at`);
    return rows.map(this.#view);
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
        before: this.#view(before),
        after: this.#view(after),
        requestId,
      });
      return this.#view(after);
    });
  }

  /**
   * For a person who forgot their password: a new one-time password (shown once, expiring like the
   * first), which the next sign-in must replace; the old one no longer signs in; their sessions end now.
   * The admin who resets it saw the new one: the person's confirmations end, and another admin
   * confirms them again once they set up (issue #69), exactly as after their addition.
   */
  async resetPassword(id: string, by: Adder, requestId: string) {
    const password = oneTimePassword();
    const hash = await hashPassword(password);
    return this.#sql.transaction(async (tx) => {
      const [before] = await tx.query<MemberRow>(`select ${MEMBER_COLUMNS} from operators.team_members where id = ? for update`, [id]);
      if (!before) throw new AppError('TEAM_MEMBER_NOT_FOUND');
      await tx.query(`delete from operators.team_member_confirmations where member_id = ?`, [id]);
      const user = onlyRow(
        await tx.query<MemberRow>(
          `update operators.team_members
              set password_hash = ?, password_must_change = true, one_time_password_used_at = null,
                  one_time_password_expires_at = now() + make_interval(hours => ?), issued_by_id = ?, confirmed_at = null
            where id = ? returning ${MEMBER_COLUMNS}`,
          [hash, this.#oneTimePasswordHours, by.personId ?? null, id],
        ),
      );
      await tx.query(`delete from operators.console_sessions where member_id = ?`, [id]);
      await recordAudit(tx, {
        actor: by.actor,
        actorId: memberIdOf(by),
        action: 'adminResetPassword',
        target: `team_member:${id}`,
        before: { confirmedAt: isoTime(before.confirmed_at) },
        after: { oneTimePassword: true, sessionsEnded: true, confirmedAt: null, confirmationsNeeded: this.#view(user).confirmationsNeeded },
        requestId,
      });
      return { user: this.#view(user), password };
    });
  }

  /**
   * A second admin confirms a person's power (issue #69). The confirmer is never the person, nor who
   * issued their current credential (compared by id); the person has set up their account (so the
   * one-time password the issuer saw is spent, and whoever holds the account now chose its password);
   * the confirmer is confirmed themself. A person issued by nobody we know (ADMIN_TOKEN in production,
   * a service token) takes two confirmations. Bootstrap: while the deployment has fewer than two
   * confirmed, enabled admins, an admin ADMIN_TOKEN added may confirm another such admin, unconfirmed,
   * and one confirmation is enough: the first two admins confirm each other. Outside production a
   * stand-in (ADMIN_TOKEN with X-Admin-Actor, `actor:` ids) confirms as a confirmed admin would, as it
   * decides anything there. Confirming someone already confirmed changes nothing.
   */
  async confirmMember(id: string, by: Adder, requestId: string) {
    const confirmerId = by.personId;
    if (!confirmerId) throw new AppError('PERSON_REQUIRED', 'A person confirms a person: sign in to the console, or use your personal API token.');
    return this.#sql.transaction(async (tx) => {
      // One confirmation at a time in the deployment: two founders' confirmations cannot both see "fewer than two".
      await tx.query(`select pg_advisory_xact_lock(hashtext('operators.team_member_confirmations'))`);
      const [m] = await tx.query<MemberRow>(`select ${MEMBER_COLUMNS} from operators.team_members where id = ? for update`, [id]);
      if (!m) throw new AppError('TEAM_MEMBER_NOT_FOUND');
      if (m.disabled_at !== null || !this.#view(m).activated) {
        throw new AppError('TEAM_MEMBER_NOT_ACTIVATED', undefined, { userId: m.id, disabled: m.disabled_at !== null });
      }
      if (m.confirmed_at !== null) return this.#view(m);
      if (confirmerId === m.id) throw new AppError('FOUR_EYES_REQUIRED', 'Nobody confirms themselves: a second admin confirms you.');
      if (confirmerId === m.issued_by_id) {
        throw new AppError(
          'FOUR_EYES_REQUIRED',
          'You added this person, or last reset their password, and so saw their one-time password: another admin confirms them (compared by id).',
        );
      }
      const standIn = confirmerId.startsWith('actor:');
      const [confirmer] = standIn
        ? []
        : await tx.query<{ role: AdminRole; issued_by_id: string | null; confirmed_at: string | null; disabled_at: string | null }>(
            `select role, issued_by_id, confirmed_at, disabled_at from operators.team_members where id = ?`,
            [confirmerId],
          );
      if (!standIn && (!confirmer || confirmer.disabled_at !== null || confirmer.role !== 'admin')) {
        throw new AppError('FORBIDDEN_ROLE', 'An admin confirms a person.');
      }
      const [{ n }] = (await tx.query<{ n: number }>(
        `select count(*)::int as n from operators.team_members where role = 'admin' and confirmed_at is not null and disabled_at is null`,
      )) as [{ n: number }];
      const founders = n < 2 && m.role === 'admin' && m.issued_by_id === null && (standIn || confirmer!.issued_by_id === null);
      if (!standIn && confirmer!.confirmed_at === null && !founders) {
        throw new AppError('PERSON_NOT_CONFIRMED', 'Your own power is not confirmed yet: a confirmed admin confirms others.');
      }
      // Confirming twice counts once.
      if (m.confirmations.some((c) => c.actorId === confirmerId)) return this.#view(m);
      await tx.query(
        `insert into operators.team_member_confirmations (member_id, confirmed_by_id, confirmed_by, confirmed_at) values (?, ?, ?, now())
         on conflict do nothing`,
        [m.id, confirmerId, by.actor],
      );
      const given = m.confirmations.filter((c) => c.actorId !== confirmerId).length + 1;
      const complete = given >= (founders ? 1 : confirmationsRequired(m.issued_by_id));
      const after = onlyRow(
        await tx.query<MemberRow>(
          `update operators.team_members set confirmed_at = case when ? then now() else null end where id = ? returning ${MEMBER_COLUMNS}`,
          [complete, m.id],
        ),
      );
      const view = this.#view(after);
      await recordAudit(tx, {
        actor: by.actor,
        actorId: memberIdOf(by),
        action: 'adminConfirmUser',
        target: `team_member:${m.id}`,
        before: { confirmedAt: null, confirmedBy: this.#view(m).confirmedBy },
        // Who added them, that they activated their account themselves, who confirmed: the whole chain in one row.
        after: {
          addedBy: m.added_by,
          activated: true,
          confirmedAt: view.confirmedAt,
          confirmedBy: view.confirmedBy,
          confirmationsNeeded: view.confirmationsNeeded,
          ...(founders ? { foundingPair: true } : {}),
        },
        requestId,
      });
      return view;
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
        before: this.#view(before),
        after: this.#view(after),
        requestId,
      });
      return this.#view(after);
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
