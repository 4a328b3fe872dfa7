// The KYC queue: players waiting for compliance, newest change first, with their submissions and
// history; a decision takes a status and a reason (kept in the history and the audit log).
import {
  html,
  api,
  query,
  useLoad,
  useAction,
  useStatusPages,
  useEnvironment,
  Loaded,
  ErrorNote,
  OperatorBrand,
  Reference,
  ZonedTime,
  may,
  person,
  label,
  say,
} from './kit.js';

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
  if (!may('compliance')) return html`<p class="muted">${say('As decisões são do compliance.', 'Decisions are taken by compliance.')}</p>`;
  return html`<form class="decide" onSubmit=${submit} aria-label=${`KYC decision for ${player.externalId}`}>
    <label>${say('Decisão', 'Decision')} <select name="status">${DECISIONS.map((s) => html`<option value=${s}>${label(s)}</option>`)}</select></label>
    <label>${say('Motivo', 'Reason')} <input name="reason" maxlength="500" placeholder=${say('por quê (fica no histórico)', 'why (kept in the history)')} /></label>
    <button type="submit" disabled=${action.busy}>${say('Registrar decisão', 'Record decision')}</button>
    <${ErrorNote} error=${action.error} />
  </form>`;
}

export function PlayerKyc({ file }) {
  return html`<div class="columns">
    <section><h3>${say('Documentos enviados', 'Submissions')}</h3>
      ${file.kyc.submissions.length === 0 ? html`<p class="muted">${say('Nenhum.', 'None.')}</p>` : null}
      <ul class="submissions">${file.kyc.submissions.map(
        (s) =>
          html`<li><strong>${label(s.documentType)}</strong> <${Reference} value=${s.reference} /> <span class="muted"><${ZonedTime} iso=${s.createdAt} /></span></li>`,
      )}</ul>
    </section>
    <section><h3>${say('Histórico', 'History')}</h3>
      ${file.kyc.history.length === 0 ? html`<p class="muted">${say('Nenhuma mudança ainda.', 'No change yet.')}</p>` : null}
      <ul>${file.kyc.history.map(
        (c) => html`<li>${label(c.previousStatus)} → <strong>${label(c.status)}</strong> <span class="muted"><${ZonedTime} iso=${c.at} /></span>
          ${c.actor ? html` ${say('por', 'by')} ${person(c.actor)}` : html` <span class="muted">${say('(envio ou sandbox)', '(submission or sandbox)')}</span>`}${c.reason ? html` — “${c.reason}”` : null}</li>`,
      )}</ul>
    </section>
  </div>`;
}

export function KycPage() {
  const { status, cursor, tabs, next } = useStatusPages('KYC status', WAITING);
  const { environment, toggle } = useEnvironment();
  const queue = useLoad(() => api('GET', `/admin/kyc-queue${query({ status, cursor, environment, limit: 20 })}`), [status, cursor, environment]);
  return html`<div>
    ${toggle}
    ${tabs}
    <${Loaded} state=${queue}>${(page) => html`
      ${page.data.length === 0 ? html`<p class="empty">${say(`Ninguém aguarda em ${label(status)}.`, `Nobody is waiting in ${label(status)}.`)}</p>` : null}
      ${page.data.map(
        (file) => html`<article class="card" data-player=${file.player.id} data-environment=${file.player.environment}>
          <h2>${file.player.name} <small><code>${file.player.externalId}</code></small></h2>
          <p class="muted"><code>${file.player.id}</code> · <${OperatorBrand} player=${file.player} /> · KYC <strong>${label(file.kyc.status)}</strong> ${say('desde', 'since')} <${ZonedTime} iso=${file.kyc.updatedAt} /> · <a href=${`/players?id=${encodeURIComponent(file.player.id)}`}>${say('apostador', 'player')}</a></p>
          <${PlayerKyc} file=${file} />
          <${Decide} player=${file.player} onDone=${queue.reload} />
        </article>`,
      )}
      ${page.nextCursor ? html`<button type="button" onClick=${() => next(page.nextCursor)}>${say('Próxima página', 'Next page')}</button>` : null}
    `}<//>
  </div>`;
}
