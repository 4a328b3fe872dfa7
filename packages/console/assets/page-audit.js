// The audit log, newest first, filtered by target (player:…, withdrawal:…, operator:…), actor and action.
import { useState } from 'preact/hooks';
import { html, api, query, useLoad, Loaded, ZonedTime } from './kit.js';

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
      <label>Target <input name="target" value=${filter.target} placeholder="withdrawal:wd_…" /></label>
      <label>Actor <input name="actor" value=${filter.actor} placeholder="name@team" /></label>
      <label>Action <input name="action" value=${filter.action} placeholder="adminWithdrawalDecision" /></label>
      <button type="submit">Filter</button>
    </form>
    <${Loaded} state=${log}>${(page) =>
      page.data.length === 0
        ? html`<p class="empty">No audit row matches.</p>`
        : html`<table class="audit stack"><thead><tr><th>When</th><th>Actor</th><th>Action</th><th>Target</th><th>Before</th><th>After</th></tr></thead>
          <tbody>${page.data.map(
            (a) =>
              html`<tr><td data-label="When"><${ZonedTime} iso=${a.at} /></td><td data-label="Actor">${a.actor}</td><td data-label="Action">${a.action}</td><td data-label="Target"><code>${a.target}</code></td><td data-label="Before"><code>${json(a.before)}</code></td><td data-label="After"><code>${json(a.after)}</code></td></tr>`,
          )}</tbody></table>`}<//>
  </div>`;
}
