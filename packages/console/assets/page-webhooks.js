// Webhook deliveries by event or operator, newest attempt first, with redelivery (support).
import { useState } from 'preact/hooks';
import { html, api, query, useLoad, useAction, Loaded, ErrorNote, ZonedTime, may } from './kit.js';

function Redeliver({ eventId }) {
  const action = useAction();
  if (!may('support')) return null;
  return html`<button type="button" disabled=${action.busy} onClick=${() => action.run(() => api('POST', `/admin/webhook-deliveries/${encodeURIComponent(eventId)}/redeliver`))}>Redeliver</button>
    ${action.done ? html`<span class="ok">scheduled</span>` : null}<${ErrorNote} error=${action.error} />`;
}

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
    <form class="search" onSubmit=${submit} aria-label="Delivery filter">
      <label>Operator <select name="operatorId"><option value="">—</option>
        <${Loaded} state=${operators}>${(p) => p.data.map((o) => html`<option value=${o.id} selected=${o.id === filter.operatorId}>${o.name}</option>`)}<//></select></label>
      <label>or event id <input name="eventId" value=${filter.eventId} maxlength="64" /></label>
      <button type="submit">Show deliveries</button>
    </form>
    <${Loaded} state=${log}>${(page) =>
      page === undefined
        ? html`<p class="muted">Choose an operator or an event.</p>`
        : page.data.length === 0
          ? html`<p class="empty">No delivery.</p>`
          : html`<table class="stack"><thead><tr><th>When</th><th>Event</th><th>Attempt</th><th>URL</th><th>Outcome</th><th>HTTP</th><th>Error</th><th></th></tr></thead>
            <tbody>${page.data.map(
              (
                d,
              ) => html`<tr><td data-label="When"><${ZonedTime} iso=${d.at} /></td><td data-label="Event"><code>${d.eventId}</code></td><td data-label="Attempt">${d.attempt}</td><td data-label="URL">${d.url}</td><td data-label="Outcome">${d.outcome ?? '—'}</td><td data-label="HTTP">${d.statusCode ?? '—'}</td><td data-label="Error">${d.error ?? ''}</td>
                <td><${Redeliver} eventId=${d.eventId} /></td></tr>`,
            )}</tbody></table>`}<//>
  </div>`;
}
