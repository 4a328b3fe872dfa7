// SIGAP files on the Regulator files page (issue #46; docs/aml.md, "SIGAP files"): a brand's day
// (made first when the day is over and its daily file ties), each file with its version, part,
// status, SIGAP's receipt or the phase and reasons of its rejection, and its download; sending the
// day, and a rejected type again after a correction (compliance; finance reads); and the kept
// files, newest day first (one brand, a range of days, one status).
import { useState } from 'preact/hooks';
import { html, api, query, useLoad, useAction, Loaded, ErrorNote, time, may } from './kit.js';

const STATUSES = ['made', 'sending', 'pending', 'accepted', 'rejected', 'failed'];
const dayPath = (brandId, date) => `/admin/reports/sigap/files/${encodeURIComponent(brandId)}/${date}`;
const downloadOf = (f) => `${dayPath(f.brandId, f.date)}/${encodeURIComponent(f.id)}/download`;

function Answer({ file }) {
  if (file.status === 'accepted') return html`<span>receipt <code>${file.receipt}</code></span>`;
  if (file.status === 'rejected')
    return html`<details><summary>${file.phase} · ${file.reasons.length} reason(s)</summary>
      <ul class="error">${file.reasons.map((r) => html`<li><code>${r.code}</code> ${r.message}</li>`)}</ul></details>`;
  if (file.status === 'pending') return html`<span class="muted">protocol <code>${file.protocol}</code></span>`;
  if (file.status === 'failed') return html`<span class="error">not delivered: ${file.lastError}</span>`;
  return html`<span class="muted">—</span>`;
}

function FilesTable({ files }) {
  return html`<table class="stack sigap-files"><thead><tr><th>Day</th><th>Brand</th><th>Type</th><th>Version</th><th>Part</th><th>Records</th><th>Status</th><th>SIGAP</th><th>Sent</th><th>File</th></tr></thead>
    <tbody>${files.map(
      (f) => html`<tr data-sigap-file=${f.id} class=${f.supersededAt ? 'muted' : ''}>
        <td data-label="Day">${f.date}</td>
        <td data-label="Brand"><code>${f.brandId}</code></td>
        <td data-label="Type">${f.fileType.replaceAll('_', ' ')}</td>
        <td data-label="Version">${f.version}${f.supersededAt ? ' (replaced)' : ''}${f.correction ? html`<br /><span class="muted">${f.correction}</span>` : null}</td>
        <td data-label="Part">${f.part} of ${f.parts}</td>
        <td data-label="Records">${f.records}</td>
        <td data-label="Status">${f.status} <span class="muted">(${f.via ?? 'not sent'}, ${f.attempts} attempt(s))</span></td>
        <td data-label="SIGAP"><${Answer} file=${f} /></td>
        <td data-label="Sent">${time(f.submittedAt)}</td>
        <td data-label="File"><a href=${downloadOf(f)} download>JSON</a></td>
      </tr>`,
    )}</tbody></table>`;
}

function Day({ day, onChange }) {
  const action = useAction();
  const rejected = [...new Set(day.files.filter((f) => !f.supersededAt && f.status === 'rejected').map((f) => f.fileType))];
  const send = async () => {
    const result = await action.run(() => api('POST', `${dayPath(day.brandId, day.date)}/submit`));
    if (result) onChange(result);
  };
  const resend = async (e) => {
    e.preventDefault();
    const f = e.currentTarget;
    const result = await action.run(() =>
      api('POST', `${dayPath(day.brandId, day.date)}/resend`, { fileType: f.fileType.value, correction: f.correction.value.trim() }),
    );
    if (result) onChange(result);
  };
  return html`<article class="card" data-sigap-day=${`${day.brandId}/${day.date}`} aria-label=${`SIGAP ${day.brandId} ${day.date}`}>
    <h2>${day.brandId} · ${day.date} <small>${day.accepted ? 'accepted' : 'not accepted'}</small></h2>
    <p class="muted">${day.timeZone} · due by ${time(day.deadline)} (06:00 São Paulo)</p>
    ${day.dailyFileTies ? null : html`<p class="error">The daily file does not tie: no SIGAP file is made from it.</p><ul class="error">${day.problems.map((p) => html`<li>${p}</li>`)}</ul>`}
    ${day.files.length ? html`<${FilesTable} files=${day.files} />` : null}
    ${
      may('compliance')
        ? html`<p><button type="button" onClick=${send} disabled=${action.busy || day.files.length === 0}>${action.busy ? 'Sending…' : 'Send to SIGAP'}</button></p>
          ${
            rejected.length
              ? html`<form class="search" onSubmit=${resend} aria-label="Resend after a correction">
                  <label>Type <select name="fileType">${rejected.map((t) => html`<option value=${t}>${t.replaceAll('_', ' ')}</option>`)}</select></label>
                  <label>Correction <input name="correction" required minlength="3" maxlength="500" placeholder="What was corrected" /></label>
                  <button type="submit" disabled=${action.busy}>Resend</button>
                </form>`
              : null
          }`
        : null
    }
    <${ErrorNote} error=${action.error} />
  </article>`;
}

export function SigapSection() {
  const [filter, setFilter] = useState({ brandId: '', from: '', to: '', status: '' });
  const [cursor, setCursor] = useState(undefined);
  const [day, setDay] = useState(undefined);
  const action = useAction();
  const list = useLoad(
    () => api('GET', `/admin/reports/sigap/files${query({ ...filter, cursor, limit: 30 })}`),
    [filter.brandId, filter.from, filter.to, filter.status, cursor],
  );
  const changed = (next) => {
    setDay(next);
    list.reload();
  };
  const openDay = async (e) => {
    e.preventDefault();
    const f = e.currentTarget;
    const result = await action.run(() => api('GET', dayPath(f.brandId.value.trim(), f.date.value)));
    if (result) changed(result);
  };
  const submit = (e) => {
    e.preventDefault();
    const f = e.currentTarget;
    setCursor(undefined);
    setFilter({ brandId: f.brandId.value.trim(), from: f.from.value, to: f.to.value, status: f.status.value });
  };
  return html`<section aria-label="SIGAP files">
    <h2>SIGAP files</h2>
    <p>What SIGAP receives of a brand's day (Portaria SPA/MF 722/2024, art. 10), made from its daily file once it ties; a file counts as sent only once SIGAP accepts it. Our own layout until the SIGAP manual's data model is public.</p>
    <form class="search" onSubmit=${openDay} aria-label="SIGAP day">
      <label>Brand <input name="brandId" required placeholder="brd_…" /></label>
      <label>Day <input name="date" type="date" required /></label>
      <button type="submit" disabled=${action.busy}>${action.busy ? 'Making…' : 'Make or show'}</button>
    </form>
    <${ErrorNote} error=${action.error} />
    ${day ? html`<${Day} day=${day} onChange=${changed} />` : null}
    <h3>Kept SIGAP files</h3>
    <form class="search" onSubmit=${submit} aria-label="Filter SIGAP files">
      <label>Brand <input name="brandId" value=${filter.brandId} placeholder="brd_…" /></label>
      <label>From <input name="from" type="date" value=${filter.from} /></label>
      <label>To <input name="to" type="date" value=${filter.to} /></label>
      <label>Status <select name="status" value=${filter.status}><option value="">any</option>${STATUSES.map((s) => html`<option value=${s}>${s}</option>`)}</select></label>
      <button type="submit">List</button>
    </form>
    <${Loaded} state=${list}>${(page) => html`
      ${page.data.length === 0 ? html`<p class="empty">No SIGAP file is kept for this filter.</p>` : html`<${FilesTable} files=${page.data} />`}
      ${page.nextCursor ? html`<button type="button" onClick=${() => setCursor(page.nextCursor)}>Next page</button>` : null}
    `}<//>
  </section>`;
}
