// The signed-in person's account: who they are, and turning on the TOTP second factor (a secret to
// add to an authenticator app, then a first code to confirm it). Turning it off is our admin's
// (`npm run admin -- users reset-second-factor`), for a lost phone.
import { useState } from 'preact/hooks';
import { html, api, useAction, ErrorNote, session } from './kit.js';

export function AccountPage() {
  const [on, setOn] = useState(session.current.user.secondFactor);
  const [setup, setSetup] = useState(undefined);
  const start = useAction();
  const confirm = useAction();
  const begin = async () => setSetup(await start.run(() => api('POST', '/console/second-factor')));
  const finish = async (e) => {
    e.preventDefault();
    if (await confirm.run(() => api('POST', '/console/second-factor/confirm', { code: e.currentTarget.code.value.trim() }))) {
      setOn(true);
      setSetup(undefined);
    }
  };
  return html`<div>
    <dl class="profile"><dt>E-mail</dt><dd>${session.current.user.email}</dd><dt>Role</dt><dd>${session.current.user.role}</dd>
      <dt>Two-factor sign-in</dt><dd id="second-factor">${on ? 'on' : 'off'}</dd></dl>
    ${
      on
        ? html`<p>Each sign-in asks for a code from your authenticator app. Lost it? Our admin team can reset it.</p>`
        : setup
          ? html`<section class="card">
              <p>Add this account to your authenticator app (Google Authenticator, 1Password, Aegis…): open the link on your phone, or type the key.</p>
              <p>Key: <code id="totp-secret">${setup.secret}</code></p>
              <p><a href=${setup.uri}>Open in an authenticator app</a></p>
              <form class="inline" onSubmit=${finish} aria-label="Confirm two-factor">
                <label>Code from the app <input name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required /></label>
                <button type="submit" disabled=${confirm.busy}>Turn on</button><${ErrorNote} error=${confirm.error} />
              </form>
            </section>`
          : html`<button type="button" onClick=${begin} disabled=${start.busy}>Set up two-factor sign-in</button><${ErrorNote} error=${start.error} />`
    }
  </div>`;
}
