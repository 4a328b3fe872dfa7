// Personal data under the LGPD (issue #69; docs/privacy.md), for compliance: the players' data requests
// the operators filed, the open ones first by the day the law's 15 days end (overdue marked), and who
// of our team read which player's personal data, each reveal marked. An answered access or portability
// request's file is downloaded here as the operator reads it (the read recorded, every field revealed).
// Nothing else changes here: an operator files a request through its API, and every service answers it.
import { useState } from 'preact/hooks';
import { html, api, query, useLoad, Loaded, ZonedTime, OperatorName, label, person, say } from './kit.js';
import { PlayerPicker } from './pickers.js';

const VIEWS = [
  { id: 'open', filter: { status: 'received' }, title: () => say('Abertos', 'Open') },
  { id: 'overdue', filter: { overdue: true }, title: () => say('Após os 15 dias', 'Past the 15 days') },
  { id: 'all', filter: {}, title: () => say('Todos', 'All') },
];

const Player = ({ id }) => html`<a href=${`/players${query({ id })}`} title=${id}>${say('ver apostador', 'open the player')}</a>`;
/** The answer's file, whole: only an answered access or portability request has one. */
const hasFile = (r) => r.status === 'answered' && (r.type === 'access' || r.type === 'portability');
const FileLink = ({ r }) =>
  hasFile(r)
    ? html`<a href=${`/admin/players/${encodeURIComponent(r.playerId)}/data-requests/${encodeURIComponent(r.id)}/file`} download data-file>${say('Baixar (JSON)', 'Download (JSON)')}</a>`
    : '—';
const codes = (list) => (list.length === 0 ? '—' : list.map((c) => label(c)).join(', '));

function DataRequests() {
  const [view, setView] = useState(VIEWS[0]);
  const list = useLoad(() => api('GET', `/admin/data-requests${query({ ...view.filter, limit: 100 })}`), [view.id]);
  return html`<section data-section="data-requests" aria-label=${say('Pedidos dos titulares', "Players' data requests")}>
    <h2>${say('Pedidos dos titulares', "Players' data requests")}</h2>
    <p>${say(
      'O operador registra o pedido do apostador (acesso, portabilidade, correção, eliminação); a resposta é devida em 15 dias (LGPD, art. 19).',
      "The operator files its player's request (access, portability, correction, deletion); the answer is due within 15 days (LGPD, art. 19).",
    )}</p>
    <div class="toolbar" role="group" aria-label=${say('Quais pedidos', 'Which requests')}>${VIEWS.map(
      (v) => html`<button type="button" aria-pressed=${v.id === view.id} data-view=${v.id} onClick=${() => setView(v)}>${v.title()}</button>`,
    )}</div>
    <${Loaded} state=${list}>${(page) =>
      page.data.length === 0
        ? html`<p class="empty">${say('Nenhum pedido aqui.', 'No request here.')}</p>`
        : html`<table class="stack data-requests"><thead><tr><th>${say('Prazo', 'Due')}</th><th>${say('Recebido', 'Received')}</th><th>${say('Tipo', 'Type')}</th><th>${say('Situação', 'Status')}</th><th>${say('Operador', 'Operator')}</th><th>${say('Apostador', 'Player')}</th><th>${say('Respondido', 'Answered')}</th><th>${say('Arquivo', 'File')}</th></tr></thead>
          <tbody>${page.data.map(
            (r) => html`<tr data-request=${r.id} data-overdue=${String(r.overdue)}>
              <td data-label=${say('Prazo', 'Due')}><${ZonedTime} iso=${r.dueAt} />${r.overdue ? html` <strong class="late">${say('após o prazo', 'overdue')}</strong>` : null}</td>
              <td data-label=${say('Recebido', 'Received')}><${ZonedTime} iso=${r.receivedAt} /></td>
              <td data-label=${say('Tipo', 'Type')}>${label(r.type)}</td>
              <td data-label=${say('Situação', 'Status')} data-status=${r.status}>${label(r.status)}</td>
              <td data-label=${say('Operador', 'Operator')}><${OperatorName} operatorId=${r.operatorId} /></td>
              <td data-label=${say('Apostador', 'Player')}><${Player} id=${r.playerId} /></td>
              <td data-label=${say('Respondido', 'Answered')}>${r.answeredAt ? html`<${ZonedTime} iso=${r.answeredAt} />` : '—'}</td>
              <td data-label=${say('Arquivo', 'File')}><${FileLink} r=${r} /></td>
            </tr>`,
          )}</tbody></table>`}<//>
  </section>`;
}

function Reads() {
  const params = new URLSearchParams(location.search);
  const [filter, setFilter] = useState({ playerId: params.get('playerId') ?? '', revealed: false });
  const reads = useLoad(
    () => api('GET', `/admin/personal-data-reads${query({ playerId: filter.playerId || undefined, revealed: filter.revealed || undefined, limit: 100 })}`),
    [filter.playerId, filter.revealed],
  );
  const submit = (e) => {
    e.preventDefault();
    const f = e.currentTarget;
    setFilter({ playerId: f.playerId.value.trim(), revealed: f.revealed.checked });
  };
  return html`<section data-section="reads" aria-label=${say('Quem leu o quê', 'Who read what')}>
    <h2>${say('Quem leu o quê', 'Who read what')}</h2>
    <p>${say(
      'Cada leitura de dados pessoais de um apostador pela nossa equipe (CPF, telefone, endereço, IP), mascarados ou revelados, e cada leitura da fiscalização (LGPD, arts. 37 e 46).',
      "Every read of a player's personal data by our team (CPF, phone, address, IP), masked or revealed, and every read of a regulator (LGPD, arts. 37 and 46).",
    )}</p>
    <form class="search" onSubmit=${submit} aria-label=${say('Filtrar leituras', 'Filter the reads')}>
      <${PlayerPicker} value=${filter.playerId} />
      <label><input type="checkbox" name="revealed" checked=${filter.revealed} /> ${say('Só revelações', 'Reveals only')}</label>
      <button type="submit">${say('Filtrar', 'Filter')}</button>
    </form>
    <${Loaded} state=${reads}>${(page) =>
      page.data.length === 0
        ? html`<p class="empty">${say('Nenhuma leitura corresponde.', 'No read matches.')}</p>`
        : html`<table class="stack reads"><thead><tr><th>${say('Quando', 'When')}</th><th>${say('Quem', 'Who')}</th><th>${say('Papel', 'Role')}</th><th>${say('Apostador', 'Player')}</th><th>${say('Dados', 'Data')}</th><th>${say('Revelados', 'Revealed')}</th><th>${say('Onde', 'Where')}</th></tr></thead>
          <tbody>${page.data.map(
            // The route is the API's template as recorded (never a query): shown as code, verbatim.
            (r) => html`<tr data-read=${r.id} data-player=${r.playerId ?? ''} data-revealed=${String(r.revealed.length > 0)}>
              <td data-label=${say('Quando', 'When')}><${ZonedTime} iso=${r.at} /></td>
              <td data-label=${say('Quem', 'Who')} title=${r.actor}>${person(r.actor)}</td>
              <td data-label=${say('Papel', 'Role')}>${label(r.role)}</td>
              <td data-label=${say('Apostador', 'Player')}>${r.playerId ? html`<${Player} id=${r.playerId} />` : '—'}</td>
              <td data-label=${say('Dados', 'Data')}>${codes(r.fields)}</td>
              <td data-label=${say('Revelados', 'Revealed')}>${r.revealed.length ? html`<strong>${codes(r.revealed)}</strong>` : '—'}</td>
              <td data-label=${say('Onde', 'Where')}><code>${r.route}</code></td>
            </tr>`,
          )}</tbody></table>`}<//>
  </section>`;
}

export function PrivacyPage() {
  return html`<div><${DataRequests} /><${Reads} /></div>`;
}
