// A person signing in to the team console over HTTP, as the sign-in page does: the session cookie
// and its CSRF token. A new person signs in with the one-time password `users create` printed and
// must choose their own before the admin API takes the session (`firstConsoleSignIn` does both);
// `activatedPerson` goes on to TOTP where needed and the person's own personal token (issue #56).
import { createHmac } from 'node:crypto';

/** A password the policy accepts (long, not an e-mail, not a common one), distinct per person. */
export const chosenPassword = (email: string) => `${email.split('@')[0]}-chose-this-passphrase-7`;

interface ConsoleSession {
  /** `bo_console=<token>`: the Cookie header value. */
  cookie: string;
  csrfToken: string;
  setupRequired: string[];
}

/** Signs in with e-mail and password (and code); throws with the envelope when refused. */
async function consoleSignIn(adminUrl: string, email: string, password: string, totp?: string): Promise<ConsoleSession> {
  const res = await fetch(`${adminUrl}/console/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, ...(totp ? { totp } : {}) }),
  });
  const body = (await res.json()) as { csrfToken: string; setupRequired: string[] };
  if (res.status !== 200) throw new Error(`console sign-in of ${email}: ${res.status} ${JSON.stringify(body)}`);
  return { cookie: res.headers.get('set-cookie')!.split(';')[0]!, csrfToken: body.csrfToken, setupRequired: body.setupRequired };
}

/** Replaces the signed-in person's password through the console's route. */
async function changeConsolePassword(adminUrl: string, s: ConsoleSession, currentPassword: string, newPassword: string): Promise<void> {
  const res = await fetch(`${adminUrl}/console/password`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: s.cookie, 'x-csrf-token': s.csrfToken },
    body: JSON.stringify({ currentPassword, newPassword }),
  });
  if (res.status !== 200) throw new Error(`password change: ${res.status} ${await res.text()}`);
}

/** First sign-in with a one-time password: signs in and chooses `chosenPassword(email)` (or `newPassword`). */
export async function firstConsoleSignIn(
  adminUrl: string,
  email: string,
  oneTimePassword: string,
  newPassword = chosenPassword(email),
): Promise<ConsoleSession & { password: string }> {
  const s = await consoleSignIn(adminUrl, email, oneTimePassword);
  await changeConsolePassword(adminUrl, s, oneTimePassword, newPassword);
  return { ...s, setupRequired: s.setupRequired.filter((step) => step !== 'password'), password: newPassword };
}

/** RFC 6238 (SHA-1, 6 digits, 30 s) as an authenticator app computes it, at `at` (ms): the console's TOTP, without a library. */
export function totpCode(base32Secret: string, at = Date.now()): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const c of base32Secret.replace(/=+$/, '').toUpperCase()) bits += alphabet.indexOf(c).toString(2).padStart(5, '0');
  const key = Buffer.from((bits.match(/.{8}/g) ?? []).map((b) => Number.parseInt(b, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 30_000)));
  const mac = createHmac('sha1', key).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0xf;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

/** A person activated as issue #56 asks before any power is theirs, with their own personal token. */
export interface ActivatedPerson {
  id: string;
  email: string;
  role: string;
  password: string;
  /** Their console session (`bo_console=…`) and its CSRF token. */
  cookie: string;
  csrfToken: string;
  /** The base32 TOTP secret when two-factor sign-in is on (`totpCode(secret, at)` gives a code). */
  totpSecret?: string;
  /** The code that turned TOTP on (spent): computing it again later may land in the next 30 s step. */
  enrolmentCode?: string;
  /** Their own personal API token (`bo_tok_…`), made from their session; absent with `token: false`. */
  token?: string;
  tokenId?: string;
}

async function postJson(url: string, headers: Record<string, string>): Promise<{ status: number; body: any }> {
  const res = await fetch(url, { method: 'POST', headers });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** The stand-in label that confirms people outside production (never the label of whoever added them). */
const CONFIRMING_STAND_IN = 'second-admin';
const foundingPairs = new Map<string, Promise<ActivatedPerson[]>>();

/**
 * The first two admins of a deployment (issue #69), added with the bootstrap token and confirming
 * each other; made once per admin URL. They confirm people in production, where ADMIN_TOKEN is nobody.
 */
function foundingPair(adminUrl: string, rootHeaders: Record<string, string>): Promise<ActivatedPerson[]> {
  let pair = foundingPairs.get(adminUrl);
  if (!pair) {
    pair = (async () => {
      const port = new URL(adminUrl).port;
      const founders: ActivatedPerson[] = [];
      for (const name of ['founder-a', 'founder-b']) {
        founders.push(await activatedPerson(adminUrl, rootHeaders, { email: `${name}.${port}@ourteam.example`, role: 'admin', token: false, confirm: false }));
      }
      for (const [by, whom] of [
        [founders[0]!, founders[1]!],
        [founders[1]!, founders[0]!],
      ] as const) {
        const r = await postJson(`${adminUrl}/admin/users/${whom.id}/confirm`, { cookie: by.cookie, 'x-csrf-token': by.csrfToken });
        if (r.status !== 200) throw new Error(`the founding pair's confirmation: ${r.status} ${JSON.stringify(r.body)}`);
      }
      return founders;
    })();
    pair.catch(() => foundingPairs.delete(adminUrl));
    foundingPairs.set(adminUrl, pair);
  }
  return pair;
}

/**
 * A second admin confirms an activated person's power (issue #69), as the rule wants before their
 * first decision. Outside production a stand-in of another label than the adder's confirms
 * (ADMIN_TOKEN with X-Admin-Actor, as stand-ins decide there); in production, where ADMIN_TOKEN is
 * nobody, the deployment's founding pair does (both of them: a person ADMIN_TOKEN added takes two).
 * `adminHeaders`: how the person was added (their bearer, for the bootstrap token).
 */
export async function confirmPerson(adminUrl: string, adminHeaders: Record<string, string>, memberId: string): Promise<void> {
  const url = `${adminUrl}/admin/users/${memberId}/confirm`;
  if (adminHeaders.authorization) {
    const label = adminHeaders['x-admin-actor'] === CONFIRMING_STAND_IN ? `${CONFIRMING_STAND_IN}-2` : CONFIRMING_STAND_IN;
    const r = await postJson(url, { authorization: adminHeaders.authorization, 'x-admin-actor': label });
    if (r.status === 200 && r.body.confirmedAt) return;
    // In production the header is ignored: ADMIN_TOKEN is nobody (PERSON_REQUIRED), and a personal token is its person.
    if (r.status === 200 || !['PERSON_REQUIRED', 'FOUR_EYES_REQUIRED', 'FORBIDDEN_ROLE', 'PERSON_NOT_CONFIRMED'].includes(r.body?.error?.code)) {
      if (r.status !== 200) throw new Error(`confirming ${memberId}: ${r.status} ${JSON.stringify(r.body)}`);
    }
    const root = { authorization: adminHeaders.authorization };
    for (const founder of await foundingPair(adminUrl, root)) {
      if (founder.id === memberId) continue;
      const c = await postJson(url, { cookie: founder.cookie, 'x-csrf-token': founder.csrfToken });
      if (c.status === 200 && c.body.confirmedAt) return;
      if (c.status !== 200 && c.body?.error?.code !== 'FOUR_EYES_REQUIRED') throw new Error(`confirming ${memberId}: ${c.status} ${JSON.stringify(c.body)}`);
    }
    throw new Error(`confirming ${memberId}: still not confirmed after the founding pair`);
  }
  throw new Error(`confirming ${memberId}: added without a bearer token; confirm them in the test (confirm: false)`);
}

/**
 * A new team member, activated the only way there is: an admin adds them (`adminHeaders`: the
 * admin's bearer, e.g. ADMIN_TOKEN); they sign in with the one-time password, choose their own,
 * turn on TOTP when their role requires it (the session's `setupRequired` says) or `secondFactor`
 * asks, and make their own personal token from that session (with a fresh code when TOTP is on).
 * The sign-in used the current code's step and the token the next one: a later sign-in needs a
 * later code still (`totpCode(secret, Date.now() + 60_000)`).
 */
export async function activatedPerson(
  adminUrl: string,
  adminHeaders: Record<string, string>,
  o: { email: string; role: string; secondFactor?: boolean; token?: boolean; tokenName?: string; confirm?: boolean },
): Promise<ActivatedPerson> {
  const created = await fetch(`${adminUrl}/admin/users`, {
    method: 'POST',
    headers: { ...adminHeaders, 'content-type': 'application/json' },
    body: JSON.stringify({ email: o.email, role: o.role }),
  });
  const made = (await created.json()) as { user: { id: string }; password: string };
  if (created.status !== 201) throw new Error(`adding ${o.email}: ${created.status} ${JSON.stringify(made)}`);
  const s = await firstConsoleSignIn(adminUrl, o.email, made.password);
  const asPerson = async (p: string, body?: unknown) => {
    const res = await fetch(`${adminUrl}${p}`, {
      method: 'POST',
      headers: { cookie: s.cookie, 'x-csrf-token': s.csrfToken, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    const answer = (await res.json()) as Record<string, unknown>;
    if (!res.ok) throw new Error(`${p} for ${o.email}: ${res.status} ${JSON.stringify(answer)}`);
    return answer;
  };
  let totpSecret: string | undefined;
  let enrolmentCode: string | undefined;
  if (o.secondFactor || s.setupRequired.includes('secondFactor')) {
    totpSecret = (await asPerson('/console/second-factor')).secret as string;
    enrolmentCode = totpCode(totpSecret);
    await asPerson('/console/second-factor/confirm', { code: enrolmentCode });
  }
  const person: ActivatedPerson = {
    id: made.user.id,
    email: o.email,
    role: o.role,
    password: s.password,
    cookie: s.cookie,
    csrfToken: s.csrfToken,
    ...(totpSecret ? { totpSecret, enrolmentCode } : {}),
  };
  if (o.confirm !== false) await confirmPerson(adminUrl, adminHeaders, made.user.id);
  if (o.token === false) return person;
  const minted = await asPerson('/admin/account/tokens', {
    name: o.tokenName ?? `${o.email.split('@')[0]!.replace(/[^A-Za-z0-9_.-]/g, '-')}-own`,
    ...(totpSecret ? { totp: totpCode(totpSecret, Date.now() + 30_000) } : {}),
  });
  return { ...person, token: minted.secret as string, tokenId: (minted.token as { id: string }).id };
}
