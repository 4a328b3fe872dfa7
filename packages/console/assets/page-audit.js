// The audit log, newest first, a page at a time, filtered by target (player:…, withdrawal:…, operator:…),
// actor and action. Each row as the team reads it (audit-words.js): what was done in words, the kind of
// thing it was done to with its id, and the fields it changed from their value before to their value after;
// the row as recorded (its JSON) one click away.
import { useState } from 'preact/hooks';
import { html, api, query, useLoad, Loaded, ZonedTime, person, say } from './kit.js';
import { actionWords, changedFields, targetWords, valueWords } from './audit-words.js';

const PAGE_SIZE = 25;
const json = (v) => (v === null || v === undefined ? '—' : JSON.stringify(v, null, 1));

/** A value as audit-words.js writes it: words, a person's own words quoted, or an identifier as code. */
function Value({ k, v }) {
  const w = valueWords(k, v);
  if (w.code !== undefined) return html`<code>${w.code}</code>`;
  if (w.quoted !== undefined) return html`<q data-verbatim>${w.quoted}</q>`;
  return w.text;
}

/** The fields a row changed: its name (the API's, as code, where the console has no word for it), before → after. */
function Changes({ row }) {
  const fields = changedFields(row.before, row.after);
  if (fields.length === 0) return html`<span class="muted">${say('nenhum campo mudou', 'no field changed')}</span>`;
  return html`<ul class="changes">${fields.map(
    (f) =>
      html`<li data-field=${f.key}>${f.name ?? html`<code>${f.key}</code>`}: ${
        f.before === undefined ? null : html`<span class="before"><${Value} k=${f.key} v=${f.before} /></span> → `
      }${f.after === undefined ? html`<span class="muted">${say('retirado', 'removed')}</span>` : html`<${Value} k=${f.key} v=${f.after} />`}</li>`,
  )}</ul>`;
}

function Target({ target }) {
  const { kind, id } = targetWords(target);
  return kind ? html`${kind} <code>${id}</code>` : html`<code>${target}</code>`;
}

export function AuditPage() {
  const params = new URLSearchParams(location.search);
  const [filter, setFilter] = useState({ target: params.get('target') ?? '', actor: params.get('actor') ?? '', action: params.get('action') ?? '' });
  // The cursors of the pages read so far: the last one is the page shown (undefined: the newest).
  const [cursors, setCursors] = useState([undefined]);
  const cursor = cursors.at(-1);
  const log = useLoad(
    () => api('GET', `/admin/audit${query({ ...filter, limit: PAGE_SIZE, startingAfter: cursor })}`),
    [filter.target, filter.actor, filter.action, cursor],
  );
  const submit = (e) => {
    e.preventDefault();
    const f = e.currentTarget;
    setCursors([undefined]);
    setFilter({ target: f.target.value.trim(), actor: f.actor.value.trim(), action: f.action.value.trim() });
  };
  return html`<div>
    <form class="search" onSubmit=${submit} aria-label=${say('Filtro da auditoria', 'Audit filter')}>
      <label>${say('Alvo', 'Target')} <input name="target" value=${filter.target} placeholder="withdrawal:wd_…" /></label>
      <label>${say('Quem', 'Actor')} <input name="actor" value=${filter.actor} placeholder=${say('nome@equipe', 'name@team')} /></label>
      <label>${say('Ação', 'Action')} <input name="action" value=${filter.action} placeholder="adminWithdrawalDecision" /></label>
      <button type="submit">${say('Filtrar', 'Filter')}</button>
    </form>
    <${Loaded} state=${log}>${(page) =>
      page.data.length === 0
        ? html`<p class="empty">${say('Nenhuma linha de auditoria corresponde.', 'No audit row matches.')}</p>`
        : html`<table class="audit stack"><thead><tr><th>${say('Quando', 'When')}</th><th>${say('Quem', 'Actor')}</th><th>${say('O que fez', 'What was done')}</th><th>${say('Em', 'To')}</th><th>${say('O que mudou', 'What changed')}</th></tr></thead>
          <tbody>${page.data.map(
            (a) =>
              html`<tr data-audit=${a.id} data-action=${a.action}><td data-label=${say('Quando', 'When')}><${ZonedTime} iso=${a.at} /></td><td data-label=${say('Quem', 'Actor')} title=${a.actor}>${person(a.actor)}</td><td data-label=${say('O que fez', 'What was done')} title=${a.action}>${actionWords(a.action) ?? html`<code>${a.action}</code>`}</td><td data-label=${say('Em', 'To')}><${Target} target=${a.target} /></td><td data-label=${say('O que mudou', 'What changed')}><${Changes} row=${a} />
                <details class="as-recorded"><summary>${say('Como registrado', 'As recorded')}</summary><dl><dt>${say('Antes', 'Before')}</dt><dd><pre><code>${json(a.before)}</code></pre></dd><dt>${say('Depois', 'After')}</dt><dd><pre><code>${json(a.after)}</code></pre></dd></dl></details></td></tr>`,
          )}</tbody></table>
          <div class="toolbar pager">
            ${cursors.length > 1 ? html`<button type="button" onClick=${() => setCursors(cursors.slice(0, -1))}>${say('Página anterior', 'Previous page')}</button>` : null}
            ${page.hasMore ? html`<button type="button" data-next-page onClick=${() => setCursors([...cursors, page.data.at(-1).id])}>${say('Próxima página', 'Next page')}</button>` : null}
          </div>`}<//>
  </div>`;
}
