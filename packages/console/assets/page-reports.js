// The daily regulator files (compliance and finance; docs/aml.md): the kept files newest day
// first (one brand, a range of days), each with its time zone, whether its last check tied, its
// line counts and its downloads (the whole file as JSON, each part as CSV); a day's file checked
// now (made first when the day is over and the job has not made it).
import { useState } from 'preact/hooks';
import { html, api, query, useLoad, useAction, Loaded, ErrorNote, time } from './kit.js';
import { SigapSection } from './page-sigap.js';

const PARTS = ['bettors', 'accounts', 'deposits', 'withdrawals', 'rounds', 'provider_transactions', 'status_changes'];
const base = (f) => `/admin/reports/daily/files/${encodeURIComponent(f.brandId)}/${f.date}`;
const ties = (v) => (v === true ? 'ties' : v === false ? 'does not tie' : 'not checked');

function Downloads({ file }) {
  const url = `${base(file)}/download`;
  return html`<span class="downloads">
    <a href=${`${url}?format=json`} download>JSON</a>
    ${PARTS.map((p) => html` · <a href=${`${url}?format=csv&part=${p}`} download>${p}.csv</a>`)}
  </span>`;
}

function Check({ check }) {
  return html`<article class="card" data-file=${`${check.brandId}/${check.date}`} aria-label=${`File ${check.brandId} ${check.date}`}>
    <h2>${check.brandId} · ${check.date} <small>${ties(check.ties)}</small></h2>
    <p class="muted">${check.timeZone} (${check.timeZoneSource ?? 'unknown'}) · made ${time(check.madeAt)} · checked ${time(check.checkedAt)}</p>
    <p>Ledger: opening ${check.totals.opening}, deposits ${check.totals.deposits}, withdrawals ${check.totals.withdrawals}, bets ${check.totals.bets}, wins ${check.totals.wins}, other ${check.totals.other}, closing ${check.totals.closing}</p>
    <p>Line items: deposits ${check.lineTotals.deposits}, withdrawals ${check.lineTotals.withdrawals}, stakes ${check.lineTotals.stakes}, payouts ${check.lineTotals.payouts}; providers' bets ${check.lineTotals.providerBets}, wins ${check.lineTotals.providerWins}, rollbacks ${check.lineTotals.providerRollbacks}, corrections ${check.lineTotals.providerCorrections}</p>
    ${check.problems.length ? html`<ul class="error">${check.problems.map((p) => html`<li>${p}</li>`)}</ul>` : null}
    <p><${Downloads} file=${check} /></p>
  </article>`;
}

// A file made before providers' lines were listed has no count of them (it had none).
const counts = (c) => (c ? PARTS.map((p) => `${c[p] ?? 0} ${p.replaceAll('_', ' ')}`).join(' · ') : 'ledger part only');

export function ReportsPage() {
  const params = new URLSearchParams(location.search);
  const [filter, setFilter] = useState({ brandId: params.get('brandId') ?? '', from: params.get('from') ?? '', to: params.get('to') ?? '' });
  const [cursor, setCursor] = useState(undefined);
  const [check, setCheck] = useState(undefined);
  const action = useAction();
  const list = useLoad(
    () => api('GET', `/admin/reports/daily/files${query({ ...filter, cursor, limit: 30 })}`),
    [filter.brandId, filter.from, filter.to, cursor],
  );
  const submit = (e) => {
    e.preventDefault();
    const f = e.currentTarget;
    setCursor(undefined);
    setFilter({ brandId: f.brandId.value.trim(), from: f.from.value, to: f.to.value });
  };
  const checkDay = async (brandId, date) => {
    const result = await action.run(() => api('GET', `/admin/reports/daily/files/${encodeURIComponent(brandId)}/${date}`));
    if (result) {
      setCheck(result);
      list.reload();
    }
  };
  const submitDay = (e) => {
    e.preventDefault();
    const f = e.currentTarget;
    checkDay(f.brandId.value.trim(), f.date.value);
  };
  return html`<div>
    <p>One file per brand and day, in the brand's time zone, made shortly after its midnight (SPA/MF Ordinance 722/2024, art. 10; our own layout: the SIGAP formats are not public).</p>
    <h2>A day's file</h2>
    <form class="search" onSubmit=${submitDay} aria-label="Check a day">
      <label>Brand <input name="brandId" required placeholder="brd_…" /></label>
      <label>Day <input name="date" type="date" required /></label>
      <button type="submit" disabled=${action.busy}>${action.busy ? 'Checking…' : 'Make or check'}</button>
    </form>
    <${ErrorNote} error=${action.error} />
    ${check ? html`<${Check} check=${check} />` : null}
    <h2>Kept files</h2>
    <form class="search" onSubmit=${submit} aria-label="Filter files">
      <label>Brand <input name="brandId" value=${filter.brandId} placeholder="brd_…" /></label>
      <label>From <input name="from" type="date" value=${filter.from} /></label>
      <label>To <input name="to" type="date" value=${filter.to} /></label>
      <button type="submit">List</button>
    </form>
    <${Loaded} state=${list}>${(page) => html`
      ${
        page.data.length === 0
          ? html`<p class="empty">No file is kept for this filter.</p>`
          : html`<table class="stack files"><thead><tr><th>Day</th><th>Brand</th><th>Time zone</th><th>Check</th><th>Made</th><th>Lines</th><th>Download</th><th></th></tr></thead>
            <tbody>${page.data.map(
              (f) => html`<tr data-file=${`${f.brandId}/${f.date}`}>
                <td data-label="Day">${f.date}</td>
                <td data-label="Brand"><code>${f.brandId}</code></td>
                <td data-label="Time zone">${f.timeZone} <span class="muted">(${f.timeZoneSource ?? 'unknown'})</span></td>
                <td data-label="Check">${ties(f.ties)} <span class="muted">${time(f.checkedAt)}</span></td>
                <td data-label="Made">${time(f.madeAt)}</td>
                <td data-label="Lines">${counts(f.counts)}</td>
                <td data-label="Download"><${Downloads} file=${f} /></td>
                <td><button type="button" onClick=${() => checkDay(f.brandId, f.date)} disabled=${action.busy}>Check</button></td>
              </tr>`,
            )}</tbody></table>`
      }
      ${page.nextCursor ? html`<button type="button" onClick=${() => setCursor(page.nextCursor)}>Next page</button>` : null}
    `}<//>
    <${SigapSection} />
  </div>`;
}
