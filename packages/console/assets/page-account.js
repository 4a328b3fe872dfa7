// The signed-in person's account: who they are, changing their password (the current one
// required), turning on the TOTP second factor, and their own personal API tokens (issue #56: made
// only here, by their owner, with a fresh code from the authenticator when two-factor sign-in is
// on; listed and revoked here; admins see and revoke them on /team). Turning TOTP off is our admin's
// (`npm run admin -- users reset-second-factor`), for a lost phone; so is a forgotten password
// (`npm run admin -- users reset-password`: a new one-time password).
import { useState } from 'preact/hooks';
import { html, api, session, useLoad, useAction, Loaded, ErrorNote, ShownOnce, ZonedTime, label, say } from './kit.js';
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
      const what = say(
        `O segredo do seu token pessoal ${made.token.name} (${label(made.token.role)})`,
        `The secret of your personal token ${made.token.name} (${label(made.token.role)})`,
      );
      setShown({ kind: 'token', what, secret: made.secret });
      list.reload();
    }
  };
  const revoke = async (tk) => {
    const question = say(
      `Revogar agora o seu token ${tk.name}? Toda requisição com ele é recusada a partir de agora.`,
      `Revoke your token ${tk.name} now? Every request with it is refused from now on.`,
    );
    if (!confirm(question)) return;
    if (await act.run(() => api('POST', `/admin/account/tokens/${encodeURIComponent(tk.id)}/revoke`))) list.reload();
  };
  return html`<section class="card" aria-label="Your API tokens">
    <h2>${say('Seus tokens de API', 'Your API tokens')}</h2>
    <p class="muted">${say(
      `Um token pessoal age como você, na sua função, na API de administração (scripts, a CLI), e pode tomar as decisões que pedem uma pessoa. Só você faz os seus, aqui${secondFactor ? ', com um código novo do seu app autenticador' : ''}; ele para quando você é desativado ou precisa configurar a conta de novo.`,
      `A personal token acts as you, in your role, on the admin API (scripts, the CLI), and may take the decisions that need a person. Only you make yours, here${secondFactor ? ', with a fresh code from your authenticator app' : ''}; it stops when you are disabled or must set up your account again.`,
    )}</p>
    ${shown ? html`<${ShownOnce} shown=${shown} />` : null}
    <form class="inline" onSubmit=${create} aria-label="Make a personal token">
      <label>${say('Nome', 'Name')} <input name="name" required minlength="2" maxlength="64" pattern="[A-Za-z0-9_.\\-]+" /></label>
      ${secondFactor ? html`<label>${say('Código do app', 'Code from the app')} <input name="totp" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required /></label>` : null}
      <button type="submit" disabled=${make.busy}>${say('Fazer token', 'Make token')}</button><${ErrorNote} error=${make.error} fieldLabel=${(path) => (path === '/totp' ? say('Código', 'Code') : say('Nome', 'Name'))} />
    </form>
    <${Loaded} state=${list}>${(page) =>
      page.data.length === 0
        ? html`<p class="empty">${say('Nenhum token ainda.', 'No token yet.')}</p>`
        : html`<table class="stack team">
      <thead><tr><th>${say('Nome', 'Name')}</th><th>${say('Função', 'Role')}</th><th>${say('Feito', 'Made')}</th><th>${say('Último uso', 'Last used')}</th><th>${say('Situação', 'Status')}</th><th></th></tr></thead>
      <tbody>${page.data.map(
        (tk) => html`<tr data-token=${tk.name} data-status=${tk.revokedAt ? 'revoked' : 'active'}>
          <td data-label=${say('Nome', 'Name')}><code>${tk.name}</code></td><td data-label=${say('Função', 'Role')}>${label(tk.role)}</td><td data-label=${say('Feito', 'Made')}><${ZonedTime} iso=${tk.createdAt} /></td><td data-label=${say('Último uso', 'Last used')}><${ZonedTime} iso=${tk.lastUsedAt} /></td>
          <td data-label=${say('Situação', 'Status')}>${tk.revokedAt ? html`${label('revoked')} <${ZonedTime} iso=${tk.revokedAt} />` : label('active')}</td>
          <td>${tk.revokedAt ? null : html`<button type="button" class="danger" disabled=${act.busy} onClick=${() => revoke(tk)}>${say('Revogar', 'Revoke')}</button>`}</td>
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
    <dl class="profile"><dt>E-mail</dt><dd>${session.current.user.email}</dd><dt>${say('Função', 'Role')}</dt><dd>${label(session.current.user.role)}</dd>
      <dt>${say('Login em duas etapas', 'Two-factor sign-in')}</dt><dd id="second-factor" data-on=${on ? 'on' : 'off'}>${on ? say('ligado', 'on') : say('desligado', 'off')}</dd></dl>
    ${
      on
        ? html`<p>${say(
            'Cada login pede um código do seu app autenticador. Perdeu o app? Nossa equipe de administração pode redefini-lo.',
            'Each sign-in asks for a code from your authenticator app. Lost it? Our admin team can reset it.',
          )}</p>`
        : html`<${SecondFactorSetup} onDone=${() => setOn(true)} />`
    }
    <section class="card">
      <h2>${say('Senha', 'Password')}</h2>
      <p>${say(
        'Trocá-la encerra suas outras sessões. Esqueceu? Nossa equipe de administração pode emitir uma senha de uso único.',
        'Changing it signs you out everywhere else. Forgot it? Our admin team can issue a one-time password.',
      )}</p>
      <${PasswordForm} currentLabel=${say('Senha atual', 'Current password')} onDone=${() => setChanged(true)} />
      ${changed ? html`<p role="status" id="password-changed">${say('Sua senha foi trocada.', 'Your password is changed.')}</p>` : null}
    </section>
    <${OwnTokens} secondFactor=${on} />
  </div>`;
}
