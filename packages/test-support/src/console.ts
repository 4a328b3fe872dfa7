// A person signing in to the team console over HTTP, as the sign-in page does: the session cookie
// and its CSRF token. A new person signs in with the one-time password `users create` printed and
// must choose their own before the admin API takes the session (`firstConsoleSignIn` does both).

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
