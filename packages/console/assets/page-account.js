// The signed-in person's account: who they are, changing their password (the current one
// required), and turning on the TOTP second factor. Turning it off is our admin's
// (`npm run admin -- users reset-second-factor`), for a lost phone; so is a forgotten password
// (`npm run admin -- users reset-password`: a new one-time password).
import { useState } from 'preact/hooks';
import { html, session } from './kit.js';
import { PasswordForm, SecondFactorSetup } from './account-forms.js';

export function AccountPage() {
  const [on, setOn] = useState(session.current.user.secondFactor);
  const [changed, setChanged] = useState(false);
  return html`<div>
    <dl class="profile"><dt>E-mail</dt><dd>${session.current.user.email}</dd><dt>Role</dt><dd>${session.current.user.role}</dd>
      <dt>Two-factor sign-in</dt><dd id="second-factor">${on ? 'on' : 'off'}</dd></dl>
    ${
      on
        ? html`<p>Each sign-in asks for a code from your authenticator app. Lost it? Our admin team can reset it.</p>`
        : html`<${SecondFactorSetup} onDone=${() => setOn(true)} />`
    }
    <section class="card">
      <h2>Password</h2>
      <p>Changing it signs you out everywhere else. Forgot it? Our admin team can issue a one-time password.</p>
      <${PasswordForm} currentLabel="Current password" onDone=${() => setChanged(true)} />
      ${changed ? html`<p role="status" id="password-changed">Your password is changed.</p>` : null}
    </section>
  </div>`;
}
