// AML cases (compliance only). The queue: one line per case (risk, rules, operator and brand by name,
// player, opened and age in the brand's time zone, status, assignee, whether it holds payouts), with
// filters (status, risk, rule, operator, assignee, age), oldest or newest first, a page at a time. A
// case's own page (`/aml?case=ID`): the evidence (a payer mismatch names the payer), the steps, the
// player's file and whole money picture, the COS download, the assignment, and the decision form
// (under review, reported with the Siscoaf receipt, dismissed; four eyes: whoever reviewed a case does
// not report it).
import { useState } from 'preact/hooks';
import { html, api, query, useLoad, useAction, useStatusPages, Loaded, ErrorNote, OperatorBrand, ZonedTime, age, me } from './kit.js';
import { PlayerKyc } from './page-kyc.js';
import { Money } from './page-players.js';
import { AnnualReports, CosDeadline, CosLeft, CosQueue, Links, RiskRegister } from './page-aml-duties.js';

const STATUSES = ['open', 'under_review', 'reported', 'dismissed'];
const NEXT = { open: ['under_review', 'dismissed'], under_review: ['reported', 'dismissed'], reported: [], dismissed: [] };
/** Each rule in Portuguese and English (docs/aml.md gives each rule's source). */
const RULES = {
  in_and_out: 'Entrada e saída sem jogo / In and out',
  split_deposits: 'Depósitos fracionados / Split deposits',
  high_value: 'Valor elevado / High value',
  shared_destination: 'Destino compartilhado / Shared destination',
  payer_mismatch: 'Pagador não é o apostador / Payer is not the player',
  velocity: 'Velocidade / Velocity',
  pep: 'Pessoa politicamente exposta / PEP',
  sanctions: 'Sanções / Sanctions',
};
const RISKS = ['high', 'medium', 'low'];
const AGES = [
  ['', 'any age'],
  ['1', 'older than a day'],
  ['7', 'older than a week'],
  ['30', 'older than 30 days'],
];
const ruleLabel = (r) => RULES[r] ?? r;
const caseLink = (id) => `/aml${query({ case: id })}`;

function Evidence({ items, zone, payers }) {
  return html`<table class="stack"><thead><tr><th>When</th><th>Rule</th><th>What it saw</th><th>Events</th></tr></thead>
    <tbody>${items.map(
      (
        e,
      ) => html`<tr><td data-label="When"><${ZonedTime} iso=${e.at} zone=${zone} /></td><td data-label="Rule"><strong>${ruleLabel(e.rule)}</strong></td><td data-label="What">${e.summary}</td>
        <td data-label="Events">${(e.facts.events ?? []).map((x) => {
          const payer = e.rule === 'payer_mismatch' ? payers?.get(x.reference) : undefined;
          return html`<div><code>${x.reference ?? x.id}</code> ${x.type} ${x.amount ?? ''} <span class="muted"><${ZonedTime} iso=${x.at} zone=${zone} /></span>${
            payer ? html` · <span data-evidence-payer=${payer.cpf}>paid by ${payer.cpf}${payer.name ? ` ${payer.name}` : ''}</span>` : null
          }</div>`;
        })}</td></tr>`,
    )}</tbody></table>`;
}

function Steps({ steps, zone }) {
  return html`<ol>${steps.map(
    (s) =>
      html`<li><strong>${s.status}</strong> by ${s.by} <span class="muted"><${ZonedTime} iso=${s.at} zone=${zone} /></span> — “${s.reason}”${s.receipt ? html` · receipt <code>${s.receipt}</code>` : null}</li>`,
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
    <ul>${risk.history.map((h) => html`<li>${h.level} <span class="muted"><${ZonedTime} iso=${h.at} zone=${c.timeZone} /></span> by ${h.by} — ${h.reason}</li>`)}</ul>
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

function Assignment({ c, onDone }) {
  const action = useAction();
  const give = (assignee) => action.run(() => api('PUT', `/admin/aml/cases/${encodeURIComponent(c.id)}/assignee`, { assignee })).then((r) => r && onDone());
  const mine = c.assignee === me();
  return html`<p class="actions" aria-label="Assignment">
    ${c.assignee ? html`Assigned to <strong data-assignee=${c.assignee}>${mine ? 'you' : c.assignee}</strong> since <${ZonedTime} iso=${c.assignedAt} zone=${c.timeZone} />` : html`<span class="muted">Nobody works it yet.</span>`}
    ${mine ? null : html` <button type="button" onClick=${() => give('me')} disabled=${action.busy}>Assign to me</button>`}
    ${c.assignee ? html` <button type="button" onClick=${() => give(null)} disabled=${action.busy}>Unassign</button>` : null}
    <${ErrorNote} error=${action.error} />
  </p>`;
}

function Decide({ c, onDone }) {
  const action = useAction();
  // Decided for reporting (issue #46): its COS is filed, the case is not dismissed.
  const choices = c.cos && !c.cos.filedAt ? ['reported'] : NEXT[c.status];
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

/** A case's own page: everything about it, and what our team does with it. */
function CasePage({ id }) {
  const full = useLoad(async () => {
    const c = await api('GET', `/admin/aml/cases/${encodeURIComponent(id)}`);
    // Who paid each deposit, for a payer mismatch's evidence (our team sees the payer unmasked).
    const deposits = c.rules.includes('payer_mismatch') ? (await api('GET', `/admin/deposits${query({ playerId: c.playerId, limit: 200 })}`)).data : [];
    return { c, payers: new Map(deposits.filter((d) => d.paidBy).map((d) => [d.id, d.paidBy])) };
  }, [id]);
  return html`<p><a href="/aml">← All cases</a></p>
    <${Loaded} state=${full}>${({ c, payers }) => html`<article class="card" data-case=${c.id}>
      <h2>${c.rules.map(ruleLabel).join(', ')} <small>risk <strong>${c.risk}</strong> · ${c.status}</small></h2>
      <p class="muted case-line"><code>${c.id}</code> · <${OperatorBrand} player=${c} /> · opened <${ZonedTime} iso=${c.openedAt} zone=${c.timeZone} /> (${age(c.openedAt)} ago)</p>
      ${c.holdsPayouts ? html`<p class="note" data-holds-payouts>Payout held: the player's withdrawals are not paid while this case is open or under review.</p>` : null}
      <${Assignment} c=${c} onDone=${full.reload} />
      <section><h3>Evidence</h3><${Evidence} items=${c.evidence} zone=${c.timeZone} payers=${payers} /></section>
      <section><h3>Steps</h3><${Steps} steps=${c.steps} zone=${c.timeZone} /></section>
      <section><h3>Player</h3><${PlayerFile} c=${c} /></section>
      <${CosDeadline} c=${c} onDone=${full.reload} />
      <${CosExport} c=${c} />
      <${Decide} c=${c} onDone=${full.reload} />
    </article>`}<//>`;
}

function useOperators() {
  return useLoad(() => api('GET', '/admin/operators').then((p) => p.data));
}

/** The queue's filters, kept in the address so a filtered queue can be shared. */
function Filters({ filters, onChange }) {
  const operators = useOperators();
  const set = (name) => (e) => onChange({ ...filters, [name]: e.currentTarget.value || undefined });
  return html`<form class="inline filters" aria-label="Filter cases" onSubmit=${(e) => e.preventDefault()}>
    <label>Risk <select name="risk" onChange=${set('risk')}><option value="">any</option>${RISKS.map((r) => html`<option value=${r} selected=${filters.risk === r}>${r}</option>`)}</select></label>
    <label>Rule <select name="rule" onChange=${set('rule')}><option value="">any</option>${Object.entries(RULES).map(
      ([r, label]) => html`<option value=${r} selected=${filters.rule === r}>${label}</option>`,
    )}</select></label>
    <label>Operator <select name="operatorId" onChange=${set('operatorId')}><option value="">any</option>${(operators.data ?? []).map(
      (o) => html`<option value=${o.id} selected=${filters.operatorId === o.id}>${o.name}</option>`,
    )}</select></label>
    <label>Assignee <select name="assignee" onChange=${set('assignee')}>
      <option value="">anyone</option><option value="me" selected=${filters.assignee === 'me'}>me</option><option value="none" selected=${filters.assignee === 'none'}>nobody</option>
    </select></label>
    <label>Age <select name="olderThanDays" onChange=${set('olderThanDays')}>${AGES.map(([d, label]) => html`<option value=${d} selected=${(filters.olderThanDays ?? '') === d}>${label}</option>`)}</select></label>
    <label>Order <select name="order" onChange=${set('order')}><option value="newest">newest first</option><option value="oldest" selected=${filters.order === 'oldest'}>oldest first</option></select></label>
  </form>`;
}

const FILTER_KEYS = ['risk', 'rule', 'operatorId', 'assignee', 'olderThanDays', 'order'];

function Queue() {
  const { status, cursor, tabs, next } = useStatusPages('Case status', STATUSES);
  const params = new URLSearchParams(location.search);
  const [filters, setFilters] = useState(Object.fromEntries(FILTER_KEYS.map((k) => [k, params.get(k) ?? undefined])));
  const playerId = params.get('playerId') ?? undefined;
  const change = (f) => {
    setFilters(f);
    next(undefined);
    history.replaceState(null, '', `/aml${query({ status, ...f })}`);
  };
  const openedBefore = filters.olderThanDays ? new Date(Date.now() - Number(filters.olderThanDays) * 86_400_000).toISOString() : undefined;
  const apiFilters = Object.fromEntries(Object.entries(filters).filter(([k]) => k !== 'olderThanDays'));
  const queue = useLoad(
    () => api('GET', `/admin/aml/cases${query({ status, cursor, playerId, ...apiFilters, openedBefore, limit: 25 })}`),
    [status, cursor, JSON.stringify(filters)],
  );
  return html`<div>
    <${Links} />
    ${tabs}
    <${Filters} filters=${filters} onChange=${change} />
    <${Loaded} state=${queue}>${(page) => html`
      ${
        page.data.length === 0
          ? html`<p class="empty">No ${status} case matches.</p>`
          : html`<table class="stack cases"><thead><tr><th>Risk</th><th>Rules</th><th>Operator / brand</th><th>Opened</th><th>Age</th><th>Status</th><th>COS</th><th>Assignee</th><th></th></tr></thead>
        <tbody>${page.data.map(
          (c) => html`<tr data-case-row=${c.id} data-risk=${c.risk}>
            <td data-label="Risk"><strong>${c.risk}</strong></td>
            <td data-label="Rules"><a href=${caseLink(c.id)}>${c.rules.map(ruleLabel).join(', ')}</a></td>
            <td data-label="Operator / brand"><${OperatorBrand} player=${c} /></td>
            <td data-label="Opened"><${ZonedTime} iso=${c.openedAt} zone=${c.timeZone} /></td>
            <td data-label="Age">${age(c.openedAt)}</td>
            <td data-label="Status">${c.status}</td>
            <td data-label="COS"><${CosLeft} cos=${c.cos} /></td>
            <td data-label="Assignee">${c.assignee ?? '—'}</td>
            <td>${c.holdsPayouts ? html`<strong class="hold">payout held</strong>` : null}</td>
          </tr>`,
        )}</tbody></table>`
      }
      ${page.nextCursor ? html`<button type="button" onClick=${() => next(page.nextCursor)}>Next page</button>` : null}
    `}<//>
  </div>`;
}

/** The views of AML beyond the players (issue #46): the COS to file, the risk register, the yearly reports. */
const VIEWS = { cos: CosQueue, register: RiskRegister, annual: AnnualReports };

export function AmlPage() {
  const params = new URLSearchParams(location.search);
  const id = params.get('case');
  const View = VIEWS[params.get('view')];
  return id ? html`<${CasePage} id=${id} />` : View ? html`<${View} />` : html`<${Queue} />`;
}
