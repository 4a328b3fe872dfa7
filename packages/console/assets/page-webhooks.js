// Webhook deliveries by event or operator, newest attempt first, with redelivery (support). An event is
// named by what happened, its id beside it (a link to that event's attempts).
import { useState } from 'preact/hooks';
import { html, api, query, useLoad, useAction, Loaded, ErrorNote, ZonedTime, may, label, say } from './kit.js';

function Redeliver({ eventId }) {
  const action = useAction();
  if (!may('support')) return null;
  return html`<button type="button" disabled=${action.busy} onClick=${() => action.run(() => api('POST', `/admin/webhook-deliveries/${encodeURIComponent(eventId)}/redeliver`))}>${say('Reenviar', 'Redeliver')}</button>
    ${action.done ? html`<span class="ok">${say('agendado', 'scheduled')}</span>` : null}<${ErrorNote} error=${action.error} />`;
}

/** An event by what happened; its id beside it, as the operator's logs and support tickets quote it. */
const EventName = ({ d }) =>
  html`<span data-event-type=${d.eventType}>${label(d.eventType)}</span> <small><a href=${`/webhooks${query({ eventId: d.eventId })}`} title=${say('Todas as tentativas deste evento', 'Every attempt of this event')}><code>${d.eventId}</code></a></small>`;

export function WebhooksPage() {
  const params = new URLSearchParams(location.search);
  const [filter, setFilter] = useState({ operatorId: params.get('operatorId') ?? '', eventId: params.get('eventId') ?? '' });
  const operators = useLoad(() => api('GET', '/admin/operators'));
  const log = useLoad(
    async () => (filter.operatorId || filter.eventId ? api('GET', `/admin/webhook-deliveries${query(filter)}`) : undefined),
    [filter.operatorId, filter.eventId],
  );
  const submit = (e) => {
    e.preventDefault();
    const f = e.currentTarget;
    setFilter({ operatorId: f.operatorId.value, eventId: f.eventId.value.trim() });
  };
  return html`<div>
    <form class="search" onSubmit=${submit} aria-label=${say('Filtrar entregas', 'Filter the deliveries')}>
      <label>${say('Operador', 'Operator')} <select name="operatorId"><option value="">—</option>
        <${Loaded} state=${operators}>${(p) => p.data.map((o) => html`<option value=${o.id} selected=${o.id === filter.operatorId}>${o.name}</option>`)}<//></select></label>
      <label>${say('ou id do evento', 'or event id')} <input name="eventId" value=${filter.eventId} maxlength="64" /></label>
      <button type="submit">${say('Mostrar entregas', 'Show deliveries')}</button>
    </form>
    <${Loaded} state=${log}>${(page) =>
      page === undefined
        ? html`<p class="muted">${say('Escolha um operador ou um evento.', 'Choose an operator or an event.')}</p>`
        : page.data.length === 0
          ? html`<p class="empty">${say('Nenhuma entrega.', 'No delivery.')}</p>`
          : html`<table class="stack deliveries"><thead><tr><th>${say('Quando', 'When')}</th><th>${say('Evento', 'Event')}</th><th>${say('Tentativa', 'Attempt')}</th><th>URL</th><th>${say('Resultado', 'Outcome')}</th><th>HTTP</th><th>${say('Erro', 'Error')}</th><th></th></tr></thead>
            <tbody>${page.data.map(
              (
                d,
              ) => html`<tr><td data-label=${say('Quando', 'When')}><${ZonedTime} iso=${d.at} /></td><td data-label=${say('Evento', 'Event')}><${EventName} d=${d} /></td><td data-label=${say('Tentativa', 'Attempt')}>${d.attempt}</td><td data-label="URL"><code>${d.url}</code></td><td data-label=${say('Resultado', 'Outcome')}>${d.outcome ? label(d.outcome) : '—'}</td><td data-label="HTTP">${d.statusCode ?? '—'}</td><td data-label=${say('Erro', 'Error')}>${d.error ? html`<code>${d.error}</code>` : ''}</td>
                <td><${Redeliver} eventId=${d.eventId} /></td></tr>`,
            )}</tbody></table>`}<//>
  </div>`;
}
