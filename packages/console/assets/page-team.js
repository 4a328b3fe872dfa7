// Our team, for admins: the people (add one with a role, reset a password or a lost authenticator,
// disable) and the API tokens (every one listed and revocable; service tokens issued with a role;
// personal tokens are made by their own people on /account, issue #56). A one-time password or a
// service token's secret is shown once, here, to the admin who asked: never printed to a terminal or logged.
import { useState } from 'preact/hooks';
import { html, api, useLoad, useAction, Loaded, ErrorNote, ShownOnce, ZonedTime, time, may, label } from './kit.js';

const ROLES = ['compliance', 'finance', 'support', 'admin'];

function RoleSelect() {
  return html`<select name="role" required>${ROLES.map((r) => html`<option value=${r}>${label(r)}</option>`)}</select>`;
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
      onShown({ kind: 'password', what: `The one-time password of ${created.user.email} (${created.user.role})`, secret: created.password });
      list.reload();
    }
  };
  const resetPassword = async (u) => {
    if (!confirm(`Issue a new one-time password for ${u.email}? Their sessions end and their current password stops working.`)) return;
    const reset = await act.run(() => api('POST', `/admin/users/${encodeURIComponent(u.id)}/reset-password`));
    if (reset) {
      onShown({ kind: 'password', what: `The new one-time password of ${u.email}`, secret: reset.password });
      list.reload();
    }
  };
  const simple = (path, question) => async (u) => {
    if (!confirm(question(u))) return;
    if (await act.run(() => api('POST', `/admin/users/${encodeURIComponent(u.id)}/${path}`))) list.reload();
  };
  const resetSecondFactor = simple(
    'reset-second-factor',
    (u) => `Turn off two-factor sign-in for ${u.email}? They set it up again at their next sign-in if their role requires it.`,
  );
  const disable = simple('disable', (u) => `Disable ${u.email}? Their sessions and sign-ins are refused from now on.`);
  return html`<section class="card" aria-label="People">
    <h2>People</h2>
    <form class="inline" onSubmit=${create} aria-label="Add a person">
      <label>E-mail <input name="email" type="email" required maxlength="254" /></label>
      <label>Role <${RoleSelect} /></label>
      <button type="submit" disabled=${add.busy}>Add</button><${ErrorNote} error=${add.error} />
    </form>
    <${Loaded} state=${list}>${(page) => html`<table class="stack team">
      <thead><tr><th>E-mail</th><th>Role</th><th>Two-factor</th><th>Added</th><th>Status</th><th></th></tr></thead>
      <tbody>${page.data.map(
        (u) => html`<tr data-user=${u.email} data-status=${u.disabledAt ? 'disabled' : 'active'}>
          <td data-label="E-mail">${u.email}</td><td data-label="Role">${label(u.role)}</td><td data-label="Two-factor">${u.secondFactor ? 'on' : 'off'}</td><td data-label="Added"><${ZonedTime} iso=${u.createdAt} /></td>
          <td data-label="Status">${u.disabledAt ? `disabled ${time(u.disabledAt)}` : 'active'}</td>
          <td>${
            u.disabledAt
              ? null
              : html`<div class="actions">
                  <button type="button" disabled=${act.busy} onClick=${() => resetPassword(u)}>Reset password</button>
                  ${u.secondFactor ? html`<button type="button" disabled=${act.busy} onClick=${() => resetSecondFactor(u)}>Reset two-factor</button>` : null}
                  <button type="button" class="danger" disabled=${act.busy} onClick=${() => disable(u)}>Disable</button>
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
      onShown({ kind: 'token', what: `The secret of the service token ${created.token.name} (${created.token.role})`, secret: created.secret });
      list.reload();
    }
  };
  const revoke = async (tk) => {
    const whose = tk.userId ? `${emailOf(tk.userId)}'s personal token` : 'the service token';
    if (!confirm(`Revoke ${whose} ${tk.name} now? Every request with it is refused from now on.`)) return;
    if (await act.run(() => api('POST', `/admin/tokens/${encodeURIComponent(tk.id)}/revoke`))) list.reload();
  };
  return html`<section class="card" aria-label="API tokens">
    <h2>API tokens</h2>
    <p class="muted">Bearer tokens for the admin API (scripts, the CLI). A service token has one role and takes no decision. A personal token acts as its person and is made only by that person, on their own Account page: nobody makes one for someone else. Revoke any of them here.</p>
    <form class="inline" onSubmit=${create} aria-label="Issue a service token">
      <label>Name <input name="name" required minlength="2" maxlength="64" pattern="[A-Za-z0-9_.\\-]+" /></label>
      <label>Role <${RoleSelect} /></label>
      <button type="submit" disabled=${add.busy}>Issue</button><${ErrorNote} error=${add.error} />
    </form>
    <${Loaded} state=${list}>${(page) =>
      page.data.length === 0
        ? html`<p class="empty">No token yet.</p>`
        : html`<table class="stack team">
      <thead><tr><th>Name</th><th>Person</th><th>Role</th><th>Issued</th><th>Last used</th><th>Status</th><th></th></tr></thead>
      <tbody>${page.data.map(
        (tk) => html`<tr data-token=${tk.name} data-status=${tk.revokedAt ? 'revoked' : 'active'}>
          <td data-label="Name"><code>${tk.name}</code></td><td data-label="Person">${tk.userId ? emailOf(tk.userId) : html`<span class="muted">service</span>`}</td><td data-label="Role">${label(tk.role)}</td><td data-label="Issued"><${ZonedTime} iso=${tk.createdAt} /></td><td data-label="Last used"><${ZonedTime} iso=${tk.lastUsedAt} /></td>
          <td data-label="Status">${tk.revokedAt ? `revoked ${time(tk.revokedAt)}` : 'active'}</td>
          <td>${tk.revokedAt ? null : html`<button type="button" class="danger" disabled=${act.busy} onClick=${() => revoke(tk)}>Revoke</button>`}</td>
        </tr>`,
      )}</tbody>
    </table>`}<//>
    <${ErrorNote} error=${act.error} />
  </section>`;
}

export function TeamPage() {
  const [shown, setShown] = useState(undefined);
  const people = useLoad(() => (may() ? api('GET', '/admin/users') : Promise.resolve({ data: [] })));
  if (!may()) return html`<p class="muted">The team is managed by admins.</p>`;
  return html`<div>
    ${shown ? html`<${ShownOnce} shown=${shown} />` : null}
    <${People} list=${people} onShown=${setShown} />
    <${Tokens} people=${people} onShown=${setShown} />
  </div>`;
}
