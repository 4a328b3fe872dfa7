// The KYC queue: players waiting for compliance, newest change first, with their submissions and
// history; a decision takes a status and a reason (kept in the history and the audit log).
import { html, api, query, useLoad, useAction, useStatusPages, Loaded, ErrorNote, OperatorBrand, Reference, time, may } from './kit.js';

const WAITING = ['em_analise', 'pendente', 'documento_solicitado'];
const DECISIONS = ['aprovado', 'reprovado', 'documento_solicitado', 'expirado'];

function Decide({ player, onDone }) {
  const action = useAction();
  const submit = async (e) => {
    e.preventDefault();
    const form = e.currentTarget;
    const body = { status: form.status.value, ...(form.reason.value.trim() ? { reason: form.reason.value.trim() } : {}) };
    if (await action.run(() => api('POST', `/admin/players/${encodeURIComponent(player.id)}/kyc/decision`, body))) onDone();
  };
  if (!may('compliance')) return html`<p class="muted">Decisions are taken by compliance.</p>`;
  return html`<form class="decide" onSubmit=${submit} aria-label=${`KYC decision for ${player.externalId}`}>
    <label>Decision <select name="status">${DECISIONS.map((s) => html`<option value=${s}>${s}</option>`)}</select></label>
    <label>Reason <input name="reason" maxlength="500" placeholder="why (kept in the history)" /></label>
    <button type="submit" disabled=${action.busy}>Record decision</button>
    <${ErrorNote} error=${action.error} />
  </form>`;
}

export function PlayerKyc({ file }) {
  return html`<div class="columns">
    <section><h3>Submissions</h3>
      ${file.kyc.submissions.length === 0 ? html`<p class="muted">None.</p>` : null}
      <ul class="submissions">${file.kyc.submissions.map(
        (s) => html`<li><strong>${s.documentType}</strong> <${Reference} value=${s.reference} /> <span class="muted">${time(s.createdAt)}</span></li>`,
      )}</ul>
    </section>
    <section><h3>History</h3>
      ${file.kyc.history.length === 0 ? html`<p class="muted">No change yet.</p>` : null}
      <ul>${file.kyc.history.map(
        (c) => html`<li>${c.previousStatus} → <strong>${c.status}</strong> <span class="muted">${time(c.at)}</span>
          ${c.actor ? html` by ${c.actor}` : html` <span class="muted">(submission or sandbox)</span>`}${c.reason ? html` — “${c.reason}”` : null}</li>`,
      )}</ul>
    </section>
  </div>`;
}

export function KycPage() {
  const { status, cursor, tabs, next } = useStatusPages('KYC status', WAITING);
  const queue = useLoad(() => api('GET', `/admin/kyc-queue${query({ status, cursor, limit: 20 })}`), [status, cursor]);
  return html`<div>
    ${tabs}
    <${Loaded} state=${queue}>${(page) => html`
      ${page.data.length === 0 ? html`<p class="empty">Nobody is waiting in ${status}.</p>` : null}
      ${page.data.map(
        (file) => html`<article class="card" data-player=${file.player.id}>
          <h2>${file.player.name} <small><code>${file.player.externalId}</code></small></h2>
          <p class="muted"><code>${file.player.id}</code> · <${OperatorBrand} player=${file.player} /> · KYC <strong>${file.kyc.status}</strong> since ${time(file.kyc.updatedAt)} · <a href=${`/players?id=${encodeURIComponent(file.player.id)}`}>player</a></p>
          <${PlayerKyc} file=${file} />
          <${Decide} player=${file.player} onDone=${queue.reload} />
        </article>`,
      )}
      ${page.nextCursor ? html`<button type="button" onClick=${() => next(page.nextCursor)}>Next page</button>` : null}
    `}<//>
  </div>`;
}
