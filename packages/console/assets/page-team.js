// Our team, for admins: the people (add one with a role, reset a password or a lost authenticator,
// disable) and the API tokens (every one listed and revocable; service tokens issued with a role;
// personal tokens are made by their own people on /account, issue #56). A one-time password or a
// service token's secret is shown once, here, to the admin who asked: never printed to a terminal or logged.
import { useState } from 'preact/hooks';
import { html, api, useLoad, useAction, Loaded, ErrorNote, ShownOnce, ZonedTime, may, label, person, say } from './kit.js';

/** The roles an admin gives; `regulator`: the Ministry's inspectors, who read and change nothing (issue #69). */
const ROLES = ['compliance', 'finance', 'support', 'admin', 'regulator'];

function RoleSelect() {
  return html`<select name="role" required>${ROLES.map((r) => html`<option value=${r}>${label(r)}</option>`)}</select>`;
}

/** Set up, but not yet confirmed by enough admins: the Confirm button's person. */
const awaitsConfirmation = (u) => u.activated === true && (u.confirmationsNeeded ?? 0) > 0;

/** A person's standing: waiting to set up their account, waiting for a confirmation, or active (confirmed, and by whom). */
function standing(u) {
  if (u.activated === false) return say('aguarda a configuração da conta', 'awaits their account set-up');
  if (awaitsConfirmation(u)) return say(`aguarda confirmação (${u.confirmationsNeeded})`, `awaits confirmation (${u.confirmationsNeeded})`);
  const by = (u.confirmedBy ?? []).map((c) => person(c.actor)).join(', ');
  return by ? `${label('active')} · ${say('confirmada por', 'confirmed by')} ${by}` : label('active');
}

function People({ list, onShown }) {
  const add = useAction();
  const act = useAction();
  const create = async (e) => {
    e.preventDefault();
    const f = e.currentTarget;
    const created = await add.run(() => api('POST', '/admin/users', { email: f.email.value.trim(), role: f.role.value }));
    if (created) {
      f.reset();
      onShown({
        kind: 'password',
        what: say(
          `A senha de uso único de ${created.user.email} (${label(created.user.role)})`,
          `The one-time password of ${created.user.email} (${created.user.role})`,
        ),
        secret: created.password,
      });
      list.reload();
    }
  };
  const resetPassword = async (u) => {
    const question = say(
      `Emitir uma nova senha de uso único para ${u.email}? As sessões dessa pessoa terminam e a senha atual deixa de valer.`,
      `Issue a new one-time password for ${u.email}? Their sessions end and their current password stops working.`,
    );
    if (!confirm(question)) return;
    const reset = await act.run(() => api('POST', `/admin/users/${encodeURIComponent(u.id)}/reset-password`));
    if (reset) {
      onShown({ kind: 'password', what: say(`A nova senha de uso único de ${u.email}`, `The new one-time password of ${u.email}`), secret: reset.password });
      list.reload();
    }
  };
  const simple = (path, question) => async (u) => {
    if (!confirm(question(u))) return;
    if (await act.run(() => api('POST', `/admin/users/${encodeURIComponent(u.id)}/${path}`))) list.reload();
  };
  const resetSecondFactor = simple('reset-second-factor', (u) =>
    say(
      `Desligar o login em dois fatores de ${u.email}? A pessoa o configura de novo no próximo login, se a função dela exigir.`,
      `Turn off two-factor sign-in for ${u.email}? They set it up again at their next sign-in if their role requires it.`,
    ),
  );
  // Four eyes on people (issue #69): a second admin confirms a person's power before their first decision.
  const confirmPower = simple('confirm', (u) =>
    say(
      `Confirmar o poder de ${u.email} (${label(u.role)})? Só um administrador que não incluiu a pessoa confirma.`,
      `Confirm the power of ${u.email} (${label(u.role)})? Only an admin who did not add them confirms.`,
    ),
  );
  const disable = simple('disable', (u) =>
    say(
      `Desativar ${u.email}? As sessões e os logins dessa pessoa são recusados a partir de agora.`,
      `Disable ${u.email}? Their sessions and sign-ins are refused from now on.`,
    ),
  );
  const [role, twoFactor, added, status] = [say('Função', 'Role'), say('Dois fatores', 'Two-factor'), say('Incluída', 'Added'), say('Situação', 'Status')];
  return html`<section class="card" aria-label=${say('Pessoas', 'People')} data-section="people">
    <h2>${say('Pessoas', 'People')}</h2>
    <form class="inline" onSubmit=${create} aria-label=${say('Incluir uma pessoa', 'Add a person')}>
      <label>E-mail <input name="email" type="email" required maxlength="254" /></label>
      <label>${role} <${RoleSelect} /></label>
      <button type="submit" disabled=${add.busy}>${say('Incluir', 'Add')}</button><${ErrorNote} error=${add.error} />
    </form>
    <${Loaded} state=${list}>${(page) => html`<table class="stack team">
      <thead><tr><th>E-mail</th><th>${role}</th><th>${twoFactor}</th><th>${added}</th><th>${status}</th><th></th></tr></thead>
      <tbody>${page.data.map(
        (u) => html`<tr data-user=${u.email} data-status=${u.disabledAt ? 'disabled' : 'active'}>
          <td data-label="E-mail">${u.email}</td><td data-label=${role}>${label(u.role)}</td><td data-label=${twoFactor}>${u.secondFactor ? say('ligado', 'on') : say('desligado', 'off')}</td><td data-label=${added}><${ZonedTime} iso=${u.createdAt} /></td>
          <td data-label=${status}>${u.disabledAt ? html`${label('disabled')} <${ZonedTime} iso=${u.disabledAt} />` : standing(u)}</td>
          <td>${
            u.disabledAt
              ? null
              : html`<div class="actions">
                  ${awaitsConfirmation(u) ? html`<button type="button" disabled=${act.busy} onClick=${() => confirmPower(u)} data-confirm-person>${say('Confirmar', 'Confirm')}</button>` : null}
                  <button type="button" disabled=${act.busy} onClick=${() => resetPassword(u)}>${say('Nova senha', 'Reset password')}</button>
                  ${u.secondFactor ? html`<button type="button" disabled=${act.busy} onClick=${() => resetSecondFactor(u)}>${say('Zerar dois fatores', 'Reset two-factor')}</button>` : null}
                  <button type="button" class="danger" disabled=${act.busy} onClick=${() => disable(u)}>${say('Desativar', 'Disable')}</button>
                </div>`
          }</td>
        </tr>`,
      )}</tbody>
    </table>`}<//>
    <${ErrorNote} error=${act.error} />
  </section>`;
}

/**
 * API tokens: every one listed (a person's own personal tokens, made by each person on their
 * Account page, and the service ones), each revocable here. An admin issues service tokens only (one
 * role, no person, no decision): nobody makes a personal token for someone else (issue #56).
 */
function Tokens({ people, onShown }) {
  const list = useLoad(() => api('GET', '/admin/tokens'));
  const add = useAction();
  const act = useAction();
  const emailOf = (id) => (people.data?.data ?? []).find((u) => u.id === id)?.email ?? id;
  const create = async (e) => {
    e.preventDefault();
    const f = e.currentTarget;
    const created = await add.run(() => api('POST', '/admin/tokens', { name: f.name.value.trim(), role: f.role.value }));
    if (created) {
      f.reset();
      onShown({
        kind: 'token',
        what: say(
          `O segredo do token de serviço ${created.token.name} (${label(created.token.role)})`,
          `The secret of the service token ${created.token.name} (${created.token.role})`,
        ),
        secret: created.secret,
      });
      list.reload();
    }
  };
  const revoke = async (tk) => {
    const whose = tk.userId
      ? say(`o token pessoal de ${emailOf(tk.userId)}`, `${emailOf(tk.userId)}'s personal token`)
      : say('o token de serviço', 'the service token');
    const question = say(
      `Revogar agora ${whose} ${tk.name}? Toda requisição com ele é recusada a partir de agora.`,
      `Revoke ${whose} ${tk.name} now? Every request with it is refused from now on.`,
    );
    if (!confirm(question)) return;
    if (await act.run(() => api('POST', `/admin/tokens/${encodeURIComponent(tk.id)}/revoke`))) list.reload();
  };
  const [name, person, role, issued, lastUsed, status] = [
    say('Nome', 'Name'),
    say('Pessoa', 'Person'),
    say('Função', 'Role'),
    say('Emitido', 'Issued'),
    say('Último uso', 'Last used'),
    say('Situação', 'Status'),
  ];
  return html`<section class="card" aria-label=${say('Tokens de API', 'API tokens')} data-section="tokens">
    <h2>${say('Tokens de API', 'API tokens')}</h2>
    <p class="muted">${say(
      'Tokens Bearer para a API de administração (scripts, a CLI). Um token de serviço tem uma função e não toma decisões. Um token pessoal age como a sua pessoa e só ela o cria, na própria página Conta: ninguém cria um para outra pessoa. Revogue qualquer um aqui.',
      'Bearer tokens for the admin API (scripts, the CLI). A service token has one role and takes no decision. A personal token acts as its person and is made only by that person, on their own Account page: nobody makes one for someone else. Revoke any of them here.',
    )}</p>
    <form class="inline" onSubmit=${create} aria-label=${say('Emitir um token de serviço', 'Issue a service token')}>
      <label>${name} <input name="name" required minlength="2" maxlength="64" pattern="[A-Za-z0-9_.\\-]+" /></label>
      <label>${role} <${RoleSelect} /></label>
      <button type="submit" disabled=${add.busy}>${say('Emitir', 'Issue')}</button><${ErrorNote} error=${add.error} />
    </form>
    <${Loaded} state=${list}>${(page) =>
      page.data.length === 0
        ? html`<p class="empty">${say('Nenhum token ainda.', 'No token yet.')}</p>`
        : html`<table class="stack team">
      <thead><tr><th>${name}</th><th>${person}</th><th>${role}</th><th>${issued}</th><th>${lastUsed}</th><th>${status}</th><th></th></tr></thead>
      <tbody>${page.data.map(
        (tk) => html`<tr data-token=${tk.name} data-status=${tk.revokedAt ? 'revoked' : 'active'}>
          <td data-label=${name}><code>${tk.name}</code></td><td data-label=${person}>${tk.userId ? emailOf(tk.userId) : html`<span class="muted">${say('serviço', 'service')}</span>`}</td><td data-label=${role}>${label(tk.role)}</td><td data-label=${issued}><${ZonedTime} iso=${tk.createdAt} /></td><td data-label=${lastUsed}><${ZonedTime} iso=${tk.lastUsedAt} /></td>
          <td data-label=${status}>${tk.revokedAt ? html`${label('revoked')} <${ZonedTime} iso=${tk.revokedAt} />` : label('active')}</td>
          <td>${tk.revokedAt ? null : html`<button type="button" class="danger" disabled=${act.busy} onClick=${() => revoke(tk)}>${say('Revogar', 'Revoke')}</button>`}</td>
        </tr>`,
      )}</tbody>
    </table>`}<//>
    <${ErrorNote} error=${act.error} />
  </section>`;
}

export function TeamPage() {
  const [shown, setShown] = useState(undefined);
  const people = useLoad(() => (may() ? api('GET', '/admin/users') : Promise.resolve({ data: [] })));
  if (!may()) return html`<p class="muted">${say('A equipe é gerida pelos administradores.', 'The team is managed by admins.')}</p>`;
  return html`<div>
    ${shown ? html`<${ShownOnce} shown=${shown} />` : null}
    <${People} list=${people} onShown=${setShown} />
    <${Tokens} people=${people} onShown=${setShown} />
  </div>`;
}
