// AML cases (compliance only): the queue by status; a case with its rules, evidence, steps, the
// player's file, risk history and ledger; and the decision form (under review, reported with the
// Siscoaf receipt, dismissed; four eyes: whoever reviewed a case does not report it).
import { html, api, query, useLoad, useAction, useStatusPages, Loaded, ErrorNote, time, me } from './kit.js';
import { PlayerKyc } from './page-kyc.js';
import { Money } from './page-players.js';

const STATUSES = ['open', 'under_review', 'reported', 'dismissed'];
const NEXT = { open: ['under_review', 'dismissed'], under_review: ['reported', 'dismissed'], reported: [], dismissed: [] };

function Evidence({ items }) {
  return html`<table><thead><tr><th>When</th><th>Rule</th><th>What it saw</th><th>Events</th></tr></thead>
    <tbody>${items.map(
      (e) => html`<tr><td>${time(e.at)}</td><td><strong>${e.rule}</strong></td><td>${e.summary}</td>
        <td>${(e.facts.events ?? []).map((x) => html`<div><code>${x.reference ?? x.id}</code> ${x.type} ${x.amount ?? ''} <span class="muted">${time(x.at)}</span></div>`)}</td></tr>`,
    )}</tbody></table>`;
}

function Steps({ steps }) {
  return html`<ol>${steps.map(
    (s) =>
      html`<li><strong>${s.status}</strong> by ${s.by} <span class="muted">${time(s.at)}</span> — “${s.reason}”${s.receipt ? html` · receipt <code>${s.receipt}</code>` : null}</li>`,
  )}</ol>`;
}

function PlayerFile({ c }) {
  const file = useLoad(async () => {
    const [player, risk] = await Promise.all([
      api('GET', `/admin/players/${encodeURIComponent(c.playerId)}`),
      api('GET', `/admin/aml/players/${encodeURIComponent(c.playerId)}/risk`),
    ]);
    return { player, risk };
  }, [c.id]);
  return html`<${Loaded} state=${file}>${({ player, risk }) => html`
    <p><a href=${`/players?id=${encodeURIComponent(c.playerId)}`}>${player.player.name}</a> <code>${player.player.externalId}</code> · CPF ${player.player.cpf} · status ${player.player.status} · KYC ${player.player.kycStatus}</p>
    <p>Risk <strong>${risk.level}</strong></p>
    <ul>${risk.history.map((h) => html`<li>${h.level} <span class="muted">${time(h.at)}</span> by ${h.by} — ${h.reason}</li>`)}</ul>
    <details><summary>KYC</summary><${PlayerKyc} file=${player} /></details>
    <details open><summary>Money: wallet, ledger, deposits with their payer, withdrawals with destination and holds</summary><${Money} player=${player.player} /></details>
  `}<//>`;
}

/** The COS of a case under review or reported, as the CSV to file with Siscoaf (the admin API's `cos`), downloaded here. */
function CosExport({ c }) {
  const action = useAction();
  if (c.status !== 'under_review' && c.status !== 'reported') return null;
  const download = async () => {
    const cos = await action.run(() => api('GET', `/admin/aml/cases/${encodeURIComponent(c.id)}/cos`));
    if (!cos) return;
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([cos.csv], { type: 'text/csv;charset=utf-8' }));
    link.download = `cos-${c.id}.csv`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
  };
  return html`<div class="actions"><button type="button" onClick=${download} disabled=${action.busy}>Download the COS (CSV)</button><${ErrorNote} error=${action.error} /></div>`;
}

function Decide({ c, onDone }) {
  const action = useAction();
  const choices = NEXT[c.status];
  if (choices.length === 0) return null;
  const reviewedByMe = c.status === 'under_review' && c.steps.some((s) => s.status === 'under_review' && s.by === me());
  const submit = async (e) => {
    e.preventDefault();
    const f = e.currentTarget;
    const body = { status: f.status.value, reason: f.reason.value.trim(), ...(f.receipt.value.trim() ? { receipt: f.receipt.value.trim() } : {}) };
    if (await action.run(() => api('POST', `/admin/aml/cases/${encodeURIComponent(c.id)}/decision`, body))) onDone();
  };
  return html`<form class="decide" onSubmit=${submit} aria-label=${`Decision on case ${c.id}`}>
    <label>Decision <select name="status">${choices.map((s) => html`<option value=${s}>${s}</option>`)}</select></label>
    <label>Reason <input name="reason" required maxlength="2000" placeholder="why (kept in the case and the audit log)" /></label>
    <label>Siscoaf receipt <input name="receipt" maxlength="128" placeholder="only when reported" /></label>
    <button type="submit" disabled=${action.busy}>Record decision</button>
    ${reviewedByMe ? html`<p class="note">Four eyes: you took this case under review, so another person reports it.</p>` : null}
    <${ErrorNote} error=${action.error} />
  </form>`;
}

function CaseCard({ summary, onDone }) {
  const full = useLoad(() => api('GET', `/admin/aml/cases/${encodeURIComponent(summary.id)}`), [summary.id, summary.updatedAt]);
  return html`<article class="card" data-case=${summary.id}>
    <h2>${summary.rules.join(', ')} <small>risk <strong>${summary.risk}</strong> · ${summary.status}</small></h2>
    <p class="muted"><code>${summary.id}</code> · ${summary.operatorId} / ${summary.brandId} (${summary.environment}) · opened ${time(summary.openedAt)}</p>
    <${Loaded} state=${full}>${(c) => html`
      <section><h3>Evidence</h3><${Evidence} items=${c.evidence} /></section>
      <section><h3>Steps</h3><${Steps} steps=${c.steps} /></section>
      <section><h3>Player</h3><${PlayerFile} c=${c} /></section>
      <${CosExport} c=${c} />
      <${Decide} c=${c} onDone=${onDone} />
    `}<//>
  </article>`;
}

export function AmlPage() {
  const { status, cursor, tabs, next } = useStatusPages('Case status', STATUSES);
  const playerId = new URLSearchParams(location.search).get('playerId') ?? undefined;
  const queue = useLoad(() => api('GET', `/admin/aml/cases${query({ status, cursor, playerId, limit: 20 })}`), [status, cursor]);
  return html`<div>
    ${tabs}
    <${Loaded} state=${queue}>${(page) => html`
      ${page.data.length === 0 ? html`<p class="empty">No case is ${status}.</p>` : null}
      ${page.data.map((c) => html`<${CaseCard} key=${c.id} summary=${c} onDone=${queue.reload} />`)}
      ${page.nextCursor ? html`<button type="button" onClick=${() => next(page.nextCursor)}>Next page</button>` : null}
    `}<//>
  </div>`;
}
