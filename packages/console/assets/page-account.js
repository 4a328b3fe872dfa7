// The signed-in person's account: who they are, changing their password (the current one
// required), turning on the TOTP second factor, and their own personal API tokens (issue #56: made
// only here, by their owner, with a fresh code from the authenticator when two-factor sign-in is
// on; listed and revoked here; admins see and revoke them on /team). Turning TOTP off is our admin's
// (`npm run admin -- users reset-second-factor`), for a lost phone; so is a forgotten password
// (`npm run admin -- users reset-password`: a new one-time password).
import { useState } from 'preact/hooks';
import { html, api, session, useLoad, useAction, Loaded, ErrorNote, ShownOnce, time } from './kit.js';
import { PasswordForm, SecondFactorSetup } from './account-forms.js';

/** The person's own personal tokens: they act as the person, in their role, and may take the decisions that need one. */
function OwnTokens({ secondFactor }) {
  const list = useLoad(() => api('GET', '/admin/account/tokens'));
  const make = useAction();
  const act = useAction();
  const [shown, setShown] = useState(undefined);
  const create = async (e) => {
    e.preventDefault();
    const f = e.currentTarget;
    const body = { name: f.name.value.trim(), ...(secondFactor ? { totp: f.totp.value.trim() } : {}) };
    const made = await make.run(() => api('POST', '/admin/account/tokens', body));
    if (made) {
      f.reset();
      setShown({ kind: 'token', what: `The secret of your personal token ${made.token.name} (${made.token.role})`, secret: made.secret });
      list.reload();
    }
  };
  const revoke = async (tk) => {
    if (!confirm(`Revoke your token ${tk.name} now? Every request with it is refused from now on.`)) return;
    if (await act.run(() => api('POST', `/admin/account/tokens/${encodeURIComponent(tk.id)}/revoke`))) list.reload();
  };
  return html`<section class="card" aria-label="Your API tokens">
    <h2>Your API tokens</h2>
    <p class="muted">A personal token acts as you, in your role, on the admin API (scripts, the CLI), and may take the decisions that need a person. Only you make yours, here${secondFactor ? ', with a fresh code from your authenticator app' : ''}; it stops when you are disabled or must set up your account again.</p>
    ${shown ? html`<${ShownOnce} shown=${shown} />` : null}
    <form class="inline" onSubmit=${create} aria-label="Make a personal token">
      <label>Name <input name="name" required minlength="2" maxlength="64" pattern="[A-Za-z0-9_.\\-]+" /></label>
      ${secondFactor ? html`<label>Code from the app <input name="totp" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required /></label>` : null}
      <button type="submit" disabled=${make.busy}>Make token</button><${ErrorNote} error=${make.error} />
    </form>
    ${make.error?.details?.issues?.map((i) => html`<p class="error">${i.path === '/totp' ? 'Code' : i.path}: ${i.message}.</p>`)}
    <${Loaded} state=${list}>${(page) =>
      page.data.length === 0
        ? html`<p class="empty">No token yet.</p>`
        : html`<table class="team">
      <thead><tr><th>Name</th><th>Role</th><th>Made</th><th>Last used</th><th>Status</th><th></th></tr></thead>
      <tbody>${page.data.map(
        (tk) => html`<tr data-token=${tk.name} data-status=${tk.revokedAt ? 'revoked' : 'active'}>
          <td><code>${tk.name}</code></td><td>${tk.role}</td><td>${time(tk.createdAt)}</td><td>${time(tk.lastUsedAt)}</td>
          <td>${tk.revokedAt ? `revoked ${time(tk.revokedAt)}` : 'active'}</td>
          <td>${tk.revokedAt ? null : html`<button type="button" class="danger" disabled=${act.busy} onClick=${() => revoke(tk)}>Revoke</button>`}</td>
        </tr>`,
      )}</tbody>
    </table>`}<//>
    <${ErrorNote} error=${act.error} />
  </section>`;
}

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
    <${OwnTokens} secondFactor=${on} />
  </div>`;
}
