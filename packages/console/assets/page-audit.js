// The audit log, newest first, filtered by target (player:…, withdrawal:…, operator:…), actor and action.
import { useState } from 'preact/hooks';
import { html, api, query, useLoad, Loaded, ZonedTime, person, say } from './kit.js';

const json = (v) => (v === null || v === undefined ? '' : JSON.stringify(v));

export function AuditPage() {
  const params = new URLSearchParams(location.search);
  const [filter, setFilter] = useState({ target: params.get('target') ?? '', actor: params.get('actor') ?? '', action: params.get('action') ?? '' });
  const log = useLoad(() => api('GET', `/admin/audit${query({ ...filter, limit: 100 })}`), [filter.target, filter.actor, filter.action]);
  const submit = (e) => {
    e.preventDefault();
    const f = e.currentTarget;
    setFilter({ target: f.target.value.trim(), actor: f.actor.value.trim(), action: f.action.value.trim() });
  };
  return html`<div>
    <form class="search" onSubmit=${submit} aria-label="Audit filter">
      <label>${say('Alvo', 'Target')} <input name="target" value=${filter.target} placeholder="withdrawal:wd_…" /></label>
      <label>${say('Quem', 'Actor')} <input name="actor" value=${filter.actor} placeholder=${say('nome@equipe', 'name@team')} /></label>
      <label>${say('Ação', 'Action')} <input name="action" value=${filter.action} placeholder="adminWithdrawalDecision" /></label>
      <button type="submit">${say('Filtrar', 'Filter')}</button>
    </form>
    <${Loaded} state=${log}>${(page) =>
      page.data.length === 0
        ? html`<p class="empty">${say('Nenhuma linha de auditoria corresponde.', 'No audit row matches.')}</p>`
        : html`<table class="audit stack"><thead><tr><th>${say('Quando', 'When')}</th><th>${say('Quem', 'Actor')}</th><th>${say('Ação', 'Action')}</th><th>${say('Alvo', 'Target')}</th><th>${say('Antes', 'Before')}</th><th>${say('Depois', 'After')}</th></tr></thead>
          <tbody>${page.data.map(
            // The action is the API operation's name and the target and values as recorded: shown as code, verbatim.
            (a) =>
              html`<tr><td data-label=${say('Quando', 'When')}><${ZonedTime} iso=${a.at} /></td><td data-label=${say('Quem', 'Actor')} title=${a.actor}>${person(a.actor)}</td><td data-label=${say('Ação', 'Action')}><code>${a.action}</code></td><td data-label=${say('Alvo', 'Target')}><code>${a.target}</code></td><td data-label=${say('Antes', 'Before')}><code>${json(a.before)}</code></td><td data-label=${say('Depois', 'After')}><code>${json(a.after)}</code></td></tr>`,
          )}</tbody></table>`}<//>
  </div>`;
}
